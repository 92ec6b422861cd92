// Cluster runs from the command line and the REST API, end to end: real `diamondctl` processes and a real
// `diamondctl serve`, the project's Slurm fixture (sshd + Slurm on 127.0.0.1) and the real engine.
// - `run start --target` submits and returns with the job id; `run show` names the job and its queue phase;
//   `run cancel` leaves no job in squeue within 15 s and stores cancelled; `run resume --follow` continues on the
//   cluster from the checkpoint (start_step > 0) and ends with the weights of an uninterrupted run.
// - `run start --job {"chain_jobs": N, ...}` queues the whole chain and exits; the chain finishes on the cluster with
//   no Diamond process (>= 4 one-minute links), and a later `run metrics --follow` ends the run as finished.
// - `run start --plan auto --detach` queues the chain `run plan` shows; `run cancel` removes every link.
// - POST /api/v1/runs with "target", then POST .../cancel: the job leaves squeue within 15 s, the run is cancelled.
// - A cluster whose user signs in with a password (the fixture's PAM user): `run start --target pw --follow` asks on
//   the terminal (here: standard input) once, and the run trains there.
#include "common/cluster_runs.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace diamond;

class TestItClusterRunCli : public QObject {
    Q_OBJECT

    test::LocalCluster cluster_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    std::unique_ptr<test::ClusterRuns> runs_;
    QString ws_;
    QNetworkAccessManager nam_;
    static constexpr int kSteps = 50000;

    struct Result {
        int code = -1;
        QByteArray out, err;
        QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
    };

    QProcessEnvironment env() const {
        QProcessEnvironment e = cluster_.environment(); // SLURM_CONF for the "local" host profile
        e.insert(QStringLiteral("HOME"), dir_.path());
        e.insert(QStringLiteral("DIAMOND_TRAIN"), test::ClusterRuns::engine());
        return e;
    }
    Result ctl(const QStringList &args, const QByteArray &input = {}, int timeoutMs = 300000) {
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(test::binary(QStringLiteral("diamondctl")), QStringList{QStringLiteral("--workspace"), ws_} + args);
        p.write(input);
        p.closeWriteChannel();
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
    QStringList startArgs(const QString &target) {
        const QJsonObject job = runs_->execution().value(QStringLiteral("job")).toObject();
        return {QStringLiteral("run"),       QStringLiteral("start"),
                QStringLiteral("--spec"),    writeFile(QStringLiteral("spec.json"), test::ClusterRuns::spec()),
                QStringLiteral("--config"),  writeFile(QStringLiteral("run.json"), test::ClusterRuns::config(kSteps)),
                QStringLiteral("--target"),  target,
                QStringLiteral("--threads"), QStringLiteral("1"),
                QStringLiteral("--job"),     QString::fromUtf8(QJsonDocument(job).toJson(QJsonDocument::Compact))};
    }
    QJsonObject show(qint64 id) {
        return ctl({QStringLiteral("run"), QStringLiteral("show"), QString::number(id), QStringLiteral("--json")})
            .json();
    }
    /// Waits until the engine of a run that nothing follows wrote metric lines in its folder on the "cluster".
    bool waitForTraining(qint64 id, int timeoutMs) {
        const QDir runs(runs_->localProfile().scratchDir + QStringLiteral("/runs"));
        return QTest::qWaitFor(
            [&] {
                for (const QString &dir : runs.entryList({QStringLiteral("*-%1").arg(id)}, QDir::Dirs))
                    if (!test::runDirEvents(runs.filePath(dir), QStringLiteral("metric")).isEmpty()) return true;
                return false;
            },
            timeoutMs);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        qputenv("LOCAL_CLUSTER_KILL_WAIT", "5");
        qputenv("LOCAL_CLUSTER_NODE_CPUS", "4");
        cluster_.enablePasswordUser();
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        runs_ = std::make_unique<test::ClusterRuns>(cluster_, dir_.path());
        ws_ = dir_.filePath(QStringLiteral("ws"));
        QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--no-examples")}).code, 0);
        const remote::ClusterProfile lc = runs_->localProfile();
        QCOMPARE(ctl({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("--from-json"),
                      writeFile(QStringLiteral("lc.json"), lc.toJson())})
                     .code,
                 0);
        QVERIFY(!runs_->referenceWeights(kSteps).isEmpty());
    }

    void startCancelResumeFromTheCommandLine() {
        Result r = ctl(startArgs(QStringLiteral("lc")) << QStringLiteral("--json"));
        QVERIFY2(r.code == 0, r.err.constData());
        const qint64 id = r.json().value(QStringLiteral("id")).toInteger();
        const QJsonObject job = r.json().value(QStringLiteral("job")).toObject();
        QVERIFY2(!job.value(QStringLiteral("job_id")).toString().isEmpty(),
                 r.out.constData()); // returned once submitted
        QCOMPARE(job.value(QStringLiteral("cluster")).toString(), QStringLiteral("lc"));
        QCOMPARE(runs_->jobsNamed(test::ClusterRuns::jobName(id)).size(), 1);
        QVERIFY(waitForTraining(id, 120000)); // nothing follows the run now: its job goes on by itself
        r = ctl({QStringLiteral("run"), QStringLiteral("show"), QString::number(id)});
        QVERIFY2(r.out.contains("Job:") && r.out.contains(job.value(QStringLiteral("job_id")).toString().toUtf8()),
                 r.out.constData());

        QElapsedTimer t;
        t.start();
        r = ctl({QStringLiteral("run"), QStringLiteral("cancel"), QString::number(id), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(r.json().value(QStringLiteral("state")).toString(), QStringLiteral("cancelled"));
        QVERIFY2(runs_->msUntilNoJob(id, 15000) >= 0, "the job is still queued or running");
        qInfo("diamondctl run cancel returned after %lld ms", t.elapsed());
        QCOMPARE(show(id).value(QStringLiteral("job")).toObject().value(QStringLiteral("phase")).toString(),
                 QStringLiteral("cancelled"));

        r = ctl({QStringLiteral("run"), QStringLiteral("resume"), QString::number(id), QStringLiteral("--follow")});
        QVERIFY2(r.code == 0, QByteArray(r.err + r.out).constData());
        const QJsonObject done = show(id);
        QCOMPARE(done.value(QStringLiteral("state")).toString(), QStringLiteral("finished"));
        QCOMPARE(done.value(QStringLiteral("jobs")).toArray().size(), 2);
        const auto starts =
            test::runDirEvents(done.value(QStringLiteral("run_dir")).toString(), QStringLiteral("started"));
        QVERIFY(starts.size() >= 2);
        QVERIFY(starts.last().value(QStringLiteral("start_step")).toInt() > 0);
        QCOMPARE(done.value(QStringLiteral("weights_sha256")).toString(), runs_->referenceWeights(kSteps));
    }

    void detachedChainFinishesWithNoDiamondProcess() {
        // A run that needs at least 4 allocations of a 1-minute limit (USR1 50 s before the end: Slurm checks
        // every ~30 s, so each job trains 10-40 s): the whole chain is queued by `run start`, which exits; the
        // chain then finishes on the cluster with no Diamond process, each link resuming from the checkpoint.
        constexpr int kChainSteps = 600000; // about 120 s of training on a quiet machine
        constexpr int kLinks = 40;
        QJsonObject job = runs_->execution().value(QStringLiteral("job")).toObject();
        job.insert(QStringLiteral("time_limit_minutes"), 1);
        job.insert(QStringLiteral("signal_seconds"), 50);
        job.insert(QStringLiteral("chain_jobs"), kLinks);
        const QJsonObject config = test::ClusterRuns::config(kChainSteps);
        Result r =
            ctl({QStringLiteral("run"), QStringLiteral("start"), QStringLiteral("--spec"),
                 writeFile(QStringLiteral("spec.json"), test::ClusterRuns::spec()), QStringLiteral("--config"),
                 writeFile(QStringLiteral("chain-run.json"), config), QStringLiteral("--target"), QStringLiteral("lc"),
                 QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--job"),
                 QString::fromUtf8(QJsonDocument(job).toJson(QJsonDocument::Compact)), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData()); // diamondctl has exited: nothing follows the run from here
        const qint64 id = r.json().value(QStringLiteral("id")).toInteger();
        QCOMPARE(runs_->jobsNamed(test::ClusterRuns::jobName(id)).size(), kLinks); // queued up front
        const QString reference = runs_->referenceWeights(kChainSteps);            // trains here meanwhile
        QVERIFY(!reference.isEmpty());

        const QDir runs(runs_->localProfile().scratchDir + QStringLiteral("/runs"));
        const QStringList dirs = runs.entryList({QStringLiteral("*-%1").arg(id)}, QDir::Dirs);
        QCOMPARE(dirs.size(), 1);
        const QString remoteDir = runs.filePath(dirs.first());
        // Look at the end of the events file every 2 s (parsing the whole file, tens of MB, in a tight loop would
        // take the CPU from the chain).
        auto finishedOnCluster = [&] {
            QFile f(remoteDir + QStringLiteral("/events.jsonl"));
            if (!f.open(QIODevice::ReadOnly)) return false;
            f.seek(std::max<qint64>(0, f.size() - 16384));
            return f.readAll().contains("\"event\":\"finished\"");
        };
        QElapsedTimer waited;
        waited.start();
        while (!finishedOnCluster() && waited.elapsed() < 900000)
            QTest::qWait(2000);
        if (!finishedOnCluster()) {
            QStringList exits;
            for (const QString &name : QDir(remoteDir).entryList({QStringLiteral("attempt-*.exit")}, QDir::Files)) {
                QFile f(QDir(remoteDir).filePath(name));
                exits << name + QLatin1Char('=') +
                             QString::fromUtf8(f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : "?");
            }
            QFAIL(qPrintable(QStringLiteral("the chain did not finish on its own; exit files: %1; queued: %2")
                                 .arg(exits.join(QLatin1Char(' ')),
                                      runs_->jobsNamed(test::ClusterRuns::jobName(id)).join(QLatin1Char(',')))));
        }
        // Every link resumed from the checkpoint its predecessor wrote on the signal: none lost more than one
        // checkpoint interval (the last metric step before a start minus the start step).
        QFile events(remoteDir + QStringLiteral("/events.jsonl"));
        QVERIFY(events.open(QIODevice::ReadOnly));
        const int every =
            config.value(QStringLiteral("checkpoint")).toObject().value(QStringLiteral("every_steps")).toInt();
        int links = 0, lastStep = 0, worstLoss = 0;
        for (const QByteArray &line : events.readAll().split('\n')) {
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            const QString kind = e.value(QStringLiteral("event")).toString();
            if (kind == QLatin1String("metric")) lastStep = std::max(lastStep, e.value(QStringLiteral("step")).toInt());
            if (kind != QLatin1String("started")) continue;
            ++links;
            worstLoss = std::max(worstLoss, lastStep - e.value(QStringLiteral("start_step")).toInt());
        }
        qInfo("detached chain: %d links ran the engine; the most steps a link redid: %d (checkpoint every %d)", links,
              worstLoss, every);
        QVERIFY2(links >= 4, qPrintable(QStringLiteral("only %1 links").arg(links)));
        QVERIFY(worstLoss <= every);

        // Diamond catches up later: it follows the chain's record through every link to the end.
        r = ctl({QStringLiteral("run"), QStringLiteral("metrics"), QString::number(id), QStringLiteral("--follow")});
        QVERIFY2(r.code == 0, QByteArray(r.err.right(2000)).constData());
        const QJsonObject done = show(id);
        QCOMPARE(done.value(QStringLiteral("state")).toString(), QStringLiteral("finished"));
        QCOMPARE(done.value(QStringLiteral("weights_sha256")).toString(), reference);
        QVERIFY2(runs_->msUntilNoJob(id, 60000) >= 0, "unused links of the chain are still queued");
    }

    void planAutoQueuesThePlannedChainAndCancelRemovesIt() {
        // A cluster whose partition allows 3-minute jobs and a run far longer than one: `run start --plan auto`
        // queues the chain `run plan` shows (job length, stop signal, links, checkpoint interval) and returns;
        // `run cancel` removes every link.
        remote::ClusterProfile profile = runs_->localProfile(QStringLiteral("lcplan"));
        remote::PartitionInfo debug;
        debug.name = cluster_.partition();
        debug.maxWalltimeMinutes = 3;
        debug.memoryMb = 4000;
        debug.cpusPerNode = 4;
        debug.isDefault = true;
        profile.partitions = {debug};
        QCOMPARE(ctl({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("--from-json"),
                      writeFile(QStringLiteral("lcplan.json"), profile.toJson())})
                     .code,
                 0);
        QJsonObject config = test::ClusterRuns::config(3000000);
        config.remove(QStringLiteral("checkpoint")); // the planner's interval
        const QString specPath = writeFile(QStringLiteral("spec.json"), test::ClusterRuns::spec());
        const QString configPath = writeFile(QStringLiteral("plan-run.json"), config);
        const QStringList common{QStringLiteral("--spec"),    specPath,
                                 QStringLiteral("--config"),  configPath,
                                 QStringLiteral("--target"),  QStringLiteral("lcplan"),
                                 QStringLiteral("--nproc"),   QStringLiteral("1"),
                                 QStringLiteral("--threads"), QStringLiteral("1"),
                                 QStringLiteral("--json")};
        Result r = ctl(QStringList{QStringLiteral("run"), QStringLiteral("plan")} + common);
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject plan = r.json();
        const int jobs = plan.value(QStringLiteral("jobs")).toInt();
        // The scheduler's queue-wait estimate (sbatch --test-only) is part of the predicted finish.
        QVERIFY2(plan.contains(QStringLiteral("queue_wait_s")), r.out.constData());
        QVERIFY(plan.value(QStringLiteral("queue_wait_s")).toDouble() >= 0);
        QCOMPARE(plan.value(QStringLiteral("predicted_finish_s")).toDouble(),
                 plan.value(QStringLiteral("predicted_total_s")).toDouble() +
                     plan.value(QStringLiteral("queue_wait_s")).toDouble());
        const int signal = int(std::ceil(plan.value(QStringLiteral("signal_seconds")).toDouble()));
        QVERIFY2(jobs >= 2, r.out.constData());
        qInfo("plan: %d jobs of 3 min, USR1 %d s before the end, a checkpoint every %lld steps", jobs, signal,
              plan.value(QStringLiteral("checkpoint_every_steps")).toInteger());

        r = ctl(QStringList{QStringLiteral("run"), QStringLiteral("start"), QStringLiteral("--plan"),
                            QStringLiteral("auto"), QStringLiteral("--detach")} +
                common);
        QVERIFY2(r.code == 0, r.err.constData());
        const qint64 id = r.json().value(QStringLiteral("id")).toInteger();
        QCOMPARE(runs_->jobsNamed(test::ClusterRuns::jobName(id)).size(), jobs);
        const QDir runs(profile.scratchDir + QStringLiteral("/runs"));
        const QStringList dirs = runs.entryList({QStringLiteral("*-%1").arg(id)}, QDir::Dirs);
        QCOMPARE(dirs.size(), 1);
        const QDir remote(runs.filePath(dirs.first()));
        QFile first(remote.filePath(QStringLiteral("attempt-1.sh")));
        QVERIFY(first.open(QIODevice::ReadOnly));
        const QByteArray script = first.readAll();
        QVERIFY2(script.contains("#SBATCH --time=00:03:00\n") &&
                     script.contains(QStringLiteral("#SBATCH --signal=B:USR1@%1\n").arg(signal).toUtf8()),
                 script.constData());
        QFile last(remote.filePath(QStringLiteral("attempt-%1.sh").arg(jobs)));
        QVERIFY(last.open(QIODevice::ReadOnly));
        QVERIFY(last.readAll().contains(remote.filePath(QStringLiteral("attempt-%1.exit").arg(jobs - 1)).toUtf8()));
        QCOMPARE(test::ClusterRuns::readJson(remote.filePath(QStringLiteral("run.json")))
                     .value(QStringLiteral("checkpoint"))
                     .toObject()
                     .value(QStringLiteral("every_steps"))
                     .toInteger(),
                 plan.value(QStringLiteral("checkpoint_every_steps")).toInteger());

        r = ctl({QStringLiteral("run"), QStringLiteral("cancel"), QString::number(id), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(runs_->msUntilNoJob(id, 15000) >= 0, "links of the chain are still queued");
    }

    void restStartsAndCancelsOnTheCluster() {
        QProcess server;
        server.setProcessEnvironment(env());
        server.start(test::binary(QStringLiteral("diamondctl")),
                     {QStringLiteral("--workspace"), ws_, QStringLiteral("serve"), QStringLiteral("--port"),
                      QStringLiteral("0")});
        QVERIFY(QTest::qWaitFor([&] { return server.canReadLine(); }, 30000));
        const auto m =
            QRegularExpression(QStringLiteral(":(\\d+)/api/v1/")).match(QString::fromUtf8(server.readLine()));
        QVERIFY(m.hasMatch());
        const QString base = QStringLiteral("http://127.0.0.1:%1/api/v1").arg(m.captured(1));
        const QByteArray token = ctl({QStringLiteral("serve"), QStringLiteral("--print-token")}).out.trimmed();
        auto http = [&](const QByteArray &method, const QString &path, const QJsonObject &body = {}) {
            QNetworkRequest req(QUrl(base + path));
            req.setRawHeader("Authorization", "Bearer " + token);
            req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
            QNetworkReply *reply = nam_.sendCustomRequest(
                req, method, body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact));
            QEventLoop loop;
            connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
            loop.exec();
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            const QJsonObject json = QJsonDocument::fromJson(reply->readAll()).object();
            reply->deleteLater();
            return std::pair{status, json};
        };
        // POST /api/v1/plans for the cluster asks its scheduler for the queue wait, as `run plan` does (the fixture's
        // node is free: 0 s), and skips it when told to.
        const QJsonObject planBody{{QStringLiteral("spec"), test::ClusterRuns::spec()},
                                   {QStringLiteral("config"), test::ClusterRuns::config(kSteps)},
                                   {QStringLiteral("target"), QStringLiteral("lc")},
                                   {QStringLiteral("nproc"), 1},
                                   {QStringLiteral("threads"), 1}};
        auto [planStatus, plan] = http("POST", QStringLiteral("/plans"), planBody);
        QCOMPARE(planStatus, 200);
        QVERIFY2(plan.contains(QStringLiteral("queue_wait_s")), QJsonDocument(plan).toJson().constData());
        QVERIFY2(!plan.contains(QStringLiteral("queue_wait_problems")), QJsonDocument(plan).toJson().constData());
        QCOMPARE(plan.value(QStringLiteral("predicted_finish_s")).toDouble(),
                 plan.value(QStringLiteral("predicted_total_s")).toDouble() +
                     plan.value(QStringLiteral("queue_wait_s")).toDouble());
        qInfo("REST plan: queue wait %.0f s", plan.value(QStringLiteral("queue_wait_s")).toDouble());
        QJsonObject noWait = planBody;
        noWait.insert(QStringLiteral("queue_wait"), false);
        auto [noWaitStatus, noWaitPlan] = http("POST", QStringLiteral("/plans"), noWait);
        QCOMPARE(noWaitStatus, 200);
        QVERIFY(!noWaitPlan.contains(QStringLiteral("queue_wait_s")));
        noWait.insert(QStringLiteral("queue_wait"), QStringLiteral("yes"));
        auto [badPlanStatus, badPlan] = http("POST", QStringLiteral("/plans"), noWait);
        QCOMPARE(badPlanStatus, 400);
        QVERIFY2(badPlan.value(QStringLiteral("error"))
                     .toObject()
                     .value(QStringLiteral("message"))
                     .toString()
                     .contains(QStringLiteral("queue_wait")),
                 QJsonDocument(badPlan).toJson().constData());

        auto [status, created] = http("POST", QStringLiteral("/runs"),
                                      {{QStringLiteral("spec"), test::ClusterRuns::spec()},
                                       {QStringLiteral("config"), test::ClusterRuns::config(kSteps)},
                                       {QStringLiteral("target"), QStringLiteral("lc")},
                                       {QStringLiteral("execution"), runs_->execution()}});
        QCOMPARE(status, 201);
        const qint64 id = created.value(QStringLiteral("id")).toInteger();
        QCOMPARE(created.value(QStringLiteral("target")).toString(), QStringLiteral("lc"));
        QJsonObject run;
        QVERIFY(QTest::qWaitFor(
            [&] {
                run = http("GET", QStringLiteral("/runs/%1").arg(id)).second;
                return run.value(QStringLiteral("job")).toObject().value(QStringLiteral("phase")).toString() ==
                       QLatin1String("running");
            },
            120000));
        QVERIFY(!run.value(QStringLiteral("job")).toObject().value(QStringLiteral("job_id")).toString().isEmpty());
        QCOMPARE(http("POST", QStringLiteral("/runs/%1/cancel").arg(id)).first, 202);
        QVERIFY2(runs_->msUntilNoJob(id, 15000) >= 0, "the job is still queued or running");
        QVERIFY(QTest::qWaitFor(
            [&] {
                return http("GET", QStringLiteral("/runs/%1").arg(id)).second.value(QStringLiteral("state")) ==
                       QLatin1String("cancelled");
            },
            15000));
        auto [bad, error] = http("POST", QStringLiteral("/runs"),
                                 {{QStringLiteral("spec"), test::ClusterRuns::spec()},
                                  {QStringLiteral("config"), test::ClusterRuns::config(10)},
                                  {QStringLiteral("target"), QStringLiteral("nowhere")}});
        QCOMPARE(bad, 400);
        QCOMPARE(error.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
                 QStringLiteral("unknown_target"));
        server.terminate();
        QVERIFY(server.waitForFinished(30000));
    }

    void passwordClusterAsksOnTheTerminalOnce() {
        remote::ClusterProfile pw = runs_->sshProfile(QStringLiteral("pw"));
        pw.user = cluster_.passwordUser();
        pw.identityFile.clear();
        pw.scratchDir = QStringLiteral("~/scratch");
        QCOMPARE(ctl({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("--from-json"),
                      writeFile(QStringLiteral("pw.json"), pw.toJson())})
                     .code,
                 0);
        QStringList args = startArgs(QStringLiteral("pw"));
        args[args.indexOf(QStringLiteral("--config")) + 1] =
            writeFile(QStringLiteral("short.json"), test::ClusterRuns::config(300));
        const Result r = ctl(args << QStringLiteral("--follow"), cluster_.password().toUtf8() + '\n');
        QVERIFY2(r.code == 0, QByteArray(r.err + r.out).constData());
        QCOMPARE(r.err.count("Signing in to cluster 'pw'"), 1);
        QVERIFY(!r.err.contains(cluster_.password().toUtf8())); // never echoed
        QVERIFY(r.out.contains("finished"));
    }
};

QTEST_GUILESS_MAIN(TestItClusterRunCli)
#include "tst_it_cluster_run_cli.moc"
