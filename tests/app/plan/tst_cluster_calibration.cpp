// The command `cluster calibrate` runs on the login node (app/plan/cluster_calibration.h): two ranks on a CPU
// partition; on a partition with GPUs the engine calibrates the GPUs (--device cuda), one per rank, asked for in the
// cluster's GPU directive; a cluster without Slurm and a bad partition name are refused.
#include "app/plan/cluster_calibration.h"

#include <QtTest>

using namespace diamond;

class TestClusterCalibration : public QObject {
    Q_OBJECT

    static remote::ClusterProfile cluster() {
        remote::ClusterProfile p;
        p.name = QStringLiteral("hpc");
        p.host = QStringLiteral("login.hpc.example");
        p.scratchDir = QStringLiteral("/scratch/alice");
        p.enginePath = QStringLiteral("/opt/diamond/diamond-train");
        remote::PartitionInfo cpu, gpu, one;
        cpu.name = QStringLiteral("cpu");
        cpu.isDefault = true;
        gpu.name = QStringLiteral("gpu");
        gpu.gpusPerNode = 4;
        gpu.gpuType = QStringLiteral("a100");
        one.name = QStringLiteral("one");
        one.gpusPerNode = 1;
        p.partitions = {cpu, gpu, one};
        return p;
    }

private Q_SLOTS:
    void gpuPartitionsAreCalibratedOnTheirGpus() {
        QString error;
        const QString cpu = app::clusterCalibrationCommand(cluster(), QStringLiteral("cpu"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(cpu.contains(QLatin1String("--nproc 2")), qPrintable(cpu));
        QVERIFY(!cpu.contains(QLatin1String("--device")) && !cpu.contains(QLatin1String("gpu")));
        // The default partition (CPUs here) is calibrated on its CPUs.
        QVERIFY(!app::clusterCalibrationCommand(cluster(), {}, &error).contains(QLatin1String("--device")));

        remote::ClusterProfile gres = cluster();
        gres.gpuDirective = QStringLiteral("gres");
        const QString gpu = app::clusterCalibrationCommand(gres, QStringLiteral("gpu"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(gpu.contains(QLatin1String("srun ")) && gpu.contains(QLatin1String(" --gres=gpu:a100:2 ")),
                 qPrintable(gpu));
        QVERIFY2(gpu.contains(QLatin1String("--device cuda")) && gpu.contains(QLatin1String("--nproc 2")),
                 qPrintable(gpu));
        const QString one = app::clusterCalibrationCommand(cluster(), QStringLiteral("one"), &error);
        QVERIFY2(one.contains(QLatin1String(" --gpus-per-node=1 ")) && one.contains(QLatin1String("--device cuda")),
                 qPrintable(one));
        QVERIFY2(!one.contains(QLatin1String("--nproc 2")), qPrintable(one)); // one GPU: one rank
    }

    void refusals() {
        QString error;
        remote::ClusterProfile pbs = cluster();
        pbs.scheduler = remote::SchedulerKind::Pbs;
        QVERIFY(app::clusterCalibrationCommand(pbs, {}, &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("Slurm")), qPrintable(error));
        QVERIFY(app::clusterCalibrationCommand(cluster(), QStringLiteral("gpu; reboot"), &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("not a partition name")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestClusterCalibration)
#include "tst_cluster_calibration.moc"
