// Lessons (app/learn): the shipped lesson files, hostile lesson files, every check kind evaluated against a real
// workspace file, and the saved progress.
#include "app/cluster/cluster_store.h"
#include "app/gallery/gallery_store.h"
#include "app/learn/lesson.h"
#include "app/learn/lesson_checks.h"
#include "app/learn/lesson_progress.h"
#include "app/run/run_store.h"
#include "app/sweep/sweep_store.h"
#include "app/workspace/sample_workspace.h"
#include "app/workspace/workspace.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::app;

namespace {

QJsonObject spiralsSpec() {
    QFile f(QStringLiteral(":/examples/spirals/spec.json"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

/// The spec with one node's parameter (or the first input's shape when `node` is "x") changed.
QJsonObject withParam(QJsonObject spec, const QString &node, const QString &param, const QJsonValue &value) {
    if (node == QLatin1String("x")) {
        QJsonArray inputs = spec.value(QStringLiteral("inputs")).toArray();
        QJsonObject input = inputs.at(0).toObject();
        input.insert(QStringLiteral("shape"), value);
        inputs[0] = input;
        spec.insert(QStringLiteral("inputs"), inputs);
        return spec;
    }
    QJsonArray nodes = spec.value(QStringLiteral("nodes")).toArray();
    for (int i = 0; i < nodes.size(); ++i) {
        QJsonObject n = nodes.at(i).toObject();
        if (n.value(QStringLiteral("id")).toString() != node) continue;
        QJsonObject params = n.value(QStringLiteral("params")).toObject();
        params.insert(param, value);
        n.insert(QStringLiteral("params"), params);
        nodes[i] = n;
    }
    spec.insert(QStringLiteral("nodes"), nodes);
    return spec;
}

LessonCheck check(const QString &kind, const QJsonObject &params = {}) { return {kind, params}; }

QByteArray lessonText(const QJsonArray &steps, const QJsonObject &extra = {}) {
    QJsonObject o{{QStringLiteral("format"), QStringLiteral("diamond.lesson/1")},
                  {QStringLiteral("id"), QStringLiteral("test-lesson")},
                  {QStringLiteral("title"), QJsonObject{{QStringLiteral("en"), QStringLiteral("T")}}},
                  {QStringLiteral("summary"), QJsonObject{{QStringLiteral("en"), QStringLiteral("S")}}},
                  {QStringLiteral("steps"), steps}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        o.insert(it.key(), it.value());
    return QJsonDocument(o).toJson();
}

QJsonObject stepJson(const QString &id, const QJsonObject &check) {
    return {{QStringLiteral("id"), id},
            {QStringLiteral("title"), QJsonObject{{QStringLiteral("en"), QStringLiteral("Step")}}},
            {QStringLiteral("body"), QJsonObject{{QStringLiteral("en"), QStringLiteral("Do it.")}}},
            {QStringLiteral("check"), check}};
}

} // namespace

class TestLessons : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Workspace ws_;

    /// A finished run of `project` created now, with final `metrics`, `config` and `target`.
    qint64 finishedRun(const QJsonObject &metrics, const QJsonObject &config = {},
                       const QString &target = QStringLiteral("local")) {
        RunStore runs(ws_);
        const auto r =
            runs.createRunWithSpec(QStringLiteral("Lessons"), spiralsSpec(), {}, QStringLiteral("run"), config, target);
        if (!r || !runs.transition(r->id, RunState::Queued) || !runs.transition(r->id, RunState::Running) ||
            !runs.transition(r->id, RunState::Finished, {}, 0) || !runs.setRunResult(r->id, metrics, {})) {
            qWarning("%s", qPrintable(runs.errorString()));
            return 0;
        }
        return r->id;
    }

    LessonCheckResult evaluate(const LessonCheck &c, const QString &since, std::optional<QJsonObject> design = {}) {
        return evaluateLessonCheck(c, {&ws_, std::move(design), since});
    }

    /// A timestamp strictly after every row written so far.
    QString later() {
        QTest::qWait(3);
        const QString t = databaseTimestamp();
        QTest::qWait(3);
        return t;
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        QVERIFY2(ws_.create(dir_.filePath(QStringLiteral("ws"))), qPrintable(ws_.errorString()));
        QString error;
        QVERIFY2(registerSampleDatasets(ws_, &error), qPrintable(error));
    }

    void shippedLessonsAreCompleteInEnglishAndChinese() {
        QStringList errors;
        const QList<Lesson> lessons = shippedLessons(&errors);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        QVERIFY2(lessons.size() >= 7, qPrintable(QString::number(lessons.size())));
        QSet<QString> ids;
        int clusterLessons = 0;
        QSet<QString> kindsUsed;
        for (const Lesson &l : lessons) {
            QVERIFY2(!ids.contains(l.id), qPrintable(l.id));
            ids.insert(l.id);
            if (l.needsCluster) ++clusterLessons;
            QVERIFY2(l.minutes > 0, qPrintable(l.id));
            for (const LocalizedText *t : {&l.title, &l.summary})
                QVERIFY2(!t->byLanguage.value(QStringLiteral("zh_CN")).isEmpty(), qPrintable(l.id));
            for (const LessonStep &s : l.steps) {
                const QString where = l.id + QLatin1Char('/') + s.id;
                QVERIFY2(!s.title.byLanguage.value(QStringLiteral("zh_CN")).isEmpty(), qPrintable(where));
                QVERIFY2(!s.body.byLanguage.value(QStringLiteral("zh_CN")).isEmpty(), qPrintable(where));
                QVERIFY2(s.body.in(QStringLiteral("zh_CN")) != s.body.in(QStringLiteral("en")), qPrintable(where));
                kindsUsed.insert(s.check.kind);
            }
        }
        QCOMPARE(clusterLessons, 1);
        QVERIFY(lessons.first().id == QLatin1String("first-network"));
        // Every check kind but the plain "manual" appears in some shipped lesson (so each is exercised by a lesson).
        for (const QString &kind : lessonCheckKinds())
            QVERIFY2(kindsUsed.contains(kind), qPrintable(kind));
        QVERIFY(shippedLesson(QStringLiteral("real-data-iris")).has_value());
        QVERIFY(!shippedLesson(QStringLiteral("no-such-lesson")).has_value());
    }

    void textFallsBackToEnglish() {
        LocalizedText t;
        t.byLanguage = {{QStringLiteral("en"), QStringLiteral("Hello")},
                        {QStringLiteral("zh_CN"), QStringLiteral("你好")}};
        QCOMPARE(t.in(QStringLiteral("zh_CN")), QStringLiteral("你好"));
        QCOMPARE(t.in(QStringLiteral("zh_TW")), QStringLiteral("你好"));
        QCOMPARE(t.in(QStringLiteral("de_DE")), QStringLiteral("Hello"));
    }

    void hostileLessonFilesAreRefusedWithTheirPlace_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        const QJsonObject manual{{QStringLiteral("kind"), QStringLiteral("manual")}};
        QTest::newRow("not json") << QByteArray("{\n\"format\": \"diamond.lesson/1\",\n  oops")
                                  << QStringLiteral("line 3");
        QTest::newRow("too large") << QByteArray(kMaxLessonFileBytes + 1, ' ') << QStringLiteral("262144");
        QTest::newRow("wrong format") << QByteArray(R"({"format":"other"})") << QStringLiteral("diamond.lesson/1");
        QTest::newRow("no steps") << lessonText({}) << QStringLiteral("\"steps\"");
        QTest::newRow("unknown kind") << lessonText({stepJson(QStringLiteral("a"), manual),
                                                     stepJson(QStringLiteral("b"),
                                                              {{QStringLiteral("kind"), QStringLiteral("telepathy")}})})
                                      << QStringLiteral("step 2 (b): check: unknown kind \"telepathy\"");
        QTest::newRow("duplicate step") << lessonText({stepJson(QStringLiteral("a"), manual),
                                                       stepJson(QStringLiteral("a"), manual)})
                                        << QStringLiteral("step 2 (a): the id is used");
        QTest::newRow("bad parameter type")
            << lessonText({stepJson(QStringLiteral("a"), {{QStringLiteral("kind"), QStringLiteral("run_finished")},
                                                          {QStringLiteral("count"), QStringLiteral("two")}})})
            << QStringLiteral("\"count\" has the wrong type");
        QTest::newRow("unknown parameter")
            << lessonText({stepJson(QStringLiteral("a"),
                                    {{QStringLiteral("kind"), QStringLiteral("design")},
                                     {QStringLiteral("layer"), QJsonObject{{QStringLiteral("colour"), 1}}}})})
            << QStringLiteral("\"layer.colour\"");
        QTest::newRow("min without metric")
            << lessonText({stepJson(QStringLiteral("a"), {{QStringLiteral("kind"), QStringLiteral("run_finished")},
                                                          {QStringLiteral("min"), 1}})})
            << QStringLiteral("need a \"metric\"");
        QTest::newRow("no english") << lessonText({stepJson(QStringLiteral("a"), manual)},
                                                  {{QStringLiteral("title"),
                                                    QJsonObject{{QStringLiteral("zh_CN"), QStringLiteral("课")}}}})
                                    << QStringLiteral("no English");
        QTest::newRow("bad id") << lessonText({stepJson(QStringLiteral("A B/../"), manual)})
                                << QStringLiteral("step 1");
        QJsonObject kitchen = stepJson(QStringLiteral("a"), manual);
        kitchen.insert(QStringLiteral("show"), QJsonObject{{QStringLiteral("page"), QStringLiteral("kitchen")}});
        QTest::newRow("bad page") << lessonText({kitchen}) << QStringLiteral("show.page \"kitchen\"");
    }

    void hostileLessonFilesAreRefusedWithTheirPlace() {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        QString error;
        QVERIFY(!parseLesson(text, QStringLiteral("mine.json"), &error).has_value());
        QVERIFY2(error.startsWith(QStringLiteral("mine.json: ")), qPrintable(error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void designChecksReadTheNetwork() {
        const QJsonObject spirals = spiralsSpec();
        QVERIFY(!spirals.isEmpty());
        const LessonCheck named =
            check(QStringLiteral("design"), {{QStringLiteral("name_contains"), QStringLiteral("spirals")}});
        QVERIFY(evaluate(named, {}, spirals).passed);
        QVERIFY(!evaluate(named, {}, QJsonObject{{QStringLiteral("name"), QStringLiteral("Other")}}).passed);
        QVERIFY(!evaluate(named, {}).passed); // no design open
        const LessonCheck narrow =
            check(QStringLiteral("design"),
                  {{QStringLiteral("layer"), QJsonObject{{QStringLiteral("type"), QStringLiteral("Linear")},
                                                         {QStringLiteral("param"), QStringLiteral("out_features")},
                                                         {QStringLiteral("min"), 16},
                                                         {QStringLiteral("max"), 32}}}});
        const LessonCheckResult wide = evaluate(narrow, {}, spirals);
        QVERIFY(!wide.passed);
        QVERIFY2(wide.status.contains(QStringLiteral("fc2 64")), qPrintable(wide.status));
        QVERIFY(
            evaluate(narrow, {}, withParam(spirals, QStringLiteral("fc2"), QStringLiteral("out_features"), 32)).passed);
        QVERIFY(
            !evaluate(narrow, {}, withParam(spirals, QStringLiteral("fc2"), QStringLiteral("out_features"), 8)).passed);
        const LessonCheck iris = check(QStringLiteral("design"), {{QStringLiteral("input_features"), 4}});
        const LessonCheckResult two = evaluate(iris, {}, spirals);
        QVERIFY(!two.passed);
        QVERIFY2(two.status.contains(QStringLiteral("2 features")), qPrintable(two.status));
        QVERIFY(evaluate(iris, {},
                         withParam(spirals, QStringLiteral("x"), QStringLiteral("shape"),
                                   QJsonArray{QStringLiteral("N"), 4}))
                    .passed);
    }

    void runChecksCountFinishedRunsSinceTheLessonStarted() {
        const QJsonObject lr1{{QStringLiteral("optimizer"), QJsonObject{{QStringLiteral("lr"), 0.1}}}};
        const QJsonObject lr2{{QStringLiteral("optimizer"), QJsonObject{{QStringLiteral("lr"), 0.001}}}};
        QVERIFY(finishedRun({{QStringLiteral("val_accuracy"), 0.99}}, lr1)); // before the lesson: does not count
        const QString since = later();
        const LessonCheck any = check(QStringLiteral("run_finished"));
        QVERIFY(!evaluate(any, since).passed);
        QCOMPARE(evaluate(any, since).status, QStringLiteral("No run has finished since the lesson started."));
        QVERIFY(finishedRun({{QStringLiteral("val_accuracy"), 0.85}}, lr1));
        QVERIFY(evaluate(any, since).passed);

        const LessonCheck good =
            check(QStringLiteral("run_finished"),
                  {{QStringLiteral("metric"), QStringLiteral("val_accuracy")}, {QStringLiteral("min"), 0.9}});
        LessonCheckResult r = evaluate(good, since);
        QVERIFY(!r.passed);
        QVERIFY2(r.status.contains(QStringLiteral("0.85")) && r.status.contains(QStringLiteral("0.9")),
                 qPrintable(r.status));
        QVERIFY(evaluate(good, {}).passed); // all time: the run before the lesson had 0.99

        const LessonCheck twoRates =
            check(QStringLiteral("run_finished"),
                  {{QStringLiteral("count"), 2}, {QStringLiteral("distinct"), QStringLiteral("optimizer.lr")}});
        QVERIFY(finishedRun({{QStringLiteral("val_accuracy"), 0.91}}, lr1)); // same rate again
        r = evaluate(twoRates, since);
        QVERIFY2(!r.passed && r.status.contains(QStringLiteral("1 of 2")), qPrintable(r.status));
        QVERIFY(finishedRun({{QStringLiteral("val_accuracy"), 0.60}}, lr2));
        QVERIFY(evaluate(twoRates, since).passed);
        QVERIFY(evaluate(good, since).passed); // 0.91 now

        // Lower-is-better bound on a loss.
        const LessonCheck lowLoss =
            check(QStringLiteral("run_finished"),
                  {{QStringLiteral("metric"), QStringLiteral("val_loss")}, {QStringLiteral("max"), 0.2}});
        QVERIFY(!evaluate(lowLoss, since).passed);
        QVERIFY(finishedRun({{QStringLiteral("val_loss"), 0.15}}));
        QVERIFY(evaluate(lowLoss, since).passed);

        // A run on a cluster; a failed run never counts.
        const LessonCheck onCluster =
            check(QStringLiteral("run_finished"), {{QStringLiteral("target"), QStringLiteral("cluster")}});
        QVERIFY(!evaluate(onCluster, since).passed);
        QVERIFY(finishedRun({}, {}, QStringLiteral("server:alice@127.0.0.1:8080"))); // a class server is no cluster
        QVERIFY(!evaluate(onCluster, since).passed);
        QVERIFY(evaluate(check(QStringLiteral("run_finished"), {{QStringLiteral("target"), QStringLiteral("server")}}),
                         since)
                    .passed);
        QVERIFY(finishedRun({}, {}, QStringLiteral("server:alice@127.0.0.1:8080/hpc"))); // the server's cluster
        QVERIFY(evaluate(onCluster, since).passed);
        QVERIFY(finishedRun({}, {}, QStringLiteral("hpc-course")));
        QVERIFY(evaluate(onCluster, since).passed);
        QVERIFY(
            evaluate(check(QStringLiteral("run_finished"), {{QStringLiteral("target"), QStringLiteral("hpc-course")}}),
                     since)
                .passed);
    }

    void datasetChecksUseTheRegisteredVersion() {
        const QString since = later();
        const LessonCheck used =
            check(QStringLiteral("dataset_used"), {{QStringLiteral("dataset"), QStringLiteral("iris")}});
        const LessonCheck learned =
            check(QStringLiteral("run_finished"), {{QStringLiteral("dataset"), QStringLiteral("iris")},
                                                   {QStringLiteral("metric"), QStringLiteral("val_accuracy")},
                                                   {QStringLiteral("min"), 0.9}});
        QVERIFY(finishedRun({{QStringLiteral("val_accuracy"), 0.95}})); // spirals, not iris
        QVERIFY(!evaluate(used, since).passed);
        QVERIFY(!evaluate(learned, since).passed);
        const QJsonObject onIris{
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("dataset"), QStringLiteral("iris")}}}};
        QVERIFY(finishedRun({{QStringLiteral("val_accuracy"), 0.95}}, onIris));
        const LessonCheckResult r = evaluate(used, since);
        QVERIFY2(r.passed && r.status.contains(QStringLiteral("iris@1")), qPrintable(r.status));
        QVERIFY(evaluate(learned, since).passed);
        QVERIFY(
            !evaluate(check(QStringLiteral("dataset_used"), {{QStringLiteral("dataset"), QStringLiteral("digits")}}),
                      since)
                 .passed);
    }

    void comparisonsAreRecordedActivity() {
        const QString since = later();
        LessonProgressStore progress(ws_);
        const LessonCheck compared = check(QStringLiteral("compared"), {{QStringLiteral("count"), 2}});
        QVERIFY(!evaluate(compared, since).passed);
        QVERIFY(progress.recordActivity(QStringLiteral("compare"), {{QStringLiteral("runs"), QJsonArray{1}}}));
        QVERIFY(!evaluate(compared, since).passed);
        QVERIFY(progress.recordActivity(QStringLiteral("compare"), {{QStringLiteral("runs"), QJsonArray{1, 2}}}));
        QVERIFY(evaluate(compared, since).passed);
        QVERIFY(!evaluate(compared, later()).passed); // a comparison before the lesson started does not count
    }

    void sweepGalleryAndClusterChecks() {
        const QString since = later();
        // Sweep: only a completed sweep with enough completed trials.
        sweep::SweepStore sweeps(ws_);
        RunStore runs(ws_);
        const auto project = runs.createProject(QStringLiteral("Sweeps"));
        QVERIFY(project);
        sweep::SweepDefinition def;
        def.name = QStringLiteral("lr search");
        const auto sweepId = sweeps.createSweep(project->id, 0, def);
        QVERIFY2(sweepId, qPrintable(sweeps.errorString()));
        const LessonCheck swept = check(QStringLiteral("sweep_finished"), {{QStringLiteral("min_trials"), 3}});
        QVERIFY(!evaluate(swept, since).passed);
        for (int i = 0; i < 3; ++i) {
            sweep::TrialRow t;
            t.sweepId = *sweepId;
            t.index = i;
            t.state = i < 2 ? QStringLiteral("completed") : QStringLiteral("failed");
            QVERIFY2(sweeps.insertTrial(t), qPrintable(sweeps.errorString()));
        }
        QVERIFY(sweeps.setSweepState(*sweepId, QStringLiteral("completed")));
        LessonCheckResult r = evaluate(swept, since);
        QVERIFY2(!r.passed && r.status.contains(QStringLiteral("2 of 3")), qPrintable(r.status));
        QVERIFY(evaluate(check(QStringLiteral("sweep_finished"), {{QStringLiteral("min_trials"), 2}}), since).passed);

        // Gallery: an entry published from a run of this workspace; an imported one does not count.
        gallery::GalleryStore gallery(ws_);
        gallery::GalleryEntry imported;
        imported.name = QStringLiteral("imported");
        imported.title = QStringLiteral("Imported");
        QVERIFY2(gallery.insert(imported), qPrintable(gallery.errorString()));
        const LessonCheck published = check(QStringLiteral("gallery_model"));
        QVERIFY(!evaluate(published, since).passed);
        gallery::GalleryEntry mine = imported;
        mine.name = QStringLiteral("mine");
        mine.title = QStringLiteral("My spirals");
        mine.runId = finishedRun({});
        QVERIFY2(gallery.insert(mine), qPrintable(gallery.errorString()));
        r = evaluate(published, since);
        QVERIFY2(r.passed && r.status.contains(QStringLiteral("My spirals")), qPrintable(r.status));

        // Cluster: a saved profile.
        const LessonCheck configured = check(QStringLiteral("cluster_configured"));
        QVERIFY(!evaluate(configured, since).passed);
        diamond::remote::ClusterProfile p;
        p.name = QStringLiteral("course");
        p.host = QStringLiteral("127.0.0.1");
        p.user = QStringLiteral("student");
        p.scratchDir = QStringLiteral("/scratch/student");
        p.enginePath = QStringLiteral("/opt/diamond/bin/diamond-train");
        ClusterStore clusters(ws_);
        QVERIFY2(clusters.add(p), qPrintable(clusters.errorString()));
        QVERIFY(evaluate(configured, since).passed);
        QVERIFY(evaluate(check(QStringLiteral("manual")), since).manual);
    }

    void progressIsSavedInTheWorkspace() {
        const QString folder = dir_.filePath(QStringLiteral("progress"));
        {
            Workspace ws;
            QVERIFY(ws.create(folder));
            LessonProgressStore progress(ws);
            QVERIFY(progress.startedAt(QStringLiteral("first-network")).isEmpty());
            const QString started = progress.start(QStringLiteral("first-network"));
            QVERIFY2(!started.isEmpty(), qPrintable(progress.errorString()));
            QTest::qWait(3);
            QCOMPARE(progress.start(QStringLiteral("first-network")), started); // a second start keeps the first
            QVERIFY(progress.markDone(QStringLiteral("first-network"), QStringLiteral("open-example")));
            QVERIFY(progress.markDone(QStringLiteral("first-network"), QStringLiteral("open-example")));
            QVERIFY(progress.markDone(QStringLiteral("compare-runs"), QStringLiteral("two-rates"))); // starts it
            QVERIFY(!progress.markDone(QStringLiteral("compare-runs"), QString()));
        }
        Workspace ws;
        QVERIFY(ws.open(folder));
        LessonProgressStore progress(ws);
        QCOMPARE(progress.doneSteps(QStringLiteral("first-network")), QSet<QString>{QStringLiteral("open-example")});
        QCOMPARE(progress.startedLessons(),
                 (QStringList{QStringLiteral("first-network"), QStringLiteral("compare-runs")}));
        QVERIFY(progress.reset(QStringLiteral("first-network")));
        QVERIFY(progress.doneSteps(QStringLiteral("first-network")).isEmpty());
        QVERIFY(progress.startedAt(QStringLiteral("first-network")).isEmpty());
        QCOMPARE(progress.doneSteps(QStringLiteral("compare-runs")).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestLessons)
#include "tst_lessons.moc"
