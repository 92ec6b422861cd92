// Data-parallel training with real diamond-train processes on loopback (Gloo): equivalence of
// 2 ranks x batch 16 with 1 rank x batch 32, bit-exact resume of a killed 2-rank job, a 1-rank checkpoint continued
// on 2 ranks (and, in sigtermToLauncherIsForwarded, a 2-rank one on 1), a dead
// rank ending the job with an error, signals, a missing rank named at the rendezvous, and local (--nproc)
// ranks that listen on loopback only.
#include "common/test_paths.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <torch/torch.h>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

QString example(const QString &name, const QString &file) {
    return diamond::test::sourcePath(QStringLiteral("resources/examples/") + name + QLatin1Char('/') + file);
}

QList<QJsonObject> parseLines(const QByteArray &bytes) {
    QList<QJsonObject> out;
    for (const QByteArray &line : bytes.split('\n'))
        if (!line.trimmed().isEmpty()) out << QJsonDocument::fromJson(line).object();
    return out;
}

QJsonObject lastOf(const QList<QJsonObject> &events, const QString &kind) {
    for (auto it = events.rbegin(); it != events.rend(); ++it)
        if (it->value(QStringLiteral("event")).toString() == kind) return *it;
    return {};
}

struct Finished {
    int exitCode = -1;
    QList<QJsonObject> events;
    QString err;
};

Finished run(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
             int timeoutMs = 300000) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(diamond::test::binary(QStringLiteral("diamond-train")), args);
    Finished f;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return f;
    }
    f.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    f.events = parseLines(p.readAllStandardOutput());
    f.err = QString::fromUtf8(p.readAllStandardError());
    return f;
}

/// Starts diamond-train with `args` and SIGKILLs it (with --nproc: the launcher, whose ranks die with it) once it
/// reports a checkpoint at `step` or later; false when it ended before that.
bool killAfterCheckpoint(const QStringList &args, int step) {
    QProcess p;
    p.start(diamond::test::binary(QStringLiteral("diamond-train")), args);
    if (!p.waitForStarted()) return false;
    QByteArray pending;
    bool killed = false;
    while (!killed && p.state() != QProcess::NotRunning) {
        p.waitForReadyRead(1000);
        pending += p.readAllStandardOutput();
        for (const auto &e : parseLines(pending.left(pending.lastIndexOf('\n') + 1)))
            if (e.value(QStringLiteral("event")).toString() == QLatin1String("checkpoint") &&
                e.value(QStringLiteral("step")).toInt() >= step) {
                ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
                killed = true;
                break;
            }
    }
    p.waitForFinished();
    return killed;
}

int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

/// Model tensors of a checkpoint file, by name.
std::map<std::string, torch::Tensor> modelTensors(const QString &path) {
    torch::serialize::InputArchive archive;
    archive.load_from(path.toStdString());
    std::map<std::string, torch::Tensor> out;
    for (const auto &key : archive.keys()) {
        if (key.rfind("model/", 0) != 0) continue;
        torch::Tensor t;
        archive.read(key, t);
        out[key] = t;
    }
    return out;
}

/// Child processes of `parent` (from /proc/<pid>/stat).
QList<qint64> childrenOf(qint64 parent) {
    QList<qint64> out;
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid) continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly)) continue;
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1].toLongLong() == parent) out << pid;
    }
    return out;
}

/// "<table> <local address> <state>" ("tcp 0100007F:8A2F 0A", "tcp6 ... 01") of the TCP sockets held by the
/// processes `pids` (state 0A: listening).
QStringList tcpSockets(const QList<qint64> &pids) {
    QSet<QString> inodes;
    for (const qint64 pid : pids) {
        const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
        for (const QString &fd : fds.entryList(QDir::Files | QDir::System)) {
            char target[256] = {};
            const ssize_t n = ::readlink(QFile::encodeName(fds.filePath(fd)).constData(), target, sizeof target - 1);
            const QString link = QString::fromLatin1(target, n > 0 ? n : 0);
            if (link.startsWith(QStringLiteral("socket:["))) inodes.insert(link.mid(8, link.size() - 9));
        }
    }
    QStringList out;
    for (const char *table : {"tcp", "tcp6"}) {
        QFile f(QStringLiteral("/proc/net/") + QLatin1String(table));
        if (!f.open(QIODevice::ReadOnly)) continue;
        const QList<QByteArray> lines = f.readAll().split('\n');
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QList<QByteArray> cols = lines[i].simplified().split(' ');
            if (cols.size() < 10) continue;
            if (inodes.contains(QString::fromLatin1(cols[9])))
                out << QLatin1String(table) + QLatin1Char(' ') + QString::fromLatin1(cols[1]) + QLatin1Char(' ') +
                           QString::fromLatin1(cols[3]);
        }
    }
    return out;
}

/// Whether the local address of a tcpSockets() entry is a loopback one (127.0.0.0/8, ::1, ::ffff:127.x.x.x).
bool isLoopback(const QString &entry) {
    const QString address = entry.section(QLatin1Char(' '), 1, 1).section(QLatin1Char(':'), 0, 0);
    if (entry.startsWith(QStringLiteral("tcp6 ")))
        return address == QStringLiteral("00000000000000000000000001000000") ||
               (address.startsWith(QStringLiteral("0000000000000000FFFF0000")) &&
                address.endsWith(QStringLiteral("7F")));
    return address.size() == 8 && address.endsWith(QStringLiteral("7F"));
}

} // namespace

class TestDistributed : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString writeConfig(const QString &name, const QString &example, int steps, int checkpointEvery,
                        double validation = 0.2) {
        QFile in(::example(example, QStringLiteral("run.json")));
        if (!in.open(QIODevice::ReadOnly)) return {};
        QJsonObject c = QJsonDocument::fromJson(in.readAll()).object();
        c[QStringLiteral("steps")] = steps;
        c[QStringLiteral("batch_size")] = 32;
        c[QStringLiteral("log_every_steps")] = 5;
        QJsonObject data = c[QStringLiteral("data")].toObject();
        data[QStringLiteral("validation_split")] = validation;
        c[QStringLiteral("data")] = data;
        c[QStringLiteral("checkpoint")] =
            QJsonObject{{QStringLiteral("every_steps"), checkpointEvery}, {QStringLiteral("keep_last"), 3}};
        const QString path = dir_.filePath(name);
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly)) return {};
        out.write(QJsonDocument(c).toJson());
        return path;
    }

    /// Starts ranks 0 and 1 by hand (torchrun variables, a free port) and reads rank 0's output
    /// until it reports its first metric.
    void startTwoRanksAndWaitForMetrics(QProcess (&ranks)[2], const QString &config, const QString &runDir,
                                        QByteArray &out) {
        const QString port = QString::number(freePort());
        for (int r = 0; r < 2; ++r) {
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("RANK"), QString::number(r));
            env.insert(QStringLiteral("WORLD_SIZE"), QStringLiteral("2"));
            env.insert(QStringLiteral("MASTER_ADDR"), QStringLiteral("127.0.0.1"));
            env.insert(QStringLiteral("MASTER_PORT"), port);
            ranks[r].setProcessEnvironment(env);
            ranks[r].start(diamond::test::binary(QStringLiteral("diamond-train")),
                           args(QStringLiteral("spirals"), config, runDir));
            QVERIFY(ranks[r].waitForStarted());
        }
        while (!out.contains("\"metric\"") && ranks[0].state() != QProcess::NotRunning) {
            ranks[0].waitForReadyRead(1000);
            out += ranks[0].readAllStandardOutput();
        }
    }

    QStringList args(const QString &exampleName, const QString &config, const QString &runDir) {
        return {QStringLiteral("--spec"),    example(exampleName, QStringLiteral("spec.json")),
                QStringLiteral("--config"),  config,
                QStringLiteral("--run-dir"), runDir,
                QStringLiteral("--threads"), QStringLiteral("1")};
    }

private Q_SLOTS:
    void initTestCase() { qputenv("DIAMOND_DIST_TIMEOUT_S", "30"); }

    void twoRanksEqualOneRank_data() {
        QTest::addColumn<QString>("example");
        QTest::newRow("spirals MLP") << QStringLiteral("spirals");
        QTest::newRow("small CNN") << QStringLiteral("shapes_cnn");
    }

    void twoRanksEqualOneRank() {
        QFETCH(QString, example);
        const QString config = writeConfig(example + QStringLiteral("-eq.json"), example, 50, 0);
        const QString one = dir_.filePath(example + QStringLiteral("-1rank"));
        const QString two = dir_.filePath(example + QStringLiteral("-2ranks"));
        const Finished a = run(args(example, config, one));
        QVERIFY2(a.exitCode == 0, qPrintable(a.err));
        const Finished b = run(args(example, config, two) << QStringLiteral("--nproc") << QStringLiteral("2"));
        QVERIFY2(b.exitCode == 0, qPrintable(b.err));
        QCOMPARE(lastOf(b.events, QStringLiteral("started")).value(QStringLiteral("world_size")).toInt(), 2);
        const auto ta =
            modelTensors(lastOf(a.events, QStringLiteral("finished")).value(QStringLiteral("checkpoint")).toString());
        const auto tb =
            modelTensors(lastOf(b.events, QStringLiteral("finished")).value(QStringLiteral("checkpoint")).toString());
        QCOMPARE(ta.size(), tb.size());
        QVERIFY(!ta.empty());
        double maxDiff = 0;
        for (const auto &[name, tensor] : ta) {
            if (name.find("num_batches_tracked") != std::string::npos) continue;
            maxDiff = std::max(maxDiff, (tensor - tb.at(name)).abs().max().item<double>());
        }
        qInfo("%s: max |param difference| after 50 steps, 2 ranks x 16 vs 1 rank x 32: %.3g", qPrintable(example),
              maxDiff);
        QVERIFY(maxDiff <= 1e-5);
        // The runs did learn something: parameters moved away from the initialisation.
        QVERIFY(lastOf(a.events, QStringLiteral("finished"))
                    .value(QStringLiteral("metrics"))
                    .toObject()
                    .value(QStringLiteral("val_accuracy"))
                    .toDouble() > 0.4);
    }

    void killedTwoRankJobResumesBitExact() {
        const QString config = writeConfig(QStringLiteral("resume.json"), QStringLiteral("spirals"), 400, 20);
        const Finished reference = run(args(QStringLiteral("spirals"), config, dir_.filePath(QStringLiteral("ref2")))
                                       << QStringLiteral("--nproc") << QStringLiteral("2"));
        QCOMPARE(reference.exitCode, 0);
        const QString expected =
            lastOf(reference.events, QStringLiteral("finished")).value(QStringLiteral("weights_sha256")).toString();

        const QString runDir = dir_.filePath(QStringLiteral("killed2"));
        QVERIFY(killAfterCheckpoint(
            args(QStringLiteral("spirals"), config, runDir) << QStringLiteral("--nproc") << QStringLiteral("2"), 140));
        QTest::qWait(500);
        const Finished resumed = run(args(QStringLiteral("spirals"), config, runDir)
                                     << QStringLiteral("--nproc") << QStringLiteral("2") << QStringLiteral("--resume"));
        QCOMPARE(resumed.exitCode, 0);
        QVERIFY(lastOf(resumed.events, QStringLiteral("started")).value(QStringLiteral("start_step")).toInt() >= 140);
        QCOMPARE(lastOf(resumed.events, QStringLiteral("finished")).value(QStringLiteral("weights_sha256")).toString(),
                 expected);
    }

    void oneRankCheckpointContinuesOnTwoRanks() {
        // Killed after a checkpoint at 1 rank, resumed with 2: the data order is global and 2 ranks x 16 compute
        // what 1 rank x 32 does, so the result is the uninterrupted 1-rank run's up to float rounding.
        const QString config = writeConfig(QStringLiteral("grow.json"), QStringLiteral("spirals"), 120, 20);
        const Finished reference = run(args(QStringLiteral("spirals"), config, dir_.filePath(QStringLiteral("grow1"))));
        QVERIFY2(reference.exitCode == 0, qPrintable(reference.err));
        const QString runDir = dir_.filePath(QStringLiteral("grow"));
        QVERIFY(killAfterCheckpoint(args(QStringLiteral("spirals"), config, runDir), 60));
        const Finished grown = run(args(QStringLiteral("spirals"), config, runDir)
                                   << QStringLiteral("--nproc") << QStringLiteral("2") << QStringLiteral("--resume"));
        QVERIFY2(grown.exitCode == 0, qPrintable(grown.err));
        const QJsonObject started = lastOf(grown.events, QStringLiteral("started"));
        QCOMPARE(started.value(QStringLiteral("world_size")).toInt(), 2);
        const int startStep = started.value(QStringLiteral("start_step")).toInt();
        QVERIFY2(startStep >= 60 && startStep < 120, qPrintable(QString::number(startStep)));
        QVERIFY(lastOf(grown.events, QStringLiteral("warning"))
                    .value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("1 rank")));
        QCOMPARE(lastOf(grown.events, QStringLiteral("finished")).value(QStringLiteral("step")).toInt(), 120);
        const auto ta = modelTensors(
            lastOf(reference.events, QStringLiteral("finished")).value(QStringLiteral("checkpoint")).toString());
        const auto tb = modelTensors(
            lastOf(grown.events, QStringLiteral("finished")).value(QStringLiteral("checkpoint")).toString());
        QCOMPARE(ta.size(), tb.size());
        double maxDiff = 0;
        for (const auto &[name, tensor] : ta)
            maxDiff = std::max(maxDiff, (tensor - tb.at(name)).abs().max().item<double>());
        qInfo("1 rank to step %d, then 2 ranks to 120: max |param difference| from 1 rank throughout: %.3g", startStep,
              maxDiff);
        QVERIFY(maxDiff <= 1e-4);
    }

    void deadRankEndsTheJobWithAnError() {
        const QString config = writeConfig(QStringLiteral("dead.json"), QStringLiteral("spirals"), 1000000, 0);
        QProcess ranks[2];
        QByteArray out;
        startTwoRanksAndWaitForMetrics(ranks, config, dir_.filePath(QStringLiteral("dead")), out);
        QElapsedTimer timer;
        timer.start();
        ::kill(static_cast<pid_t>(ranks[1].processId()), SIGKILL);
        QVERIFY(ranks[0].waitForFinished(60000));
        qInfo("rank 0 stopped %.1f s after rank 1 was killed", timer.elapsed() / 1000.0);
        QVERIFY(timer.elapsed() < 60000);
        QCOMPARE(ranks[0].exitCode(), 1);
        out += ranks[0].readAllStandardOutput();
        const QJsonObject error = lastOf(parseLines(out), QStringLiteral("error"));
        QVERIFY(!error.isEmpty());
        qInfo("error event: %s", qPrintable(error.value(QStringLiteral("message")).toString().left(200)));
        ranks[1].waitForFinished();
    }

    void sigtermToOneRankStopsAllWith85() {
        const QString config = writeConfig(QStringLiteral("term.json"), QStringLiteral("spirals"), 1000000, 0);
        const QString runDir = dir_.filePath(QStringLiteral("term"));
        QProcess ranks[2];
        QByteArray out;
        startTwoRanksAndWaitForMetrics(ranks, config, runDir, out);
        ::kill(static_cast<pid_t>(ranks[1].processId()), SIGTERM);
        for (auto &p : ranks) {
            QVERIFY(p.waitForFinished(60000));
            QCOMPARE(p.exitCode(), 85);
        }
        out += ranks[0].readAllStandardOutput();
        const QJsonObject requeue = lastOf(parseLines(out), QStringLiteral("requeue"));
        QVERIFY(QFile::exists(requeue.value(QStringLiteral("checkpoint")).toString()));
        QCOMPARE(QDir(runDir + QStringLiteral("/checkpoints")).entryList({QStringLiteral("*.pt")}).size(), 1);
    }

    void sigtermToLauncherIsForwarded() {
        const QString config = writeConfig(QStringLiteral("launcher.json"), QStringLiteral("spirals"), 1000000, 0);
        const QString runDir = dir_.filePath(QStringLiteral("launcher"));
        QProcess p;
        p.start(diamond::test::binary(QStringLiteral("diamond-train")),
                args(QStringLiteral("spirals"), config, runDir) << QStringLiteral("--nproc") << QStringLiteral("2"));
        QVERIFY(p.waitForStarted());
        QByteArray out;
        while (!out.contains("\"metric\"") && p.state() != QProcess::NotRunning) {
            p.waitForReadyRead(1000);
            out += p.readAllStandardOutput();
        }
        ::kill(static_cast<pid_t>(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 85);
        out += p.readAllStandardOutput();
        QVERIFY(QFile::exists(
            lastOf(parseLines(out), QStringLiteral("requeue")).value(QStringLiteral("checkpoint")).toString()));
        // Resuming the two-rank checkpoint with one rank keeps going (the data order is global).
        QJsonObject c;
        {
            QFile f(config);
            QVERIFY(f.open(QIODevice::ReadOnly));
            c = QJsonDocument::fromJson(f.readAll()).object();
        }
        const int step = lastOf(parseLines(out), QStringLiteral("requeue")).value(QStringLiteral("step")).toInt();
        c[QStringLiteral("steps")] = step + 10;
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(c).toJson());
        f.close();
        const Finished one = run(args(QStringLiteral("spirals"), config, runDir) << QStringLiteral("--resume"));
        QCOMPARE(one.exitCode, 0);
        QCOMPARE(lastOf(one.events, QStringLiteral("started")).value(QStringLiteral("start_step")).toInt(), step);
        QVERIFY(lastOf(one.events, QStringLiteral("warning"))
                    .value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("2 rank")));
        QCOMPARE(lastOf(one.events, QStringLiteral("finished")).value(QStringLiteral("step")).toInt(), step + 10);
    }

    void localRanksListenOnLoopbackOnly() {
        // --nproc: no socket of the launcher's ranks (rendezvous store, Gloo) accepts connections from other
        // hosts, and the private store folder it made in TMPDIR is gone afterwards.
        const QString config = writeConfig(QStringLiteral("loopback.json"), QStringLiteral("spirals"), 1000000, 0);
        const QString tmp = dir_.filePath(QStringLiteral("loopback-tmp"));
        QVERIFY(QDir().mkpath(tmp));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TMPDIR"), tmp);
        p.setProcessEnvironment(env);
        p.start(diamond::test::binary(QStringLiteral("diamond-train")),
                args(QStringLiteral("spirals"), config, dir_.filePath(QStringLiteral("loopback")))
                    << QStringLiteral("--nproc") << QStringLiteral("2"));
        QVERIFY(p.waitForStarted());
        QByteArray out;
        while (!out.contains("\"metric\"") && p.state() != QProcess::NotRunning) {
            p.waitForReadyRead(1000);
            out += p.readAllStandardOutput();
        }
        const QList<qint64> ranks = childrenOf(p.processId());
        QCOMPARE(ranks.size(), 2);
        const QStringList sockets = tcpSockets(ranks);
        qInfo("TCP sockets of the ranks: %s", qPrintable(sockets.join(QStringLiteral(", "))));
        QVERIFY(!sockets.isEmpty()); // Gloo's connections: the scan sees the ranks' sockets
        for (const QString &entry : sockets)
            if (entry.endsWith(QStringLiteral(" 0A")))
                QVERIFY2(isLoopback(entry), qPrintable(entry + QStringLiteral(" listens on a non-loopback address")));
        ::kill(static_cast<pid_t>(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 85);
        QCOMPARE(QDir(tmp).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
    }

    void missingRankIsNamed() {
        const QString config = writeConfig(QStringLiteral("missing.json"), QStringLiteral("spirals"), 10, 0);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("RANK"), QStringLiteral("0"));
        env.insert(QStringLiteral("WORLD_SIZE"), QStringLiteral("3"));
        env.insert(QStringLiteral("MASTER_ADDR"), QStringLiteral("127.0.0.1"));
        env.insert(QStringLiteral("MASTER_PORT"), QString::number(freePort()));
        env.insert(QStringLiteral("DIAMOND_DIST_TIMEOUT_S"), QStringLiteral("3"));
        const Finished f =
            run(args(QStringLiteral("spirals"), config, dir_.filePath(QStringLiteral("missing"))), env, 60000);
        QCOMPARE(f.exitCode, 1);
        const QString message = lastOf(f.events, QStringLiteral("error")).value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(QStringLiteral("Rank(s) 1, 2 of 3 did not arrive")), qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestDistributed)
#include "tst_it_distributed.moc"
