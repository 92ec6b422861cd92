// PBS output parsers against the samples in tests/remote/data/pbs/ (written after the documented PBS Pro and
// Torque formats, see its README.md: no PBS server is available here).
#include "remote/pbs_parsers.h"

#include "common/test_paths.h"

#include <QFile>
#include <QtTest>

using namespace diamond::remote;
using namespace diamond::remote::pbs;

class TestPbsParsers : public QObject {
    Q_OBJECT

    static QByteArray data(const char *name) {
        QFile f(diamond::test::sourcePath(QStringLiteral("tests/remote/data/pbs/%1").arg(QLatin1String(name))));
        if (!f.open(QIODevice::ReadOnly)) qFatal("missing sample %s", name);
        return f.readAll();
    }

private Q_SLOTS:
    void qsub() {
        QCOMPARE(parseQsubOutput(data("qsub.txt")).value_or(QString()), QStringLiteral("4711.pbs01"));
        QCOMPARE(parseQsubOutput("1234[].server\n").value_or(QString()), QStringLiteral("1234[].server"));
        QVERIFY(!parseQsubOutput("qsub: Unknown queue\n"));
    }

    void running() {
        const QList<Record> records = parseQstatFull(data("qstat_f_running.txt"));
        QCOMPARE(records.size(), 1);
        const Record &r = records.first();
        QCOMPARE(r.id, QStringLiteral("4711.pbs01"));
        // Wrapped values are joined without a separator.
        QCOMPARE(r.attributes.value(QStringLiteral("Output_Path")),
                 QStringLiteral("login01.hpc.example:/scratch/alice/diamond/runs/7/pbs.out"));
        QVERIFY(r.attributes.value(QStringLiteral("Variable_List"))
                    .contains(QLatin1String("PBS_O_WORKDIR=/scratch/alice/diamond/runs/7,PBS_O_SYSTEM=Linux")));
        QVERIFY(r.attributes.value(QStringLiteral("comment")).endsWith(QLatin1String("mem=4194304kb)")));
        const JobStatus s = jobStatusFromRecord(r);
        QCOMPARE(s.phase, JobPhase::Running);
        QCOMPARE(s.runSeconds, 10 * 60 + 5);
        QCOMPARE(s.timeLimitSeconds, 7200);
        QCOMPARE(s.nodes, QStringLiteral("node017"));
        QVERIFY(!s.exitCode);
    }

    void finished() {
        const QList<Record> records = parseQstatFull(data("qstat_fx_finished_85.txt"));
        QCOMPARE(records.size(), 2);
        JobStatus s = jobStatusFromRecord(records[0]);
        QCOMPARE(s.phase, JobPhase::Failed);
        QCOMPARE(s.exitCode.value_or(-1), 85);
        s = jobStatusFromRecord(records[1]);
        QCOMPARE(s.jobId, QStringLiteral("4712.pbs01"));
        QCOMPARE(s.phase, JobPhase::Pending);
        QVERIFY(s.reason.contains(QLatin1String("dependency")));

        s = jobStatusFromRecord(parseQstatFull(data("qstat_fx_walltime.txt")).value(0));
        QCOMPARE(s.phase, JobPhase::TimedOut);
        QCOMPARE(s.signal, 15);
        QCOMPARE(s.exitCode.value_or(-1), 128 + 15);

        s = jobStatusFromRecord(parseQstatFull(data("qstat_torque_completed.txt")).value(0));
        QCOMPARE(s.jobId, QStringLiteral("981.torque-head.cluster"));
        QCOMPARE(s.phase, JobPhase::Completed);
        QCOMPARE(s.exitCode.value_or(-1), 0);
        QCOMPARE(s.nodes, QStringLiteral("n12"));
    }

    void unknownAndQueues() {
        QVERIFY(isUnknownJobError(data("qstat_unknown.txt")));
        QVERIFY(!isUnknownJobError("qstat: cannot connect to server pbs01 (errno=111)\n"));
        const QList<PartitionInfo> queues = parseQueues(data("qstat_Qf.txt"));
        QCOMPARE(queues.size(), 2); // the routing queue is left out
        QCOMPARE(queues[0].name, QStringLiteral("workq"));
        QCOMPARE(queues[0].maxWalltimeMinutes, 48 * 60);
        QCOMPARE(queues[0].gpusPerNode, 4);
        QCOMPARE(queues[0].cpusPerNode, 64);
        QCOMPARE(queues[1].name, QStringLiteral("debug"));
        QCOMPARE(queues[1].maxWalltimeMinutes, 30);
        QCOMPARE(queues[1].memoryMb, 64 * 1024);
    }
};

QTEST_GUILESS_MAIN(TestPbsParsers)
#include "tst_pbs_parsers.moc"
