// Workspace, schema migrations, RunStore and the sample workspace on real SQLite files in temporary folders.
#include "app/data/dataset_store.h"
#include "app/run/run_store.h"
#include "app/workspace/sample_workspace.h"
#include "app/workspace/schema_migrations.h"
#include "app/workspace/workspace.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::app;

class TestWorkspace : public QObject {
    Q_OBJECT

    static QVariant scalar(const QSqlDatabase &db, const QString &sql) {
        QSqlQuery q(db);
        if (!q.exec(sql) || !q.next()) return {};
        return q.value(0);
    }

    static QByteArray fileHash(const QString &path) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) return {};
        return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
    }

    /// A project plus a draft run without architecture, for state-machine and metric tests.
    static qint64 makeRun(RunStore &store) {
        const auto project = store.createProject(QStringLiteral("P"));
        if (!project) return 0;
        const auto run = store.createRun(project->id, 0, QStringLiteral("r"), {{QStringLiteral("epochs"), 1}});
        return run ? run->id : 0;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void defaultPathIsUnderGenericData() {
        const QString path = Workspace::defaultPath();
        QVERIFY(path.endsWith(QStringLiteral("/Diamond/default")));
        QVERIFY(path.startsWith(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)));
    }

    void openExistingFailsOnEmptyFolder() {
        QTemporaryDir dir;
        Workspace ws;
        QVERIFY(!ws.open(dir.path()));
        QVERIFY(!ws.isOpen());
        QVERIFY(ws.errorString().contains(dir.path()));
        QVERIFY(!QFile::exists(QDir(dir.path()).filePath(Workspace::databaseFileName())));
    }

    void createAndReopen() {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("nested/ws"));
        {
            Workspace ws;
            QVERIFY2(ws.create(folder), qPrintable(ws.errorString()));
            QVERIFY(ws.wasCreated());
            QCOMPARE(ws.path(), folder);
            QCOMPARE(ws.schemaVersion(), latestSchemaVersion());
            RunStore store(ws);
            QVERIFY(store.createProject(QStringLiteral("Kept")));
        }
        QVERIFY(Workspace::exists(folder));
        Workspace ws;
        QVERIFY2(ws.open(folder), qPrintable(ws.errorString()));
        QVERIFY(!ws.wasCreated());
        RunStore store(ws);
        QVERIFY(store.projectByName(QStringLiteral("Kept")));
    }

    void newWorkspaceIsPrivate() {
        // The folder and the database of a new workspace are the user's alone (0700 / 0600), whatever the umask.
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("private/ws"));
        Workspace ws;
        QVERIFY2(ws.create(folder), qPrintable(ws.errorString()));
        const auto others = QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ExeGroup |
                            QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther;
        QCOMPARE(QFileInfo(folder).permissions() & others, QFileDevice::Permissions());
        for (const QString &file : QDir(folder).entryList({QStringLiteral("diamond.db*")}, QDir::Files)) {
            QCOMPARE(QFileInfo(QDir(folder).filePath(file)).permissions() & others, QFileDevice::Permissions());
            QVERIFY(QFileInfo(QDir(folder).filePath(file)).permissions() & QFileDevice::ReadOwner);
        }
        ws.close();
        // An older workspace's readable database is tightened when opened.
        const QString db = QDir(folder).filePath(QStringLiteral("diamond.db"));
        QVERIFY(QFile::setPermissions(db, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther));
        QVERIFY(ws.open(folder));
        QCOMPARE(QFileInfo(db).permissions() & others, QFileDevice::Permissions());
    }

    void pragmasAreInEffect() {
        QTemporaryDir dir;
        Workspace ws;
        QVERIFY(ws.create(dir.path()));
        const QSqlDatabase db = ws.database();
        QCOMPARE(scalar(db, QStringLiteral("PRAGMA journal_mode")).toString(), QStringLiteral("wal"));
        QCOMPARE(scalar(db, QStringLiteral("PRAGMA busy_timeout")).toInt(), 5000);
        QCOMPARE(scalar(db, QStringLiteral("PRAGMA foreign_keys")).toInt(), 1);
        QCOMPARE(scalar(db, QStringLiteral("PRAGMA synchronous")).toInt(), 1); // NORMAL
        // Foreign keys are enforced: a run of a missing project is refused.
        QSqlQuery q(db);
        QVERIFY(!q.exec(QStringLiteral("INSERT INTO runs (project_id, name, config_json, created_at, updated_at)"
                                       " VALUES (999, 'x', '{}', 'now', 'now')")));
    }

    void migrationsAreRecorded() {
        QTemporaryDir dir;
        Workspace ws;
        QVERIFY(ws.create(dir.path()));
        {
            const QSqlDatabase db = ws.database();
            QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")).toInt(), latestSchemaVersion());
            QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(*) FROM schema_migrations")).toInt(),
                     latestSchemaVersion());
            QCOMPARE(scalar(db, QStringLiteral("SELECT MAX(version) FROM schema_migrations")).toInt(),
                     latestSchemaVersion());
            for (const char *table : {"projects", "architectures", "architecture_versions", "runs", "run_transitions",
                                      "metric_names", "metric_points", "events", "checkpoints", "datasets",
                                      "cluster_profiles", "sweeps", "trials", "gallery_entries"}) {
                QSqlQuery q(db);
                q.prepare(QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?"));
                q.addBindValue(QString::fromLatin1(table));
                QVERIFY(q.exec() && q.next());
                QVERIFY2(q.value(0).toInt() == 1, table);
            }
        }
        // Reopening applies nothing twice.
        ws.close();
        QVERIFY(ws.open(dir.path()));
        QCOMPARE(scalar(ws.database(), QStringLiteral("SELECT COUNT(*) FROM schema_migrations")).toInt(),
                 latestSchemaVersion());
    }

    void newerSchemaIsRefusedAndFileUnchanged() {
        QTemporaryDir dir;
        {
            Workspace ws;
            QVERIFY(ws.create(dir.path()));
        }
        const QString dbFile = QDir(dir.path()).filePath(Workspace::databaseFileName());
        const int newer = latestSchemaVersion() + 7;
        {
            auto raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
            raw.setDatabaseName(dbFile);
            QVERIFY(raw.open());
            QSqlQuery q(raw);
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = %1").arg(newer)));
            QVERIFY(q.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")));
            q.finish();
            raw.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("raw"));
        const QByteArray before = fileHash(dbFile);
        QVERIFY(!before.isEmpty());

        Workspace ws;
        QVERIFY(!ws.open(dir.path()));
        QVERIFY(!ws.isOpen());
        const QString error = ws.errorString();
        QVERIFY2(error.contains(dbFile), qPrintable(error));
        QVERIFY2(error.contains(QString::number(newer)), qPrintable(error));
        QVERIFY2(error.contains(QString::number(latestSchemaVersion())), qPrintable(error));
        QVERIFY(!ws.create(dir.path())); // also in create mode
        QCOMPARE(fileHash(dbFile), before);
    }

    void secondConnectionSeesWrites() {
        QTemporaryDir dir;
        Workspace a, b;
        QVERIFY(a.create(dir.path()));
        QVERIFY(b.open(dir.path()));
        QVERIFY(a.database().connectionName() != b.database().connectionName());
        RunStore sa(a), sb(b);
        const qint64 runId = makeRun(sa);
        QVERIFY(runId > 0);
        QVERIFY(sb.projectByName(QStringLiteral("P")));
        QVERIFY2(sb.transition(runId, RunState::Queued), qPrintable(sb.errorString()));
        QCOMPARE(sa.run(runId)->state, RunState::Queued);
        // Same name from the other connection is refused.
        QVERIFY(!sb.createProject(QStringLiteral("P")));
        QVERIFY(sb.errorString().contains(QStringLiteral("already exists")));
    }

    void stateMachineTable() {
        using S = RunState;
        QVERIFY(isRunTransitionAllowed(S::Draft, S::Queued));
        QVERIFY(isRunTransitionAllowed(S::Running, S::Preempted));
        QVERIFY(isRunTransitionAllowed(S::Preempted, S::Resumed));
        QVERIFY(isRunTransitionAllowed(S::Resumed, S::Running));
        QVERIFY(!isRunTransitionAllowed(S::Draft, S::Running));
        QVERIFY(!isRunTransitionAllowed(S::Finished, S::Running));
        QVERIFY(!isRunTransitionAllowed(S::Finished, S::Resumed));
        QVERIFY(!isRunTransitionAllowed(S::Preempted, S::Running));
        QVERIFY(!isRunTransitionAllowed(S::Queued, S::Finished));
        QCOMPARE(stateForExitCode(0), S::Finished);
        QCOMPARE(stateForExitCode(85), S::Preempted);
        QCOMPARE(stateForExitCode(1), S::Failed);
        for (S s : {S::Draft, S::Queued, S::Running, S::Finished, S::Failed, S::Cancelled, S::Preempted, S::Resumed})
            QCOMPARE(runStateFromName(runStateName(s)), std::optional<S>(s));
        QVERIFY(!runStateFromName(QStringLiteral("bogus")));
    }

    void runTransitionsAreStored() {
        QTemporaryDir dir;
        Workspace ws;
        QVERIFY(ws.create(dir.path()));
        RunStore store(ws);
        const qint64 id = makeRun(store);
        QVERIFY(id > 0);
        QVERIFY(!store.transition(id, RunState::Running));
        QVERIFY(store.errorString().contains(QStringLiteral("draft")));
        QCOMPARE(store.run(id)->state, RunState::Draft);

        QVERIFY(store.transition(id, RunState::Queued));
        QVERIFY(store.transition(id, RunState::Running, QStringLiteral("pid 1")));
        const QString started = store.run(id)->startedAt;
        QVERIFY(!started.isEmpty());
        QVERIFY(store.transition(id, stateForExitCode(85), {}, 85));
        QCOMPARE(store.run(id)->exitCode, std::optional<int>(85));
        QVERIFY(!store.transition(id, RunState::Running));
        QVERIFY(store.transition(id, RunState::Resumed));
        QVERIFY(!store.run(id)->exitCode);
        QVERIFY(store.transition(id, RunState::Running));
        QCOMPARE(store.run(id)->startedAt, started); // first start is kept
        QVERIFY(store.transition(id, RunState::Finished, {}, 0));
        QVERIFY(!store.transition(id, RunState::Running));
        QVERIFY(!store.transition(id, RunState::Resumed));
        QVERIFY(!store.transition(id + 100, RunState::Queued));

        const Run run = *store.run(id);
        QCOMPARE(run.state, RunState::Finished);
        QCOMPARE(run.exitCode, std::optional<int>(0));
        QVERIFY(!run.finishedAt.isEmpty());

        const auto t = store.transitions(id);
        const QList<RunState> expected = {RunState::Draft,   RunState::Queued,  RunState::Running, RunState::Preempted,
                                          RunState::Resumed, RunState::Running, RunState::Finished};
        QCOMPARE(t.size(), expected.size());
        QVERIFY(!t.first().from);
        for (int i = 0; i < t.size(); ++i) {
            QCOMPARE(t[i].to, expected[i]);
            if (i > 0) QCOMPARE(*t[i].from, expected[i - 1]);
            QVERIFY(t[i].at.endsWith(QLatin1Char('Z')));
        }
        QCOMPARE(t[2].note, QStringLiteral("pid 1"));

        QVERIFY(store.setRunResult(id, {{QStringLiteral("accuracy"), 0.9}}, QStringLiteral("abc")));
        QCOMPARE(store.run(id)->finalMetrics.value(QStringLiteral("accuracy")).toDouble(), 0.9);
        QCOMPARE(store.run(id)->weightsHash, QStringLiteral("abc"));
    }

    void metricPointsRefuseDuplicates() {
        QTemporaryDir dir;
        Workspace ws;
        QVERIFY(ws.create(dir.path()));
        RunStore store(ws);
        const qint64 id = makeRun(store);
        const QString loss = QStringLiteral("loss");
        QCOMPARE(store.addMetricPoints(id, {{1, loss, MetricSplit::Train, 2.0, 10.0},
                                            {2, loss, MetricSplit::Train, 1.5, 11.0},
                                            {2, loss, MetricSplit::Train, 9.9, 12.0},
                                            {2, loss, MetricSplit::Validation, 1.7, 11.0}}),
                 3);
        QCOMPARE(store.addMetricPoints(id, {{1, loss, MetricSplit::Train, 5.0, 13.0}}), 0);
        const auto train = store.metricPoints(id, loss, MetricSplit::Train);
        QCOMPARE(train.size(), 2);
        QCOMPARE(train[1].step, 2);
        QCOMPARE(train[1].value, 1.5);
        QCOMPARE(store.metricPoints(id, loss, MetricSplit::Validation).size(), 1);
        // A plain INSERT of an existing key is refused by the primary key.
        QSqlQuery q(ws.database());
        QVERIFY(!q.exec(QStringLiteral("INSERT INTO metric_points VALUES (%1, %2, 0, 1, 0.0, 0.0)")
                            .arg(id)
                            .arg(*store.metricNameId(loss))));
        QCOMPARE(scalar(ws.database(), QStringLiteral("SELECT COUNT(*) FROM metric_names")).toInt(), 1);

        QCOMPARE(store.lastEventOffset(id), -1);
        QVERIFY(store.addEvent(id, 0, QStringLiteral("start"), "{\"event\":\"start\"}"));
        QVERIFY(store.addEvent(id, 18, QStringLiteral("metrics"), "{}"));
        QVERIFY(store.addEvent(id, 18, QStringLiteral("metrics"), "{}"));
        QCOMPARE(store.lastEventOffset(id), 18);
        QCOMPARE(scalar(ws.database(), QStringLiteral("SELECT COUNT(*) FROM events")).toInt(), 2);
    }

    void architectureVersionsAreHashed() {
        QTemporaryDir dir;
        Workspace ws;
        QVERIFY(ws.create(dir.path()));
        RunStore store(ws);
        const auto project = store.createProject(QStringLiteral("P"));
        const auto arch = store.ensureArchitecture(project->id, QStringLiteral("net"));
        QVERIFY(arch);
        QCOMPARE(store.ensureArchitecture(project->id, QStringLiteral("net")), arch);
        QJsonObject a{{QStringLiteral("b"), 1}, {QStringLiteral("a"), 2}};
        QJsonObject same;
        same.insert(QStringLiteral("a"), 2);
        same.insert(QStringLiteral("b"), 1);
        QCOMPARE(RunStore::specContentHash(a), RunStore::specContentHash(same));
        QCOMPARE(
            RunStore::specContentHash(a),
            QString::fromLatin1(QCryptographicHash::hash("{\"a\":2,\"b\":1}", QCryptographicHash::Sha256).toHex()));
        const auto v1 = store.addArchitectureVersion(*arch, a);
        QVERIFY(v1);
        QCOMPARE(v1->version, 1);
        QCOMPARE(store.addArchitectureVersion(*arch, same)->id, v1->id);
        const auto v2 = store.addArchitectureVersion(*arch, {{QStringLiteral("a"), 3}});
        QCOMPARE(v2->version, 2);
        QCOMPARE(store.architectureVersion(v2->id)->contentHash, v2->contentHash);
    }

    void sampleWorkspaceHasFourDraftRuns() {
        QTemporaryDir dir;
        Workspace ws;
        QVERIFY(ws.create(dir.path()));
        const QStringList names = sampleExampleNames();
        QCOMPARE(names.size(), 4);
        for (const char *n : {"spirals", "shapes_mlp", "shapes_cnn", "sine_regression"})
            QVERIFY2(names.contains(QLatin1String(n)), n);
        QString error;
        QVERIFY2(populateSampleWorkspace(ws, &error), qPrintable(error));
        QVERIFY(populateSampleWorkspace(ws, &error)); // second call changes nothing
        RunStore store(ws);
        const auto project = store.projectByName(sampleProjectName());
        QVERIFY(project);
        const auto runs = store.runs(project->id);
        QCOMPARE(runs.size(), 4);
        QCOMPARE(store.runs().size(), 4);
        for (const Run &r : runs) {
            QCOMPARE(r.state, RunState::Draft);
            QVERIFY(names.contains(r.name));
            QCOMPARE(r.config.value(QStringLiteral("format")).toString(), QStringLiteral("diamond.run/1"));
            QVERIFY(r.architectureVersionId > 0);
            const QDir runDir(ws.runDirectory(r.id));
            QVERIFY(runDir.exists(QStringLiteral("spec.json")));
            QVERIFY(runDir.exists(QStringLiteral("run.json")));
            const auto arch = store.architectureVersion(r.architectureVersionId);
            QCOMPARE(QJsonDocument::fromJson(arch->specJson).object().value(QStringLiteral("format")).toString(),
                     QStringLiteral("diamond.spec/1"));
        }
        QCOMPARE(scalar(ws.database(), QStringLiteral("SELECT COUNT(*) FROM architectures")).toInt(), 4);
    }

    void sampleWorkspaceRegistersRealDatasets() {
        QTemporaryDir dir;
        Workspace ws;
        QVERIFY(ws.create(dir.path()));
        QCOMPARE(sampleDatasetNames(), (QStringList{QStringLiteral("iris"), QStringLiteral("wine"),
                                                    QStringLiteral("breast_cancer"), QStringLiteral("digits")}));
        // A dataset of the user's named like a sample one is kept as it is.
        const QString own = dir.filePath(QStringLiteral("own.csv"));
        {
            QFile f(own);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("a,b,label\n1,2,x\n3,4,y\n");
        }
        DatasetStore datasets(ws);
        QVERIFY2(datasets.addVersion(QStringLiteral("wine"), own), qPrintable(datasets.errorString()));
        QString error;
        QVERIFY2(populateSampleWorkspace(ws, &error), qPrintable(error));
        QVERIFY2(registerSampleDatasets(ws, &error), qPrintable(error)); // again: nothing new
        const QList<DatasetSummary> all = datasets.list();
        QCOMPARE(all.size(), 4);
        QCOMPARE(datasets.versions(QStringLiteral("wine")).size(), 1);
        QCOMPARE(datasets.resolve(QStringLiteral("wine"))->rows, 2);

        struct Expected {
            const char *name;
            qint64 rows;
            int classes;
            const char *origin;
        };
        for (const Expected &e : {Expected{"iris", 150, 3, "Fisher"}, Expected{"breast_cancer", 569, 2, "Wolberg"},
                                  Expected{"digits", 1797, 10, "Alpaydin"}}) {
            const auto v = datasets.resolve(QLatin1String(e.name));
            QVERIFY2(v, e.name);
            QCOMPARE(v->version, 1);
            QCOMPARE(v->format, QStringLiteral("csv"));
            QCOMPARE(v->rows, e.rows);
            QCOMPARE(v->schema.value(QStringLiteral("classes")).toObject().size(), e.classes);
            QVERIFY2(v->source.contains(QLatin1String(e.origin)), qPrintable(v->source));
            QVERIFY2(v->source.contains(QStringLiteral("Licence: CC BY 4.0")), qPrintable(v->source));
        }
        const QJsonObject iris = datasets.resolve(QStringLiteral("iris"))->schema;
        QCOMPARE(iris.value(QStringLiteral("classes")).toObject().value(QStringLiteral("versicolor")).toInt(), 50);
        QCOMPARE(
            iris.value(QStringLiteral("columns")).toArray().first().toObject().value(QStringLiteral("name")).toString(),
            QStringLiteral("sepal_length_cm"));
    }

    void firstStartAddsExamplesOnce() {
        QTemporaryDir dir;
        Workspace ws;
        QVERIFY2(openWorkspaceWithExamples(ws, dir.path()), qPrintable(ws.errorString()));
        RunStore store(ws);
        QCOMPARE(store.runs().size(), 4);
        ws.close();
        QVERIFY(openWorkspaceWithExamples(ws, dir.path()));
        RunStore again(ws);
        QCOMPARE(again.runs().size(), 4);
        QCOMPARE(again.projects().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
