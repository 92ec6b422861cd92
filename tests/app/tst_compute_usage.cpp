// Compute usage of runs (app/run/compute_usage.h) on a real workspace file: running intervals from the stored
// transitions (backdated here with SQL so that the hours are known), the width from the engine's `started` event
// or, before it, from the execution settings.
#include "app/run/compute_usage.h"

#include "app/workspace/workspace.h"

#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::app;

class TestComputeUsage : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Workspace ws_;
    QDateTime t0_ = QDateTime(QDate(2026, 3, 1), QTime(9, 0), Qt::UTC);

    qint64 newRun(const QString &owner, const QJsonObject &config, const QJsonObject &execution) {
        RunStore runs(ws_);
        const auto r =
            runs.createRunWithSpec(QStringLiteral("P"), QJsonObject{{QStringLiteral("name"), QStringLiteral("net")}},
                                   {}, {}, config, QStringLiteral("local"), execution);
        if (!r || !runs.setOwner(r->id, owner)) return 0;
        return r->id;
    }
    /// Applies the transitions, then dates them t0 + the given hours (in order).
    bool walk(qint64 id, const QList<QPair<RunState, double>> &steps) {
        RunStore runs(ws_);
        for (const auto &[state, hours] : steps)
            if (!runs.transition(id, state, {}, state == RunState::Finished ? std::optional<int>(0) : std::nullopt))
                return false;
        QSqlQuery q(ws_.database());
        q.prepare(
            QStringLiteral("SELECT id FROM run_transitions WHERE run_id = ? AND from_state IS NOT NULL ORDER BY id"));
        q.addBindValue(id);
        if (!q.exec()) return false;
        QList<qint64> rows;
        while (q.next())
            rows << q.value(0).toLongLong();
        if (rows.size() != steps.size()) return false;
        for (int i = 0; i < rows.size(); ++i) {
            QSqlQuery u(ws_.database());
            u.prepare(QStringLiteral("UPDATE run_transitions SET at = ? WHERE id = ?"));
            u.addBindValue(t0_.addSecs(qint64(steps[i].second * 3600)).toString(Qt::ISODateWithMs));
            u.addBindValue(rows[i]);
            if (!u.exec()) return false;
        }
        return true;
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        QVERIFY2(ws_.create(dir_.filePath(QStringLiteral("ws"))), qPrintable(ws_.errorString()));
    }

    void runningTimeTimesWidth() {
        RunStore runs(ws_);
        const qint64 cpu = newRun(QStringLiteral("ada"), {{QStringLiteral("device"), QStringLiteral("cpu")}},
                                  {{QStringLiteral("nproc"), 2}, {QStringLiteral("threads"), 3}});
        QVERIFY(cpu > 0);
        // 2 h running, preempted, 1.5 h waiting to run again, 1 h running: 3 h.
        QVERIFY(walk(cpu, {{RunState::Queued, 0},
                           {RunState::Running, 1},
                           {RunState::Preempted, 3},
                           {RunState::Resumed, 3.5},
                           {RunState::Running, 5},
                           {RunState::Finished, 6}}));
        ComputeUsage u = runComputeUsage(runs, *runs.run(cpu), t0_.addDays(1));
        QCOMPARE(u.runningHours, 3.0);
        QCOMPARE(u.cpuHours, 18.0); // execution settings: 2 processes × 3 threads
        QCOMPARE(u.gpuHours, 0.0);
        // What the engine reported wins: 1 process × 4 threads.
        QVERIFY(runs.addEvent(cpu, 0, QStringLiteral("started"),
                              R"({"event":"started","device":"cpu","threads":4,"world_size":1})"));
        u = runComputeUsage(runs, *runs.run(cpu), t0_.addDays(1));
        QCOMPARE(u.cpuHours, 12.0);

        // A GPU run still running counts up to `now`.
        const qint64 gpu = newRun(QStringLiteral("ada"), {{QStringLiteral("device"), QStringLiteral("cuda")}}, {});
        QVERIFY(walk(gpu, {{RunState::Queued, 0}, {RunState::Running, 0.5}}));
        u = runComputeUsage(runs, *runs.run(gpu), t0_.addSecs(2 * 3600));
        QCOMPARE(u.gpuHours, 1.5); // one process before the engine reported
        QVERIFY(runs.addEvent(gpu, 0, QStringLiteral("started"),
                              R"({"event":"started","device":"cuda","threads":8,"world_size":2})"));
        u = runComputeUsage(runs, *runs.run(gpu), t0_.addSecs(2 * 3600));
        QCOMPARE(u.gpuHours, 3.0);
        QCOMPARE(u.cpuHours, 0.0);
        QVERIFY(runConfigUsesGpu(runs.run(gpu)->config));
        QVERIFY(!runConfigUsesGpu(runs.run(cpu)->config));

        // Per owner: drafts and other users' runs do not count.
        QVERIFY(newRun(QStringLiteral("ada"), {}, {}) > 0); // a draft
        const qint64 other = newRun(QStringLiteral("grace"), {}, {{QStringLiteral("threads"), 2}});
        QVERIFY(walk(other, {{RunState::Queued, 0}, {RunState::Running, 0}, {RunState::Failed, 1}}));
        const ComputeUsage ada = ownerComputeUsage(runs, QStringLiteral("ada"), t0_.addSecs(2 * 3600));
        QCOMPARE(ada.cpuHours, 12.0);
        QCOMPARE(ada.gpuHours, 3.0);
        QCOMPARE(ada.runningHours, 4.5);
        const ComputeUsage grace = ownerComputeUsage(runs, QStringLiteral("grace"), t0_.addDays(3));
        QCOMPARE(grace.cpuHours, 2.0);
        QCOMPARE(ownerComputeUsage(runs, QStringLiteral("nobody"), t0_).runningHours, 0.0);

        const QJsonObject json = computeUsageJson({1.23456, 0.0004, 2.0});
        QCOMPARE(json.value(QStringLiteral("cpu_hours")).toDouble(), 1.235);
        QCOMPARE(json.value(QStringLiteral("gpu_hours")).toDouble(), 0.0);
    }

    void aClockGoingBackwardsCountsNothing() {
        RunStore runs(ws_);
        const qint64 id = newRun(QStringLiteral("linus"), {}, {});
        QVERIFY(walk(id, {{RunState::Queued, 0}, {RunState::Running, 5}, {RunState::Finished, 4}}));
        QCOMPARE(runComputeUsage(runs, *runs.run(id), t0_).cpuHours, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestComputeUsage)
#include "tst_compute_usage.moc"
