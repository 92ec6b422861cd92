// ClusterExecutor's refusals and failure reports without a cluster: start() refuses what cannot work at once
// (naming why), and a failure on the worker thread arrives as processExited(crashed) with the reason. The
// Slurm runs themselves are in tst_it_cluster_executor.
#include "app/cluster/cluster_executor.h"
#include "remote/command_runner.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;

class TestClusterExecutor : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    remote::ClusterProfile profile() const {
        remote::ClusterProfile p;
        p.name = QStringLiteral("c");
        p.host = QStringLiteral("local");
        p.scratchDir = dir_.filePath(QStringLiteral("scratch"));
        p.enginePath = QStringLiteral("/opt/diamond/diamond-train");
        return p;
    }

    app::ExecutionRequest request() const {
        app::ExecutionRequest r;
        r.runId = 7;
        r.specPath = dir_.filePath(QStringLiteral("spec.json"));
        r.configPath = dir_.filePath(QStringLiteral("run.json"));
        r.runDir = dir_.path();
        return r;
    }

    /// A runner whose commands all fail the way a host without the tools would.
    class BrokenRunner : public remote::LocalCommandRunner {
    public:
        remote::CommandResult run(const QString &, const QByteArray & = {}, int = 60000) override {
            remote::CommandResult r;
            r.exitCode = 127;
            r.stderrData = "sh: 1: mkdir: not found\n";
            return r;
        }
    };

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        for (const char *name : {"spec.json", "run.json"}) {
            QFile f(dir_.filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{}");
        }
    }

    void refusesAtOnce() {
        auto none = profile();
        none.scheduler = remote::SchedulerKind::None;
        app::ClusterExecutor a(none, [] { return std::make_unique<remote::LocalCommandRunner>(); });
        QVERIFY(!a.start(request()));
        QVERIFY2(a.errorString().contains(QLatin1String("no batch scheduler")), qPrintable(a.errorString()));

        auto invalid = profile();
        invalid.enginePath.clear();
        app::ClusterExecutor b(invalid, [] { return std::make_unique<remote::LocalCommandRunner>(); });
        QVERIFY(!b.start(request()));
        QVERIFY2(b.errorString().contains(QLatin1String("engine_path:")), qPrintable(b.errorString()));

        app::ClusterExecutor c(profile(), [] { return std::make_unique<remote::LocalCommandRunner>(); });
        auto missing = request();
        missing.specPath = dir_.filePath(QStringLiteral("nope.json"));
        QVERIFY(!c.start(missing));
        QVERIFY2(c.errorString().contains(QLatin1String("nope.json")), qPrintable(c.errorString()));
        QCOMPARE(c.status(7), app::ProcessStatus::NotRunning);
        QVERIFY(!c.cancel(7));
        QCOMPARE(c.processId(7), 0);
    }

    void workerFailureIsReported() {
        app::ClusterExecutor e(profile(), [] { return std::make_unique<BrokenRunner>(); });
        QSignalSpy exited(&e, &app::Executor::processExited);
        QSignalSpy statuses(&e, &app::Executor::statusChanged);
        QVERIFY(e.start(request()));
        QCOMPARE(e.status(7), app::ProcessStatus::Starting);
        QVERIFY(!e.start(request())); // one job per run
        QVERIFY(exited.wait(10000));
        const QList<QVariant> args = exited.first();
        QCOMPARE(args.at(0).toLongLong(), 7);
        QVERIFY(args.at(2).toBool()); // crashed: the engine never ran
        QVERIFY(!args.at(3).toBool());
        QVERIFY2(args.at(4).toString().contains(QLatin1String("mkdir: not found")), qPrintable(args.at(4).toString()));
        QCOMPARE(e.status(7), app::ProcessStatus::NotRunning);
        QVERIFY(e.jobIds(7).isEmpty());
        QCOMPARE(statuses.last().at(1).value<app::ProcessStatus>(), app::ProcessStatus::NotRunning);
    }
};

QTEST_GUILESS_MAIN(TestClusterExecutor)
#include "tst_cluster_executor.moc"
