// `diamondctl cluster calibrate` against the project's Slurm fixture, over SSH: the engine's calibration runs as one
// srun job step on the partition's node, its profile is saved as the partition's and the cluster's (with the
// cluster, partition and node), `run plan --target` then predicts with it and names it, a partition calibrated on
// its own wins over the cluster's profile; a cluster without Slurm, a bad partition name and a partition Slurm does
// not know are refused with a message, and nothing already saved is lost.
#include "common/cluster_runs.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;

class TestItClusterCalibrate : public QObject {
    Q_OBJECT

    test::LocalCluster cluster_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    std::unique_ptr<test::ClusterRuns> runs_;
    QString ws_;

    struct Result {
        int code = -1;
        QByteArray out, err;
        QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
    };
    Result ctl(const QStringList &args, int timeoutMs = 300000) {
        QProcess p;
        QProcessEnvironment e = cluster_.environment();
        e.insert(QStringLiteral("HOME"), dir_.path());
        e.insert(QStringLiteral("DIAMOND_TRAIN"), test::ClusterRuns::engine());
        p.setProcessEnvironment(e);
        p.start(test::binary(QStringLiteral("diamondctl")), QStringList{QStringLiteral("--workspace"), ws_} + args);
        Result r;
        if (!p.waitForFinished(timeoutMs)) return r;
        r.code = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }
    QString writeFile(const QString &name, const QJsonObject &doc) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly)) f.write(QJsonDocument(doc).toJson());
        return path;
    }
    QString profilePath(const QString &name) const {
        return ws_ + QStringLiteral("/device-profiles/") + name + QStringLiteral(".json");
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        runs_ = std::make_unique<test::ClusterRuns>(cluster_, dir_.path());
        ws_ = dir_.filePath(QStringLiteral("ws"));
        QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--no-examples")}).code, 0);
        remote::ClusterProfile ssh = runs_->sshProfile(QStringLiteral("hpc"));
        QCOMPARE(ctl({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("--from-json"),
                      writeFile(QStringLiteral("hpc.json"), ssh.toJson())})
                     .code,
                 0);
        // The partitions as `cluster probe --save` finds them.
        const Result probe =
            ctl({QStringLiteral("cluster"), QStringLiteral("probe"), QStringLiteral("hpc"), QStringLiteral("--save")});
        QVERIFY2(probe.code == 0, probe.err.constData());
    }

    void calibratesANodeOfThePartitionAndThePlanUsesIt() {
        const QString partition = cluster_.partition();
        QVERIFY(!QFile::exists(profilePath(QStringLiteral("hpc"))));
        const Result r = ctl({QStringLiteral("cluster"), QStringLiteral("calibrate"), QStringLiteral("hpc"),
                              QStringLiteral("--partition"), partition, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject out = r.json();
        const QStringList saved = out.value(QStringLiteral("saved_as")).toVariant().toStringList();
        QCOMPARE(saved, (QStringList{QStringLiteral("hpc.") + partition, QStringLiteral("hpc")}));
        const QJsonObject profile = out.value(QStringLiteral("profile")).toObject();
        QCOMPARE(profile.value(QStringLiteral("cluster")).toString(), QStringLiteral("hpc"));
        QCOMPARE(profile.value(QStringLiteral("partition")).toString(), partition);
        QCOMPARE(profile.value(QStringLiteral("ranks")).toInt(), 2); // the all-reduce was measured
        QVERIFY(!profile.value(QStringLiteral("allreduce")).toArray().isEmpty());
        QVERIFY(!profile.value(QStringLiteral("host")).toString().isEmpty());
        QVERIFY(!profile.value(QStringLiteral("measured_at")).toString().isEmpty());
        for (const QString &name : saved)
            QVERIFY2(QFile::exists(profilePath(name)), qPrintable(name));
        // It ran as a Slurm job step (srun), not on the login node.
        QVERIFY2(!profile.value(QStringLiteral("scheduler_job")).toString().isEmpty(),
                 QJsonDocument(profile).toJson().left(400).constData());

        // The plan for the cluster predicts with the partition's profile and says so.
        const Result plan =
            ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"),
                 test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json")), QStringLiteral("--config"),
                 test::sourcePath(QStringLiteral("resources/examples/spirals/run.json")), QStringLiteral("--target"),
                 QStringLiteral("hpc"), QStringLiteral("--json")});
        QVERIFY2(plan.code == 0, plan.err.constData());
        const QJsonObject doc = plan.json();
        QCOMPARE(doc.value(QStringLiteral("profile")).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("hpc.") + partition);
        for (const QJsonValue &o : doc.value(QStringLiteral("options")).toArray())
            QCOMPARE(o.toObject().value(QStringLiteral("profile")).toString(), QStringLiteral("hpc.") + partition);
        QVERIFY(!QFile::exists(profilePath(QStringLiteral("this-computer")))); // no calibration here was needed
    }

    void badRequestsAreRefusedAndNothingIsLost() {
        QFile kept(profilePath(QStringLiteral("hpc")));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        const QByteArray before = kept.readAll();
        kept.close();
        Result r = ctl({QStringLiteral("cluster"), QStringLiteral("calibrate"), QStringLiteral("hpc"),
                        QStringLiteral("--partition"), QStringLiteral("x; rm -rf ~")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("not a partition name"), r.err.constData());
        r = ctl({QStringLiteral("cluster"), QStringLiteral("calibrate"), QStringLiteral("hpc"),
                 QStringLiteral("--partition"), QStringLiteral("nosuchpartition")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("Calibration on \"hpc\" failed"), r.err.constData());
        QVERIFY2(r.err.contains("nosuchpartition") || r.err.contains("partition"), r.err.constData());
        QVERIFY(!QFile::exists(profilePath(QStringLiteral("hpc.nosuchpartition"))));
        // A PBS cluster: calibration needs Slurm.
        remote::ClusterProfile pbs = runs_->localProfile(QStringLiteral("pbs"));
        pbs.scheduler = remote::SchedulerKind::Pbs;
        QCOMPARE(ctl({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("--from-json"),
                      writeFile(QStringLiteral("pbs.json"), pbs.toJson())})
                     .code,
                 0);
        r = ctl({QStringLiteral("cluster"), QStringLiteral("calibrate"), QStringLiteral("pbs")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("needs Slurm"), r.err.constData());
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), before);
    }
};

QTEST_GUILESS_MAIN(TestItClusterCalibrate)
#include "tst_it_cluster_calibrate.moc"
