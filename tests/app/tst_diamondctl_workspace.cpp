// diamondctl as a process: init, workspace info, project list|create on workspaces in temporary folders.
// HOME and XDG_DATA_HOME point into the temporary folder, so the real home directory is never touched.
#include "common/test_paths.h"

#include "app/workspace/schema_migrations.h"

#include <QCryptographicHash>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

class TestDiamondctlWorkspace : public QObject {
    Q_OBJECT

    struct Result {
        int exitCode = -1;
        QString out, err;
        QJsonObject json() const { return QJsonDocument::fromJson(out.toUtf8()).object(); }
    };

    QTemporaryDir home_;

    Result ctl(const QStringList &args, const QString &workspaceEnv = {}) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home_.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home_.filePath(QStringLiteral("xdg-data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home_.filePath(QStringLiteral("xdg-config")));
        env.remove(QStringLiteral("DIAMOND_WORKSPACE"));
        if (!workspaceEnv.isEmpty()) env.insert(QStringLiteral("DIAMOND_WORKSPACE"), workspaceEnv);
        p.setProcessEnvironment(env);
        p.start(diamond::test::binary(QStringLiteral("diamondctl")), args);
        Result r;
        if (!p.waitForFinished(60000)) return r;
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    QString ws(const char *name) const { return home_.filePath(QLatin1String(name)); }

    static QStringList with(const QString &workspace, QStringList args) {
        args.prepend(workspace);
        args.prepend(QStringLiteral("--workspace"));
        return args;
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(home_.isValid());
        QVERIFY(QFile::exists(diamond::test::binary(QStringLiteral("diamondctl"))));
    }

    void initCreatesWorkspaceWithExamples() {
        const QString dir = ws("a");
        const Result r = ctl(with(dir, {QStringLiteral("init"), QStringLiteral("--json")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject doc = r.json();
        QCOMPARE(doc.value(QStringLiteral("created")).toBool(), true);
        QCOMPARE(doc.value(QStringLiteral("path")).toString(), dir);
        QCOMPARE(doc.value(QStringLiteral("schema_version")).toInt(), diamond::app::latestSchemaVersion());
        const QJsonArray projects = doc.value(QStringLiteral("projects")).toArray();
        QCOMPARE(projects.size(), 1);
        QCOMPARE(projects[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("Examples"));
        QCOMPARE(projects[0].toObject().value(QStringLiteral("runs")).toInt(), 4);
        QVERIFY(QFile::exists(QDir(dir).filePath(QStringLiteral("diamond.db"))));

        const Result again = ctl(with(dir, {QStringLiteral("init"), QStringLiteral("--json")}));
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.json().value(QStringLiteral("created")).toBool(), false);
        QCOMPARE(again.json().value(QStringLiteral("projects")).toArray().size(), 1);

        const Result text = ctl(with(dir, {QStringLiteral("init")}));
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains(QStringLiteral("already exists")));
    }

    void workspaceInfo() {
        const QString dir = ws("a");
        const Result r =
            ctl(with(dir, {QStringLiteral("workspace"), QStringLiteral("info"), QStringLiteral("--json")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject doc = r.json();
        QCOMPARE(doc.value(QStringLiteral("path")).toString(), dir);
        QCOMPARE(doc.value(QStringLiteral("schema_version")).toInt(), diamond::app::latestSchemaVersion());
        QCOMPARE(doc.value(QStringLiteral("latest_schema_version")).toInt(), diamond::app::latestSchemaVersion());
        QCOMPARE(doc.value(QStringLiteral("journal_mode")).toString(), QStringLiteral("wal"));
        QCOMPARE(doc.value(QStringLiteral("projects")).toInt(), 1);
        QCOMPARE(doc.value(QStringLiteral("runs")).toInt(), 4);
        QCOMPARE(doc.value(QStringLiteral("runs_by_state")).toObject().value(QStringLiteral("draft")).toInt(), 4);

        // The option may also follow the command, and DIAMOND_WORKSPACE selects the folder without it.
        const Result text =
            ctl({QStringLiteral("workspace"), QStringLiteral("info"), QStringLiteral("--workspace"), dir});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains(dir));
        QVERIFY(text.out.contains(QStringLiteral("draft 4")));
        const Result env = ctl({QStringLiteral("workspace"), QStringLiteral("info"), QStringLiteral("--json")}, dir);
        QCOMPARE(env.exitCode, 0);
        QCOMPARE(env.json().value(QStringLiteral("path")).toString(), dir);
    }

    void projectCreateAndList() {
        const QString dir = ws("a");
        const Result c =
            ctl(with(dir, {QStringLiteral("project"), QStringLiteral("create"), QStringLiteral("Alpha"),
                           QStringLiteral("--description"), QStringLiteral("first"), QStringLiteral("--json")}));
        QVERIFY2(c.exitCode == 0, qPrintable(c.err));
        QCOMPARE(c.json().value(QStringLiteral("name")).toString(), QStringLiteral("Alpha"));
        QCOMPARE(c.json().value(QStringLiteral("description")).toString(), QStringLiteral("first"));
        QVERIFY(c.json().value(QStringLiteral("id")).toInt() > 0);

        const Result dup =
            ctl(with(dir, {QStringLiteral("project"), QStringLiteral("create"), QStringLiteral("Alpha")}));
        QCOMPARE(dup.exitCode, 1);
        QVERIFY2(dup.err.contains(QStringLiteral("already exists")), qPrintable(dup.err));
        QVERIFY(dup.out.isEmpty());

        const Result l = ctl(with(dir, {QStringLiteral("project"), QStringLiteral("list"), QStringLiteral("--json")}));
        QCOMPARE(l.exitCode, 0);
        const QJsonArray projects = l.json().value(QStringLiteral("projects")).toArray();
        QCOMPARE(projects.size(), 2);
        QStringList names;
        for (const auto &p : projects)
            names << p.toObject().value(QStringLiteral("name")).toString();
        QCOMPARE(names, QStringList({QStringLiteral("Alpha"), QStringLiteral("Examples")}));

        const Result text = ctl(with(dir, {QStringLiteral("project"), QStringLiteral("list")}));
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains(QStringLiteral("Alpha")));
        QVERIFY(text.out.contains(QStringLiteral("Examples")));
    }

    void initWithoutExamplesAndDefaultPath() {
        const Result bare =
            ctl(with(ws("bare"), {QStringLiteral("init"), QStringLiteral("--no-examples"), QStringLiteral("--json")}));
        QCOMPARE(bare.exitCode, 0);
        QCOMPARE(bare.json().value(QStringLiteral("projects")).toArray().size(), 0);

        // Without --workspace and DIAMOND_WORKSPACE: $XDG_DATA_HOME/Diamond/default (here inside home_).
        const Result def = ctl({QStringLiteral("init"), QStringLiteral("--json")});
        QVERIFY2(def.exitCode == 0, qPrintable(def.err));
        QCOMPARE(def.json().value(QStringLiteral("path")).toString(),
                 home_.filePath(QStringLiteral("xdg-data/Diamond/default")));
    }

    void errorsExitNonZeroWithMessage() {
        const Result missing = ctl(with(ws("nothing-here"), {QStringLiteral("project"), QStringLiteral("list")}));
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QStringLiteral("no Diamond workspace")), qPrintable(missing.err));
        QVERIFY(missing.err.contains(QStringLiteral("diamondctl init")));
        QVERIFY(!QFile::exists(ws("nothing-here")));

        QCOMPARE(ctl({QStringLiteral("--workspace")}).exitCode, 2);
        QCOMPARE(ctl(with(ws("a"), {QStringLiteral("project")})).exitCode, 2);
        QCOMPARE(ctl(with(ws("a"), {QStringLiteral("project"), QStringLiteral("rename")})).exitCode, 2);
        QCOMPARE(ctl(with(ws("a"), {QStringLiteral("project"), QStringLiteral("create")})).exitCode, 2);
        QCOMPARE(ctl(with(ws("a"), {QStringLiteral("workspace"), QStringLiteral("info"), QStringLiteral("--bogus")}))
                     .exitCode,
                 2);
        QCOMPARE(ctl(with(ws("a"), {QStringLiteral("workspace"), QStringLiteral("frob")})).exitCode, 2);

        // A file where the folder should be.
        QFile file(ws("a-file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const Result onFile = ctl(with(ws("a-file"), {QStringLiteral("init")}));
        QCOMPARE(onFile.exitCode, 1);
        QVERIFY(onFile.err.startsWith(QStringLiteral("diamondctl: ")));
    }

    void lessonsFromTheTerminal() {
        // diamondctl lesson: the shipped lessons, a check against the workspace and a network file, saved progress.
        const QString dir = ws("lessons");
        QCOMPARE(ctl(with(dir, {QStringLiteral("init")})).exitCode, 0);
        const Result list =
            ctl(with(dir, {QStringLiteral("lesson"), QStringLiteral("list"), QStringLiteral("--json")}));
        QCOMPARE(list.exitCode, 0);
        const QJsonArray lessons = list.json().value(QStringLiteral("lessons")).toArray();
        QVERIFY(lessons.size() >= 7);
        QCOMPARE(lessons.first().toObject().value(QStringLiteral("done")).toInt(), 0);

        const QString spec = home_.filePath(QStringLiteral("narrow.json"));
        {
            QFile in(QStringLiteral(DIAMOND_SOURCE_DIR "/resources/examples/spirals/spec.json"));
            QVERIFY(in.open(QIODevice::ReadOnly));
            QByteArray text = in.readAll();
            QVERIFY(text.contains("\"out_features\": 64"));
            text.replace("\"out_features\": 64", "\"out_features\": 24"); // fc1 and fc2
            QFile out(spec);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(text);
        }
        const Result check =
            ctl(with(dir, {QStringLiteral("lesson"), QStringLiteral("check"), QStringLiteral("first-network"),
                           QStringLiteral("--spec"), spec, QStringLiteral("--json")}));
        QCOMPARE(check.exitCode, 0);
        const QJsonArray steps = check.json().value(QStringLiteral("steps")).toArray();
        QCOMPARE(steps.size(), 4);
        QVERIFY(steps.at(0).toObject().value(QStringLiteral("done")).toBool());  // the spirals network
        QVERIFY(steps.at(1).toObject().value(QStringLiteral("done")).toBool());  // a hidden layer of 16..32
        QVERIFY(!steps.at(2).toObject().value(QStringLiteral("done")).toBool()); // no run finished
        QCOMPARE(check.json().value(QStringLiteral("done")).toInt(), 2);
        const Result again = ctl(with(dir, {QStringLiteral("lesson"), QStringLiteral("list")}));
        QVERIFY2(again.out.contains(QStringLiteral("2/4")), qPrintable(again.out));

        const Result unknown =
            ctl(with(dir, {QStringLiteral("lesson"), QStringLiteral("check"), QStringLiteral("nope")}));
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY(unknown.err.contains(QStringLiteral("no lesson 'nope'")));
        QCOMPARE(ctl(with(dir, {QStringLiteral("lesson"), QStringLiteral("check")})).exitCode, 2);
        const Result badSpec =
            ctl(with(dir, {QStringLiteral("lesson"), QStringLiteral("check"), QStringLiteral("first-network"),
                           QStringLiteral("--spec"), home_.filePath(QStringLiteral("missing.json"))}));
        QCOMPARE(badSpec.exitCode, 1);
        QVERIFY2(badSpec.err.contains(QStringLiteral("missing.json")), qPrintable(badSpec.err));
        QCOMPARE(ctl(with(dir, {QStringLiteral("lesson"), QStringLiteral("reset"), QStringLiteral("first-network")}))
                     .exitCode,
                 0);
        QVERIFY(ctl(with(dir, {QStringLiteral("lesson"), QStringLiteral("list")})).out.contains(QStringLiteral("0/4")));
    }

    void concurrentProcessesShareOneWorkspace() {
        // Several processes initialise the same fresh folder at once: one creates it, the examples are added once.
        const QString dir = ws("race");
        QList<QProcess *> procs;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home_.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home_.filePath(QStringLiteral("xdg-data")));
        for (int i = 0; i < 4; ++i) {
            auto *p = new QProcess(this);
            p->setProcessEnvironment(env);
            p->start(diamond::test::binary(QStringLiteral("diamondctl")),
                     with(dir, {QStringLiteral("init"), QStringLiteral("--json")}));
            procs << p;
        }
        int created = 0;
        for (QProcess *p : procs) {
            QVERIFY(p->waitForFinished(60000));
            QVERIFY2(p->exitCode() == 0, p->readAllStandardError().constData());
            created +=
                QJsonDocument::fromJson(p->readAllStandardOutput()).object().value(QStringLiteral("created")).toBool();
            delete p;
        }
        QCOMPARE(created, 1);
        // Then projects are created concurrently; every one lands.
        procs.clear();
        for (int i = 0; i < 6; ++i) {
            auto *p = new QProcess(this);
            p->setProcessEnvironment(env);
            p->start(diamond::test::binary(QStringLiteral("diamondctl")),
                     with(dir, {QStringLiteral("project"), QStringLiteral("create"), QStringLiteral("P%1").arg(i)}));
            procs << p;
        }
        for (QProcess *p : procs) {
            QVERIFY(p->waitForFinished(60000));
            QVERIFY2(p->exitCode() == 0, p->readAllStandardError().constData());
            delete p;
        }
        const Result info =
            ctl(with(dir, {QStringLiteral("workspace"), QStringLiteral("info"), QStringLiteral("--json")}));
        QCOMPARE(info.json().value(QStringLiteral("projects")).toInt(), 7);
        QCOMPARE(info.json().value(QStringLiteral("runs")).toInt(), 4);
    }

    void newerSchemaIsRefused() {
        const QString dir = ws("newer");
        QCOMPARE(ctl(with(dir, {QStringLiteral("init"), QStringLiteral("--no-examples")})).exitCode, 0);
        const QString dbFile = QDir(dir).filePath(QStringLiteral("diamond.db"));
        {
            auto raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
            raw.setDatabaseName(dbFile);
            QVERIFY(raw.open());
            QSqlQuery q(raw);
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 42")));
            QVERIFY(q.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")));
            q.finish();
            raw.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("raw"));
        QFile f(dbFile);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
        f.close();
        const Result r = ctl(with(dir, {QStringLiteral("workspace"), QStringLiteral("info")}));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("42")) && r.err.contains(QStringLiteral("newer")), qPrintable(r.err));
        QCOMPARE(ctl(with(dir, {QStringLiteral("init")})).exitCode, 1);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256), before);
    }
};

QTEST_GUILESS_MAIN(TestDiamondctlWorkspace)
#include "tst_diamondctl_workspace.moc"
