// Slurm output parsers against outputs recorded from a real Slurm 22.05 (tests/remote/data/slurm/, recorded
// from the local single-node cluster: sbatch, squeue, scontrol show job in every state, sinfo, scontrol show
// partition). sacct needs slurmdbd, which the recording cluster did not run: its sample is inline below in
// the documented `sacct -X -P` layout.
#include "remote/slurm_parsers.h"

#include "common/test_paths.h"

#include <QFile>
#include <QtTest>

using namespace diamond::remote;
using namespace diamond::remote::slurm;

class TestSlurmParsers : public QObject {
    Q_OBJECT

    static QByteArray data(const char *name) {
        QFile f(diamond::test::sourcePath(QStringLiteral("tests/remote/data/slurm/%1").arg(QLatin1String(name))));
        if (!f.open(QIODevice::ReadOnly)) qFatal("missing recorded output %s", name);
        return f.readAll();
    }
    static JobStatus job(const char *name) {
        const auto records = parseScontrolRecords(data(name));
        if (records.size() != 1) qFatal("%s: %d records", name, int(records.size()));
        return jobStatusFromScontrol(records.first());
    }

private Q_SLOTS:
    void sbatch() {
        QCOMPARE(parseSbatchOutput(data("sbatch_plain.txt")).value_or(QString()), QStringLiteral("2"));
        QCOMPARE(parseSbatchOutput(data("sbatch_parsable_dep.txt")).value_or(QString()), QStringLiteral("3"));
        QCOMPARE(parseSbatchOutput("812;cluster2\n").value_or(QString()), QStringLiteral("812"));
        QVERIFY(!parseSbatchOutput(data("sbatch_bad_partition.txt")));
        QVERIFY(!parseSbatchOutput(""));
    }

    /// `sbatch --test-only ... 2>&1 && date +%Y-%m-%dT%H:%M:%S` (SlurmScheduler::estimatedWaitSeconds): recorded
    /// with the fixture's only node busy (start at the running job's time limit) and idle.
    /// `sinfo -h -o '%P|%F|%C'` (the first line recorded on the fixture; the gpu lines as a two-state partition
    /// prints them) and `sshare -h -P -U` of a cluster with accounting.
    void loadAndFairShare() {
        const QList<PartitionLoad> load = parseSinfoLoad(data("sinfo_load.txt"));
        QCOMPARE(load.size(), 2); // "broken" is skipped, gpu's two lines are summed
        QCOMPARE(load[0].name, QStringLiteral("debug"));
        QVERIFY(load[0].isDefault);
        QCOMPARE(load[0].nodesIdle, 1);
        QCOMPARE(load[0].cpusTotal, 2);
        QCOMPARE(load[1].name, QStringLiteral("gpu"));
        QCOMPARE(load[1].nodesAllocated, 3);
        QCOMPARE(load[1].nodesIdle, 1);
        QCOMPARE(load[1].nodesOther, 2);
        QCOMPARE(load[1].nodesTotal, 6);
        QCOMPARE(load[1].cpusAllocated, 96);
        QCOMPARE(load[1].cpusIdle, 32);
        QCOMPARE(load[1].cpusTotal, 192);
        QVERIFY(parseSinfoLoad("p|1/2/3|1/2/3/4\n").isEmpty());
        QVERIFY(parseSinfoLoad("p|1/2/3/99999999999|1/2/3/4\np|0/0/0/2147483647|0/0/0/1\n").isEmpty()); // too large
        const QList<FairShare> shares = parseSshare(data("sshare_user.txt"));
        QCOMPARE(shares.size(), 2);
        QCOMPARE(shares[0].account, QStringLiteral("proj1"));
        QCOMPARE(shares[0].fairShare, 0.71875);
        QCOMPARE(shares[0].effectiveUsage, 0.125);
        QVERIFY(parseSshare("proj1||0.5|0.5\n").isEmpty()); // the account's own row, not the user's
    }

    void testOnlyWait() {
        QCOMPARE(parseTestOnlyWait(data("sbatch_test_only_busy.txt")).value_or(-1), 598);
        const auto idle = parseTestOnlyWait(data("sbatch_test_only_idle.txt"));
        QVERIFY(idle);
        QVERIFY2(*idle <= 1, qPrintable(QString::number(*idle)));
        QCOMPARE(parseTestOnlyWait("sbatch: Job 9 to start at 2026-12-06T16:50:01 using 1 processors on nodes n1 in "
                                   "partition debug\n2026-12-06T17:00:00\n")
                     .value_or(-1),
                 0); // a start in the past: no wait
        QCOMPARE(parseTestOnlyWait("sbatch: Job 9 to start at 2026-12-07T00:00:00 using 1 processors\n"
                                   "2026-12-06T23:00:00\n")
                     .value_or(-1),
                 3600); // across midnight
        QVERIFY(!parseTestOnlyWait(data("sbatch_bad_partition.txt")));
        QVERIFY(!parseTestOnlyWait(data("sbatch_test_only_too_big.txt")));
        QVERIFY(!parseTestOnlyWait("sbatch: Job 9 to start at 2026-12-06T16:50:01 using 1 processors\n")); // no clock
        QVERIFY(!parseTestOnlyWait("2026-12-06T16:50:01\n"));
        QVERIFY(!parseTestOnlyWait(""));
    }

    void durations() {
        QCOMPARE(parseDuration(QStringLiteral("00:01:00")), 60);
        QCOMPARE(parseDuration(QStringLiteral("1:00:00")), 3600);
        QCOMPARE(parseDuration(QStringLiteral("5:00")), 300);
        QCOMPARE(parseDuration(QStringLiteral("2-03:04:05")), ((2 * 24 + 3) * 60 + 4) * 60 + 5);
        QCOMPARE(parseDuration(QStringLiteral("1-12")), 36 * 3600);
        QCOMPARE(parseDuration(QStringLiteral("30")), 1800);
        QCOMPARE(parseDuration(QStringLiteral("UNLIMITED")), -1);
        QCOMPARE(parseDuration(QStringLiteral("Partition_Limit")), -1);
    }

    void scontrolStates() {
        JobStatus s = job("scontrol_running.txt");
        QCOMPARE(s.jobId, QStringLiteral("2"));
        QCOMPARE(s.phase, JobPhase::Running);
        QVERIFY(!s.exitCode);
        QCOMPARE(s.runSeconds, 3);
        QCOMPARE(s.timeLimitSeconds, 300);
        QCOMPARE(s.nodes, QStringLiteral("localhost"));

        s = job("scontrol_pending_dependency.txt");
        QCOMPARE(s.phase, JobPhase::Pending);
        QCOMPARE(s.reason, QStringLiteral("Dependency"));

        s = job("scontrol_failed_85.txt"); // the engine checkpointed on USR1 and the script exited 85
        QCOMPARE(s.phase, JobPhase::Failed);
        QCOMPARE(s.reason, QStringLiteral("NonZeroExitCode"));
        QCOMPARE(s.exitCode.value_or(-1), 85);
        QCOMPARE(s.signal, 0);
        QCOMPARE(job("scontrol_failed_85_oneline.txt").exitCode.value_or(-1), 85);

        s = job("scontrol_cancelled.txt");
        QCOMPARE(s.phase, JobPhase::Cancelled);
        QCOMPARE(s.exitCode.value_or(-1), 85); // the engine checkpointed on scancel's TERM

        s = job("scontrol_timeout.txt");
        QCOMPARE(s.phase, JobPhase::TimedOut);
        QCOMPARE(s.reason, QStringLiteral("TimeLimit"));
        QCOMPARE(s.exitCode.value_or(-1), 0);
        QCOMPARE(s.signal, 15);

        s = job("scontrol_afterdep.txt");
        QCOMPARE(s.phase, JobPhase::Completed);
        QCOMPARE(s.exitCode.value_or(-1), 0);

        const auto record = parseScontrolRecords(data("scontrol_completed_spaces.txt")).value(0);
        QCOMPARE(record.value(QStringLiteral("JobName")), QStringLiteral("my job"));
        QCOMPARE(record.value(QStringLiteral("StdOut")), QStringLiteral("/tmp/slurmhelper/sp ace/o-5.out"));
        QCOMPARE(record.value(QStringLiteral("WorkDir")), QStringLiteral("/tmp/slurmhelper/sp ace"));
    }

    void squeue() {
        const QList<JobStatus> jobs = parseSqueue(data("squeue_running_pending.txt"));
        QCOMPARE(jobs.size(), 2);
        QCOMPARE(jobs[0].jobId, QStringLiteral("3"));
        QCOMPARE(jobs[0].phase, JobPhase::Pending);
        QCOMPARE(jobs[0].reason, QStringLiteral("Dependency"));
        QCOMPARE(jobs[0].timeLimitSeconds, 60);
        QVERIFY(jobs[0].nodes.isEmpty());
        QCOMPARE(jobs[1].phase, JobPhase::Running);
        QCOMPARE(jobs[1].runSeconds, 3);
        QCOMPARE(jobs[1].nodes, QStringLiteral("localhost"));
    }

    void sacct() {
        // Documented `sacct -X -P --format=JobID,State,ExitCode,Elapsed,Timelimit,Reason` layout (Slurm 22.05).
        const QByteArray text = "JobID|State|ExitCode|Elapsed|Timelimit|Reason\n"
                                "101|COMPLETED|0:0|00:12:01|01:00:00|None\n"
                                "102|FAILED|85:0|00:59:10|01:00:00|NonZeroExitCode\n"
                                "102.batch|FAILED|85:0|00:59:10||\n"
                                "103|CANCELLED by 1000|0:15|00:00:30|UNLIMITED|None\n"
                                "104_3|TIMEOUT|0:0|2-00:00:12|2-00:00:00|TimeLimit\n"
                                "105|PENDING|0:0|00:00:00|01:00:00|Priority\n";
        const QList<JobStatus> jobs = parseSacct(text);
        QCOMPARE(jobs.size(), 5);
        QCOMPARE(jobs[0].phase, JobPhase::Completed);
        QCOMPARE(jobs[1].exitCode.value_or(-1), 85);
        QCOMPARE(jobs[1].phase, JobPhase::Failed);
        QCOMPARE(jobs[2].phase, JobPhase::Cancelled);
        QCOMPARE(jobs[2].state, QStringLiteral("CANCELLED by 1000"));
        QCOMPARE(jobs[2].signal, 15);
        QCOMPARE(jobs[2].timeLimitSeconds, -1);
        QCOMPARE(jobs[3].jobId, QStringLiteral("104_3"));
        QCOMPARE(jobs[3].phase, JobPhase::TimedOut);
        QCOMPARE(jobs[3].runSeconds, 2 * 86400 + 12);
        QCOMPARE(jobs[4].phase, JobPhase::Pending);
        QVERIFY(!jobs[4].exitCode);
    }

    void partitions() {
        QList<PartitionInfo> p = parseSinfo(data("sinfo_fmt.txt"));
        QCOMPARE(p.size(), 1);
        QCOMPARE(p[0].name, QStringLiteral("debug"));
        QVERIFY(p[0].isDefault);
        QCOMPARE(p[0].maxWalltimeMinutes, 60);
        QCOMPARE(p[0].cpusPerNode, 8);
        QCOMPARE(p[0].memoryMb, 24105);
        QCOMPARE(p[0].nodes, 1);
        QCOMPARE(p[0].gpusPerNode, 0);

        const QList<PartitionInfo> fromScontrol = parseScontrolPartitions(data("scontrol_show_partition.txt"));
        QCOMPARE(fromScontrol.size(), 1);
        QCOMPARE(fromScontrol[0].name, QStringLiteral("debug"));
        QVERIFY(fromScontrol[0].isDefault);
        QCOMPARE(fromScontrol[0].maxWalltimeMinutes, 60);
        QCOMPARE(fromScontrol[0].cpusPerNode, 8);
        QCOMPARE(fromScontrol[0].memoryMb, 24105);
        QCOMPARE(parseScontrolPartitions(data("scontrol_show_partition_oneline.txt")), fromScontrol);

        // A GPU cluster's sinfo (two lines for one partition: nodes in two states) and GRES/TRES spellings.
        p = parseSinfo("gpu|up|2-00:00:00|3|64|512000|gpu:a100:4(S:0-1)|mixed\n"
                       "gpu|up|2-00:00:00|5|64|512000|gpu:a100:4(S:0-1)|idle\n"
                       "cpu*|up|infinite|40|128|256G|(null)|idle\n");
        QCOMPARE(p.size(), 2);
        QCOMPARE(p[0].nodes, 8);
        QCOMPARE(p[0].gpuType, QStringLiteral("a100"));
        QCOMPARE(p[0].gpusPerNode, 4);
        QCOMPARE(p[0].maxWalltimeMinutes, 2 * 24 * 60);
        QCOMPARE(p[1].maxWalltimeMinutes, 0);
        QCOMPARE(p[1].memoryMb, 256 * 1024);
        QVERIFY(p[1].isDefault);
        QCOMPARE(parseGpuGres(QStringLiteral("gpu:2")), std::make_pair(QString(), 2));
        QCOMPARE(parseGpuGres(QStringLiteral("cpu=8,mem=1G,node=2,gres/gpu=8,gres/gpu:v100=8")),
                 std::make_pair(QStringLiteral("v100"), 8));
        const auto merged = mergePartitions(p, fromScontrol);
        QCOMPARE(merged.size(), 3);
        QCOMPARE(merged[2].name, QStringLiteral("debug"));
    }
};

QTEST_GUILESS_MAIN(TestSlurmParsers)
#include "tst_slurm_parsers.moc"
