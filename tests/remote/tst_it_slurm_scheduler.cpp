// SlurmScheduler against the project's real single-node Slurm (tests/fixtures/local-cluster): submit, state
// through a job's life, job arrays, afterany dependency chains, cancel, probe, and refusal of bad input with
// Slurm's own message.
#include "remote/command_runner.h"
#include "remote/slurm_scheduler.h"

#include "common/local_cluster.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;
using namespace diamond::remote;

class TestItSlurmScheduler : public QObject {
    Q_OBJECT

    test::LocalCluster cluster_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    LocalCommandRunner runner_;
    SlurmScheduler slurm_{runner_};

    QString script(const QString &name, const QString &body, const QString &directives = {}) {
        const QString path = dir_.filePath(name + QStringLiteral(".sh"));
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(QStringLiteral("#!/bin/bash\n#SBATCH --job-name=%1\n#SBATCH --output=%2/%1-%j.out\n#SBATCH "
                               "--time=00:05:00\n%3\n%4\n")
                    .arg(name, dir_.path(), directives, body)
                    .toUtf8());
        return path;
    }

    JobStatus waitFor(const QString &id, const std::function<bool(const JobStatus &)> &done, int timeoutMs = 60000) {
        QElapsedTimer t;
        t.start();
        JobStatus last;
        while (t.elapsed() < timeoutMs) {
            QString error;
            const auto s = slurm_.status(id, &error);
            if (!s) qFatal("status failed: %s", qPrintable(error));
            last = *s;
            if (done(last)) return last;
            QTest::qWait(200);
        }
        return last;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QFile::setPermissions(dir_.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther |
                                               QFile::WriteOther | QFile::ExeOther);
        qputenv("LOCAL_CLUSTER_KILL_WAIT", "5");
        qputenv("LOCAL_CLUSTER_NODE_CPUS", "4");
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        qputenv("SLURM_CONF", cluster_.slurmConf().toLocal8Bit());
    }

    void lifeOfAJob() {
        QString error;
        const auto id = slurm_.submit(script(QStringLiteral("life"), QStringLiteral("sleep 2; exit 3")), &error);
        QVERIFY2(id, qPrintable(error));
        JobStatus s = waitFor(*id, [](const JobStatus &j) { return j.phase == JobPhase::Running; });
        QCOMPARE(s.phase, JobPhase::Running);
        QCOMPARE(s.nodes, QStringLiteral("localhost"));
        QCOMPARE(s.timeLimitSeconds, 300);
        const auto queue = slurm_.queue(&error);
        QVERIFY2(queue, qPrintable(error));
        QVERIFY(std::any_of(queue->begin(), queue->end(), [&](const JobStatus &j) { return j.jobId == *id; }));
        s = waitFor(*id, [](const JobStatus &j) { return isTerminal(j.phase); });
        QCOMPARE(s.phase, JobPhase::Failed);
        QCOMPARE(s.exitCode.value_or(-1), 3);
    }

    void dependencyChainAndArray() {
        QString error;
        const auto first = slurm_.submit(script(QStringLiteral("first"), QStringLiteral("sleep 1; exit 85")), &error);
        QVERIFY2(first, qPrintable(error));
        const auto second = slurm_.submit(script(QStringLiteral("second"), QStringLiteral("exit 0"),
                                                 QStringLiteral("#SBATCH --dependency=afterany:%1").arg(*first)),
                                          &error);
        QVERIFY2(second, qPrintable(error));
        JobStatus s = waitFor(
            *second, [](const JobStatus &j) { return j.phase == JobPhase::Pending; }, 5000);
        if (s.phase == JobPhase::Pending) QCOMPARE(s.reason, QStringLiteral("Dependency"));
        s = waitFor(*second, [](const JobStatus &j) { return isTerminal(j.phase); });
        QCOMPARE(s.phase, JobPhase::Completed); // afterany: runs although the first one "failed" with 85
        QCOMPARE(waitFor(*first, [](const JobStatus &j) { return isTerminal(j.phase); }).exitCode.value_or(-1), 85);

        const auto array = slurm_.submit(script(QStringLiteral("array"), QStringLiteral("exit $SLURM_ARRAY_TASK_ID"),
                                                QStringLiteral("#SBATCH --array=0-2")),
                                         &error);
        QVERIFY2(array, qPrintable(error));
        for (int task = 0; task < 3; ++task) {
            const QString id = QStringLiteral("%1_%2").arg(*array).arg(task);
            s = waitFor(id, [](const JobStatus &j) { return isTerminal(j.phase); });
            QCOMPARE(s.jobId, id);
            QCOMPARE(s.exitCode.value_or(-1), task);
        }
    }

    void cancelAndBadInput() {
        QString error;
        const auto id = slurm_.submit(script(QStringLiteral("long"), QStringLiteral("sleep 300")), &error);
        QVERIFY2(id, qPrintable(error));
        waitFor(*id, [](const JobStatus &j) { return j.phase == JobPhase::Running; });
        QVERIFY2(slurm_.cancel(*id, &error), qPrintable(error));
        const JobStatus s = waitFor(*id, [](const JobStatus &j) { return isTerminal(j.phase); });
        QCOMPARE(s.phase, JobPhase::Cancelled);

        QVERIFY(!slurm_.submit(
            script(QStringLiteral("bad"), QStringLiteral("true"), QStringLiteral("#SBATCH --partition=nosuch")),
            &error));
        QVERIFY2(error.contains(QLatin1String("Invalid partition")), qPrintable(error));
        QVERIFY(!slurm_.cancel(QStringLiteral("1; rm -rf /"), &error));
        const auto unknown = slurm_.status(QStringLiteral("999999"), &error);
        QVERIFY(unknown);
        QCOMPARE(unknown->phase, JobPhase::Unknown);
    }

    /// sbatch --test-only: no wait on the idle node; with its 4 CPUs taken by a job of up to 5 minutes, a job that
    /// needs them waits until that job's limit; nothing is submitted by asking.
    void queueWaitEstimates() {
        QString error;
        JobRequest job;
        job.partition = cluster_.partition();
        job.tasksPerNode = 4;
        job.timeLimitMinutes = 5;
        const auto idle = slurm_.estimatedWaitSeconds(job, &error);
        QVERIFY2(idle, qPrintable(error));
        QVERIFY2(*idle <= 5, qPrintable(QString::number(*idle)));
        const auto hog = slurm_.submit(
            script(QStringLiteral("hog"), QStringLiteral("sleep 300"), QStringLiteral("#SBATCH --ntasks=4")), &error);
        QVERIFY2(hog, qPrintable(error));
        QCOMPARE(waitFor(*hog, [](const JobStatus &j) { return j.phase == JobPhase::Running; }).phase,
                 JobPhase::Running);
        const auto busy = slurm_.estimatedWaitSeconds(job, &error);
        QVERIFY2(slurm_.cancel(*hog, &error), qPrintable(error));
        QVERIFY2(busy, qPrintable(error));
        qInfo("queue wait: %lld s idle, %lld s behind a 5-minute job", *idle, *busy);
        QVERIFY2(*busy >= 240 && *busy <= 310, qPrintable(QString::number(*busy)));
        const auto queue = slurm_.queue(&error);
        QVERIFY2(queue, qPrintable(error));
        for (const JobStatus &j : *queue) // the estimates submitted nothing
            QVERIFY2(j.jobId == *hog, qPrintable(j.jobId));

        job.partition = QStringLiteral("nosuch");
        QVERIFY(!slurm_.estimatedWaitSeconds(job, &error));
        QVERIFY2(error.contains(QLatin1String("partition")), qPrintable(error));
        job.partition = QStringLiteral("debug; touch /tmp/owned");
        QVERIFY(!slurm_.estimatedWaitSeconds(job, &error));
        QVERIFY2(error.contains(QLatin1String("--partition")), qPrintable(error));
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/owned")));
    }

    void probe() {
        QString error;
        const auto partitions = slurm_.probe(&error);
        QVERIFY2(partitions, qPrintable(error));
        QCOMPARE(partitions->size(), 1);
        const PartitionInfo &p = partitions->first();
        QCOMPARE(p.name, cluster_.partition());
        QVERIFY(p.isDefault);
        QCOMPARE(p.maxWalltimeMinutes, 60);
        QCOMPARE(p.cpusPerNode, 4);
        QCOMPARE(p.nodes, 1);
        QVERIFY(p.memoryMb > 0);
    }
};

QTEST_GUILESS_MAIN(TestItSlurmScheduler)
#include "tst_it_slurm_scheduler.moc"
