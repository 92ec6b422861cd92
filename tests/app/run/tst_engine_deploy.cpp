// The parts of an engine deployment that need no cluster (app/cluster/engine_deploy.h): the image build command for
// each scheduler, the source archive a container is built from, and the profile that uses a deployment.
#include "app/cluster/engine_deploy.h"
#include "common/test_paths.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;

class TestEngineDeploy : public QObject {
    Q_OBJECT

    static remote::ClusterProfile profile(remote::SchedulerKind scheduler) {
        remote::ClusterProfile p;
        p.name = QStringLiteral("hpc");
        p.host = QStringLiteral("login.hpc.example");
        p.scheduler = scheduler;
        p.scratchDir = QStringLiteral("/scratch/alice/my diamond");
        p.enginePath = QStringLiteral("/old/diamond-train");
        p.account = QStringLiteral("proj1");
        p.modules = {QStringLiteral("apptainer/1.3")};
        return p;
    }

private Q_SLOTS:
    void imageIsBuiltInAJobStep() {
        const remote::ClusterProfile p = profile(remote::SchedulerKind::Slurm);
        QCOMPARE(app::engineDeployDir(p), QStringLiteral("/scratch/alice/my diamond/engine"));
        const QString def = app::engineDeployDir(p) + QStringLiteral("/d.def");
        const QString sif = app::engineDeployDir(p) + QStringLiteral("/d.sif");
        QString error;
        const QString slurm = app::imageBuildCommand(p, def, sif, QStringLiteral("gpu"), 90, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(slurm, QStringLiteral("set -u\ncd '/scratch/alice/my diamond/engine' || exit 1\n"
                                       "module load apptainer/1.3 || exit 1\n"
                                       "srun --job-name=diamond-build-engine --nodes=1 --ntasks=1 --time=90 "
                                       "--partition=gpu --account=proj1 apptainer build --fakeroot --force "
                                       "'/scratch/alice/my diamond/engine/d.sif' "
                                       "'/scratch/alice/my diamond/engine/d.def'\n"));
        // Without a scheduler it is built where the commands run; the runtime's own program is used.
        remote::ClusterProfile direct = profile(remote::SchedulerKind::None);
        direct.container.command = QStringLiteral("/sw/apptainer");
        const QString none = app::imageBuildCommand(direct, def, sif, {}, 60, &error);
        QVERIFY(none.endsWith(QLatin1String("\n/sw/apptainer build --fakeroot --force "
                                            "'/scratch/alice/my diamond/engine/d.sif' "
                                            "'/scratch/alice/my diamond/engine/d.def'\n")));
        QVERIFY(!none.contains(QLatin1String("srun")));
        QVERIFY(app::imageBuildCommand(profile(remote::SchedulerKind::Pbs), def, sif, {}, 60, &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("PBS")), qPrintable(error));
        QVERIFY(app::imageBuildCommand(p, def, sif, QStringLiteral("gpu;reboot"), 60, &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("not a partition name")), qPrintable(error));
        QVERIFY(app::imageBuildCommand(p, def, sif, {}, 0, &error).isEmpty());
    }

    void sourceArchiveHoldsTheEngineAndItsHeaders() {
        QTemporaryDir dir;
        const QString archive = dir.filePath(QStringLiteral("src.tar.gz"));
        QString error;
        QVERIFY2(app::writeEngineSourceArchive(QStringLiteral(DIAMOND_SOURCE_DIR), archive, &error), qPrintable(error));
        QProcess tar;
        tar.start(QStringLiteral("tar"), {QStringLiteral("-tzf"), archive});
        QVERIFY(tar.waitForFinished(60000) && tar.exitCode() == 0);
        const QStringList entries = QString::fromUtf8(tar.readAllStandardOutput()).split(QLatin1Char('\n'));
        for (const char *needed : {"CMakeLists.txt", "cmake/version.h.in", "engine/train/trainer.cpp",
                                   "engine/spec/CMakeLists.txt", "third_party/include/nlohmann/json.hpp"})
            QVERIFY2(entries.contains(QString::fromLatin1(needed)), needed);
        QVERIFY(entries.filter(QStringLiteral("stb_image")).size() >= 1);
        // Tests, fuzzers and the desktop application stay home.
        QVERIFY(entries.filter(QRegularExpression(QStringLiteral("(^|/)(tests|fuzz)/"))).isEmpty());
        QVERIFY(entries.filter(QRegularExpression(QStringLiteral("^(ui|app|remote)/"))).isEmpty());
        QVERIFY(!app::writeEngineSourceArchive(dir.filePath(QStringLiteral("nowhere")), archive, &error));
    }

    void theProfileUsesTheDeployment() {
        const remote::ClusterProfile p = profile(remote::SchedulerKind::Slurm);
        app::EngineDeployment d;
        d.enginePath = QStringLiteral("/scratch/alice/my diamond/engine/diamond-train-0.1.0/diamond-train");
        app::EngineDeployOptions bundle;
        remote::ClusterProfile withBundle = app::withDeployment(p, bundle, d);
        QCOMPARE(withBundle.enginePath, d.enginePath);
        QCOMPARE(withBundle.container.runtime, remote::ContainerRuntime::None);
        app::EngineDeployOptions container;
        container.container = true;
        d.enginePath = QStringLiteral("/opt/diamond/diamond-train");
        d.image = QStringLiteral("/scratch/alice/my diamond/engine/diamond-train-0.1.0.sif");
        remote::ClusterProfile withImage = p;
        withImage.container.command = QStringLiteral("/sw/apptainer");
        withImage.container.options = {QStringLiteral("--cleanenv")};
        withImage = app::withDeployment(withImage, container, d);
        QCOMPARE(withImage.container.runtime, remote::ContainerRuntime::Apptainer);
        QCOMPARE(withImage.container.image, d.image);
        QCOMPARE(withImage.container.command, QStringLiteral("/sw/apptainer")); // kept
        QCOMPARE(withImage.container.options, QStringList{QStringLiteral("--cleanenv")});
        QCOMPARE(withImage.validate(), QString());
        // A bundle deployed later replaces the image.
        QCOMPARE(app::withDeployment(withImage, bundle, d).container.runtime, remote::ContainerRuntime::None);
    }
};

QTEST_GUILESS_MAIN(TestEngineDeploy)
#include "tst_engine_deploy.moc"
