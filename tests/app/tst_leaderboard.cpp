// The class leaderboard of a project (app/run/leaderboard.h) on a real workspace file: best finished run per user,
// the metric's direction, ties, the default metric, and what does not count.
#include "app/run/leaderboard.h"

#include "app/workspace/workspace.h"

#include <QJsonArray>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::app;

class TestLeaderboard : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Workspace ws_;

    /// A run of `project` by `owner`, finished with `metrics` (or left in `state`).
    qint64 run(const QString &project, const QString &owner, const QJsonObject &metrics,
               RunState state = RunState::Finished) {
        RunStore runs(ws_);
        const auto r =
            runs.createRunWithSpec(project, QJsonObject{{QStringLiteral("name"), QStringLiteral("net")}}, {},
                                   owner.isEmpty() ? QStringLiteral("mine") : owner + QStringLiteral("'s"), {});
        if (!r || !runs.setOwner(r->id, owner) || !runs.transition(r->id, RunState::Queued) ||
            !runs.transition(r->id, RunState::Running)) {
            qWarning("%s", qPrintable(runs.errorString()));
            return 0;
        }
        if (state == RunState::Running) return r->id;
        if (!runs.transition(r->id, state, {}, state == RunState::Finished ? 0 : 1)) return 0;
        if (!runs.setRunResult(r->id, metrics, {})) {
            qWarning("%s", qPrintable(runs.errorString()));
            return 0;
        }
        QTest::qWait(2); // distinct finish times
        return r->id;
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        QVERIFY2(ws_.create(dir_.filePath(QStringLiteral("ws"))), qPrintable(ws_.errorString()));
    }

    void bestRunPerUserRanked() {
        auto acc = [](double a, double loss) {
            return QJsonObject{{QStringLiteral("val_accuracy"), a}, {QStringLiteral("val_loss"), loss}};
        };
        const qint64 ada1 = run(QStringLiteral("Lesson 1"), QStringLiteral("ada"), acc(0.81, 0.5));
        const qint64 ada2 = run(QStringLiteral("Lesson 1"), QStringLiteral("ada"), acc(0.93, 0.2));
        const qint64 grace = run(QStringLiteral("Lesson 1"), QStringLiteral("grace"), acc(0.93, 0.1));
        const qint64 mine = run(QStringLiteral("Lesson 1"), QString(), acc(0.70, 0.9));
        QVERIFY(ada1 && ada2 && grace && mine);
        // What does not count: a failed run, a running one, another project's, a run without the metric.
        QVERIFY(run(QStringLiteral("Lesson 1"), QStringLiteral("linus"), acc(0.99, 0.01), RunState::Failed));
        QVERIFY(run(QStringLiteral("Lesson 1"), QStringLiteral("linus"), {}, RunState::Running));
        QVERIFY(run(QStringLiteral("Lesson 2"), QStringLiteral("linus"), acc(0.99, 0.01)));
        QVERIFY(run(QStringLiteral("Lesson 1"), QStringLiteral("kim"), {{QStringLiteral("val_r2"), 0.5}}));

        RunStore runs(ws_);
        const qint64 lesson = runs.projectByName(QStringLiteral("Lesson 1"))->id;
        QString error;
        auto board = projectLeaderboard(runs, lesson, {}, &error);
        QVERIFY2(board, qPrintable(error));
        QCOMPARE(board->metric, QStringLiteral("val_accuracy"));
        QVERIFY(board->higherIsBetter);
        QCOMPARE(board->entries.size(), 3);
        // ada and grace tie at 0.93: same rank, ada reached it first.
        QCOMPARE(board->entries[0].user, QStringLiteral("ada"));
        QCOMPARE(board->entries[0].runId, ada2);
        QCOMPARE(board->entries[0].finishedRuns, 2);
        QCOMPARE(board->entries[1].user, QStringLiteral("grace"));
        QCOMPARE(board->entries[0].rank, 1);
        QCOMPARE(board->entries[1].rank, 1);
        QCOMPARE(board->entries[2].user, QStringLiteral("owner"));
        QCOMPARE(board->entries[2].rank, 3);

        // By loss, lower first.
        board = projectLeaderboard(runs, lesson, QStringLiteral("val_loss"), &error);
        QVERIFY(!board->higherIsBetter);
        QCOMPARE(board->entries[0].user, QStringLiteral("grace"));
        QCOMPARE(board->entries[1].runId, ada2);
        QCOMPARE(board->entries[1].rank, 2);
        const QJsonObject json = leaderboardJson(*board);
        QCOMPARE(json.value(QStringLiteral("entries")).toArray().size(), 3);
        QCOMPARE(json.value(QStringLiteral("entries"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("value"))
                     .toDouble(),
                 0.1);

        // Only kim has val_r2; an unknown metric gives an empty board; an unknown project an error.
        QCOMPARE(projectLeaderboard(runs, lesson, QStringLiteral("val_r2"), &error)->entries.size(), 1);
        QVERIFY(projectLeaderboard(runs, lesson, QStringLiteral("nonsense"), &error)->entries.isEmpty());
        QVERIFY(!projectLeaderboard(runs, 99999, {}, &error));
        QVERIFY(error.contains(QStringLiteral("99999")));
    }

    void metricDirectionFromTheName() {
        for (const char *lower : {"val_loss", "loss", "val_mse", "mae", "val_rmse", "val_error"})
            QVERIFY2(!metricHigherIsBetter(QLatin1String(lower)), lower);
        for (const char *higher : {"val_accuracy", "val_r2", "f1", "val_auc"})
            QVERIFY2(metricHigherIsBetter(QLatin1String(higher)), higher);
    }
};

QTEST_GUILESS_MAIN(TestLeaderboard)
#include "tst_leaderboard.moc"
