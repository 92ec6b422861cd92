// Real diamond-train processes on hostile or awkward inputs: a crafted NPZ that used to crash the engine, the
// data.max_bytes key, stop signals while a large dataset loads (SIGTERM to a run, SIGUSR2 to a pack), an
// unreadable checkpoint next to readable ones under keep_last 1, and a network spec far larger than the weights
// given to predict or --init-weights (refused before anything that size is allocated).
#include "common/data_file_builders.h"
#include "common/engine_process.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fstream>

using namespace diamond::test;
namespace files = diamond::test::files;

namespace {

struct WatchedRun {
    EngineRun run;
    qint64 peakRssBytes = 0; ///< largest VmRSS seen while polling every few milliseconds
};

qint64 residentBytes(qint64 pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
    return 0;
}

/// runEngine() that also samples the process's resident memory while it runs.
WatchedRun runWatched(const QStringList &args, int timeoutMs = 120000) {
    QProcess p;
    p.start(binary(QStringLiteral("diamond-train")), args);
    WatchedRun w;
    if (!p.waitForStarted()) return w;
    const qint64 pid = p.processId();
    QElapsedTimer timer;
    timer.start();
    while (!p.waitForFinished(5)) {
        w.peakRssBytes = std::max(w.peakRssBytes, residentBytes(pid));
        if (timer.elapsed() > timeoutMs) {
            p.kill();
            p.waitForFinished();
            return w;
        }
    }
    w.run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    w.run.events = parseEventLines(p.readAllStandardOutput());
    w.run.stderrText = QString::fromUtf8(p.readAllStandardError());
    return w;
}

QString errorText(const EngineRun &r) {
    const QJsonObject e = r.last(QStringLiteral("error"));
    return e.value(QStringLiteral("message")).toString() + QStringLiteral(" | ") +
           e.value(QStringLiteral("hint")).toString();
}

} // namespace

class TestDiamondTrainHostile : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString bigCsv_, exportDir_;

    QString path(const QString &name) const { return dir_.filePath(name); }

    QString writeBytes(const QString &name, const std::string &bytes) {
        std::ofstream out(path(name).toStdString(), std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        return path(name);
    }

    /// The spirals run config with `data` and a few changes.
    QString config(const QString &name, const QJsonObject &data, int steps = 50) {
        QJsonObject c = readJson(example("spirals", "run.json"));
        c[QStringLiteral("data")] = data;
        c[QStringLiteral("steps")] = steps;
        return writeJson(path(name), c);
    }

    /// A CSV of about `megabytes` MB with two features and a class label, for loads that take seconds.
    QString writeBigCsv(int megabytes) {
        const QString file = path(QStringLiteral("big.csv"));
        std::ofstream out(file.toStdString(), std::ios::binary | std::ios::trunc);
        out << "a,b,label\n";
        std::string block;
        for (int i = 0; i < 4096; ++i)
            block += std::to_string(i % 97) + ".25," + std::to_string(i % 89) + ".5," + std::to_string(i % 3) + "\n";
        const std::size_t want = std::size_t(megabytes) << 20;
        for (std::size_t written = 0; written < want; written += block.size())
            out << block;
        return file;
    }

    /// A spirals-shaped spec whose hidden layers have `width` units (width^2 parameters in the middle).
    QString wideSpec(const QString &name, int width) {
        QJsonObject spec = readJson(example("spirals", "spec.json"));
        QJsonArray nodes = spec.value(QStringLiteral("nodes")).toArray();
        for (int i = 0; i < nodes.size(); ++i) {
            QJsonObject n = nodes[i].toObject();
            if (n.value(QStringLiteral("id")).toString() != QLatin1String("fc3") &&
                n.value(QStringLiteral("type")).toString() == QLatin1String("Linear"))
                n[QStringLiteral("params")] = QJsonObject{{QStringLiteral("out_features"), width}};
            nodes[i] = n;
        }
        spec[QStringLiteral("nodes")] = nodes;
        return writeJson(path(name), spec);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        bigCsv_ = writeBigCsv(200);
        const QString base = path(QStringLiteral("base"));
        QJsonObject c = readJson(example("spirals", "run.json"));
        c[QStringLiteral("steps")] = 20;
        const QString cfg = writeJson(path(QStringLiteral("base.json")), c);
        QCOMPARE(runEngine(trainArgs(example("spirals", "spec.json"), cfg, base)).exitCode, 0);
        exportDir_ = path(QStringLiteral("export"));
        QCOMPARE(runEngine({QStringLiteral("export"), QStringLiteral("--spec"), example("spirals", "spec.json"),
                            QStringLiteral("--run-dir"), base, QStringLiteral("--out"), exportDir_})
                     .exitCode,
                 0);
    }

    // ---- 1. a crafted NPZ is an error, not a crash -----------------------------------------------------------

    void craftedNpzIsAnErrorNotACrash() {
        const std::string member = files::npy("<f4", {std::int64_t(1) << 26}, std::string(64, '\0'));
        files::ZipMember x{"x.npy", member};
        x.declaredSize = member.size() - 64 + (std::uint64_t(1) << 28);
        const std::string y = files::npy("<i8", {2}, files::rawBytes(std::vector<std::int64_t>{0, 1}));
        const QString npz = writeBytes(QStringLiteral("crafted.npz"), files::zip({x, {"y.npy", y}}));
        const QString cfg = config(QStringLiteral("npz.json"),
                                   {{QStringLiteral("source"), QStringLiteral("npz")}, {QStringLiteral("path"), npz}});
        const EngineRun r = runEngine({QStringLiteral("--spec"), example("spirals", "spec.json"),
                                       QStringLiteral("--config"), cfg, QStringLiteral("--dry-run")});
        QVERIFY2(r.exitCode == 1, qPrintable(QStringLiteral("exit code %1").arg(r.exitCode)));
        const QString text = errorText(r);
        for (const QString &part : {QStringLiteral("crafted.npz"), QStringLiteral("'x'"),
                                    QString::number(x.declaredSize), QString::number(x.data.size())})
            QVERIFY2(text.contains(part), qPrintable(part + QStringLiteral(" not in: ") + text));
    }

    void pngChunkLongerThanItsFileIsRefusedBeforeDecoding() {
        // stb_image allocates an IDAT chunk's declared length before reading it: 1 GiB for this 70-byte file.
        std::string bad = files::solidPng(4, 4, 0, '\x40');
        const std::size_t idat = 8 + 12 + 13; // signature, IHDR chunk
        QCOMPARE(bad.substr(idat + 4, 4), std::string("IDAT"));
        std::string length;
        files::putBe32(length, 0x3FFFFFF0u);
        bad.replace(idat, 4, length);
        QVERIFY(QDir().mkpath(path(QStringLiteral("pngs/a"))) && QDir().mkpath(path(QStringLiteral("pngs/b"))));
        writeBytes(QStringLiteral("pngs/a/bad.png"), bad);
        writeBytes(QStringLiteral("pngs/b/good.png"), files::solidPng(4, 4, 0, '\x10'));
        const QString cfg =
            config(QStringLiteral("pngs.json"), {{QStringLiteral("source"), QStringLiteral("image_folder")},
                                                 {QStringLiteral("path"), path(QStringLiteral("pngs"))}});
        const EngineRun r = runEngine({QStringLiteral("--spec"), example("spirals", "spec.json"),
                                       QStringLiteral("--config"), cfg, QStringLiteral("--dry-run")});
        QVERIFY2(r.exitCode == 1, qPrintable(QStringLiteral("exit code %1").arg(r.exitCode)));
        const QString text = errorText(r);
        for (const QString &part : {QStringLiteral("bad.png"), QStringLiteral("PNG chunk declares more bytes")})
            QVERIFY2(text.contains(part), qPrintable(part + QStringLiteral(" not in: ") + text));
    }

    // ---- packed image folders (datasets staged to a cluster) ---------------------------------------------------

    /// Writes `folder` with 4 class folders of 6 solid 28x28 gray PNGs each; with `packed`, the images of classes
    /// c1..c3 go into one pack in `folder`/../packs instead (between bytes that are not images), listed in
    /// `folder`/.diamond-packed with the pack's folder written as `packDir`; with `indexInParent`, the index lies in
    /// the parent folder and names the images through `folder`'s name. Returns the pack's path.
    QString writeImageClasses(const QString &folder, bool packed, const QString &packDir = QStringLiteral("../packs"),
                              bool indexInParent = false) {
        const QString indexDir = indexInParent ? QFileInfo(folder).path() : folder;
        const std::string prefix = indexInParent ? QFileInfo(folder).fileName().toStdString() + "/" : std::string();
        std::string pack = "not an image";
        std::string index = "diamond-packed 1 " + packDir.toStdString() + "\n";
        const std::string sha(64, 'a');
        for (int k = 0; k < 4; ++k)
            for (int j = 0; j < 6; ++j) {
                const std::string png = files::solidPng(28, 28, 0, static_cast<char>(k * 50 + j * 7));
                const QString rel = QStringLiteral("c%1/image %2.png").arg(k).arg(j);
                if (packed && k > 0) {
                    index += sha + " " + std::to_string(pack.size()) + " " + std::to_string(png.size()) + " " + prefix +
                             rel.toStdString() + "\n";
                    pack += png + "gap";
                } else {
                    QDir().mkpath(folder + QStringLiteral("/c%1").arg(k));
                    writeBytes(QDir(dir_.path()).relativeFilePath(folder + QLatin1Char('/') + rel), png);
                }
            }
        if (!packed) return {};
        QDir().mkpath(folder);
        writeBytes(QDir(dir_.path()).relativeFilePath(indexDir + QStringLiteral("/.diamond-packed")), index);
        const QString packPath = QDir::cleanPath(indexDir + QLatin1Char('/') + packDir + QLatin1Char('/') +
                                                 QString::fromStdString(sha) + QStringLiteral(".pack"));
        QDir().mkpath(QFileInfo(packPath).path());
        writeBytes(QDir(dir_.path()).relativeFilePath(packPath), pack);
        return packPath;
    }

    EngineRun trainOnImages(const QString &name, const QString &folder, int steps = 6) {
        QJsonObject c = readJson(example("shapes_cnn", "run.json"));
        c[QStringLiteral("data")] = QJsonObject{{QStringLiteral("source"), QStringLiteral("image_folder")},
                                                {QStringLiteral("path"), folder},
                                                {QStringLiteral("grayscale"), true},
                                                {QStringLiteral("validation_split"), 0.25}};
        c[QStringLiteral("steps")] = steps;
        c[QStringLiteral("batch_size")] = 6;
        c.remove(QStringLiteral("epochs"));
        return runEngine(trainArgs(example("shapes_cnn", "spec.json"),
                                   writeJson(path(name + QStringLiteral(".json")), c),
                                   path(name + QStringLiteral("-run"))));
    }

    void packedImagesTrainLikeTheirFiles() {
        writeImageClasses(path(QStringLiteral("plain")), false);
        writeImageClasses(path(QStringLiteral("mixed/version")), true);
        const EngineRun plain = trainOnImages(QStringLiteral("plain"), path(QStringLiteral("plain")));
        const EngineRun mixed = trainOnImages(QStringLiteral("mixed"), path(QStringLiteral("mixed/version")));
        QVERIFY2(plain.exitCode == 0, qPrintable(errorText(plain)));
        QVERIFY2(mixed.exitCode == 0, qPrintable(errorText(mixed)));
        const QJsonObject started = mixed.last(QStringLiteral("started"));
        QCOMPARE(started.value(QStringLiteral("train_samples")).toInt() +
                     started.value(QStringLiteral("validation_samples")).toInt(),
                 24);
        QVERIFY2(started.value(QStringLiteral("data")).toString().contains(QStringLiteral("4 classes")),
                 qPrintable(started.value(QStringLiteral("data")).toString()));
        // The same pixels in the same order: the same weights after the same steps.
        const QString weights =
            plain.last(QStringLiteral("finished")).value(QStringLiteral("weights_sha256")).toString();
        QCOMPARE(weights.size(), 64);
        QCOMPARE(mixed.last(QStringLiteral("finished")).value(QStringLiteral("weights_sha256")).toString(), weights);
        // data.path a sub-folder of the packed version (a dataset's "train" folder): the index of its parent serves.
        writeImageClasses(path(QStringLiteral("nested/version/train")), true, QStringLiteral("../../packs"), true);
        const EngineRun nested = trainOnImages(QStringLiteral("nested"), path(QStringLiteral("nested/version/train")));
        QVERIFY2(nested.exitCode == 0, qPrintable(errorText(nested)));
        QCOMPARE(nested.last(QStringLiteral("finished")).value(QStringLiteral("weights_sha256")).toString(), weights);
    }

    void aBrokenPackIsAnErrorNamingTheIndexLine() {
        const QString folder = path(QStringLiteral("broken/version"));
        const QString pack = writeImageClasses(folder, true);
        const QString index = folder + QStringLiteral("/.diamond-packed");
        QFile f(index);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray good = f.readAll();
        f.close();
        const auto rewrite = [&](const QByteArray &text) {
            writeBytes(QDir(dir_.path()).relativeFilePath(index), text.toStdString());
        };
        const QList<QByteArray> lines = good.split('\n');
        // a path leaving the folder (line 3)
        QByteArray escaping = good;
        escaping.replace(lines[2], QByteArray(lines[2].left(lines[2].lastIndexOf(' ') + 1) + "c1/../../secret.png"));
        rewrite(escaping);
        EngineRun r = trainOnImages(QStringLiteral("escaping"), folder, 1);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(errorText(r).contains(QStringLiteral(".diamond-packed")) &&
                     errorText(r).contains(QStringLiteral("line 3")) && errorText(r).contains(QStringLiteral("..")),
                 qPrintable(errorText(r)));
        // a truncated pack: the last image lies past its end
        rewrite(good);
        QVERIFY(QFile::resize(pack, QFileInfo(pack).size() - 40));
        r = trainOnImages(QStringLiteral("truncated"), folder, 1);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(errorText(r).contains(QStringLiteral("c3/image 5.png")) &&
                     errorText(r).contains(QStringLiteral("truncated pack")),
                 qPrintable(errorText(r)));
        // no header
        rewrite(good.mid(good.indexOf('\n') + 1));
        r = trainOnImages(QStringLiteral("headless"), folder, 1);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(errorText(r).contains(QStringLiteral("line 1")), qPrintable(errorText(r)));
    }

    // ---- 2. data.max_bytes ---------------------------------------------------------------------------------

    void maxBytesIsACheckedCommonKey() {
        const QJsonObject spirals{{QStringLiteral("source"), QStringLiteral("spirals")},
                                  {QStringLiteral("samples"), 300}};
        QJsonObject tooSmall = spirals;
        tooSmall[QStringLiteral("max_bytes")] = 1000;
        const EngineRun refused =
            runEngine({QStringLiteral("--spec"), example("spirals", "spec.json"), QStringLiteral("--config"),
                       config(QStringLiteral("small.json"), tooSmall), QStringLiteral("--dry-run")});
        QCOMPARE(refused.exitCode, 1);
        QCOMPARE(refused.last(QStringLiteral("error")).value(QStringLiteral("field")).toString(),
                 QStringLiteral("data.max_bytes"));
        QVERIFY2(errorText(refused).contains(QStringLiteral("1048576")), qPrintable(errorText(refused)));

        QJsonObject fine = spirals;
        fine[QStringLiteral("max_bytes")] = 1 << 30;
        const EngineRun ok =
            runEngine({QStringLiteral("--spec"), example("spirals", "spec.json"), QStringLiteral("--config"),
                       config(QStringLiteral("fine.json"), fine), QStringLiteral("--dry-run")});
        QVERIFY2(ok.exitCode == 0, qPrintable(errorText(ok)));

        QJsonObject csv{{QStringLiteral("source"), QStringLiteral("csv")},
                        {QStringLiteral("path"), bigCsv_},
                        {QStringLiteral("target"), QStringLiteral("label")},
                        {QStringLiteral("max_bytes"), 16 << 20}};
        const EngineRun capped =
            runEngine({QStringLiteral("--spec"), example("spirals", "spec.json"), QStringLiteral("--config"),
                       config(QStringLiteral("capped.json"), csv), QStringLiteral("--dry-run")});
        QCOMPARE(capped.exitCode, 1);
        QCOMPARE(capped.last(QStringLiteral("error")).value(QStringLiteral("field")).toString(),
                 QStringLiteral("data.path"));
        QVERIFY2(errorText(capped).contains(QStringLiteral("big.csv")) &&
                     errorText(capped).contains(QStringLiteral("16777216")),
                 qPrintable(errorText(capped)));
    }

    // ---- 5. stop signals while the data loads --------------------------------------------------------------

    void sigtermWhileLoadingEndsWithinASecond() {
        const QString cfg = config(QStringLiteral("csv.json"), {{QStringLiteral("source"), QStringLiteral("csv")},
                                                                {QStringLiteral("path"), bigCsv_},
                                                                {QStringLiteral("target"), QStringLiteral("label")}});
        const QString runDir = path(QStringLiteral("loading"));
        QProcess p;
        p.start(binary(QStringLiteral("diamond-train")), trainArgs(example("spirals", "spec.json"), cfg, runDir));
        QVERIFY(p.waitForStarted());
        // The events file is opened right after the stop handlers are installed, before the data loads; loading
        // libtorch alone took 1.0-1.6 s on the 2-core VM, so a fixed wait raced with it.
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(runDir + QStringLiteral("/events.jsonl")), 30000);
        QTest::qWait(300); // the 200 MB CSV is being read
        QCOMPARE(p.state(), QProcess::Running);
        QElapsedTimer timer;
        timer.start();
        ::kill(static_cast<pid_t>(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(60000));
        const qint64 ms = timer.elapsed();
        qInfo("ended %lld ms after SIGTERM", static_cast<long long>(ms));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 85);
        const auto events = parseEventLines(p.readAllStandardOutput());
        QVERIFY(!events.isEmpty());
        QCOMPARE(events.last().value(QStringLiteral("event")).toString(), QStringLiteral("requeue"));
        QCOMPARE(events.last().value(QStringLiteral("signal")).toInt(), SIGTERM);
        QCOMPARE(events.last().value(QStringLiteral("step")).toInt(), 0);
        QVERIFY2(ms < 1200, qPrintable(QStringLiteral("took %1 ms").arg(ms)));
    }

    void sigusr2ToAPackWhileATrialLoadsStopsOnlyThatTrial() {
        const QString slow =
            config(QStringLiteral("pack-csv.json"), {{QStringLiteral("source"), QStringLiteral("csv")},
                                                     {QStringLiteral("path"), bigCsv_},
                                                     {QStringLiteral("target"), QStringLiteral("label")}});
        const QString quick =
            config(QStringLiteral("pack-quick.json"),
                   {{QStringLiteral("source"), QStringLiteral("spirals")}, {QStringLiteral("samples"), 300}}, 20);
        QJsonArray trials;
        trials.append(QJsonObject{{QStringLiteral("spec"), example("spirals", "spec.json")},
                                  {QStringLiteral("config"), slow},
                                  {QStringLiteral("run_dir"), path(QStringLiteral("pack0"))}});
        trials.append(QJsonObject{{QStringLiteral("spec"), example("spirals", "spec.json")},
                                  {QStringLiteral("config"), quick},
                                  {QStringLiteral("run_dir"), path(QStringLiteral("pack1"))}});
        const QString pack =
            writeJson(path(QStringLiteral("pack.json")), {{QStringLiteral("format"), QStringLiteral("diamond.pack/1")},
                                                          {QStringLiteral("trials"), trials}});
        QProcess p;
        p.start(binary(QStringLiteral("diamond-train")), {QStringLiteral("pack"), QStringLiteral("--trials"), pack,
                                                          QStringLiteral("--threads"), QStringLiteral("1")});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        while (!out.contains("trial_start") && p.state() != QProcess::NotRunning) {
            p.waitForReadyRead(1000);
            out += p.readAllStandardOutput();
        }
        QTest::qWait(1000);
        QElapsedTimer timer;
        timer.start();
        ::kill(static_cast<pid_t>(p.processId()), SIGUSR2);
        qint64 stoppedMs = -1;
        while (p.state() != QProcess::NotRunning && timer.elapsed() < 120000) {
            p.waitForReadyRead(20);
            out += p.readAllStandardOutput();
            if (stoppedMs < 0 && out.contains("\"trial_exit\"")) stoppedMs = timer.elapsed();
        }
        p.waitForFinished(120000);
        out += p.readAllStandardOutput();
        qInfo("trial 0 ended %lld ms after SIGUSR2", static_cast<long long>(stoppedMs));
        QCOMPARE(p.exitCode(), 0);
        QList<QJsonObject> exits;
        for (const QJsonObject &e : parseEventLines(out))
            if (e.value(QStringLiteral("event")).toString() == QLatin1String("trial_exit")) exits << e;
        QCOMPARE(exits.size(), 2);
        QCOMPARE(exits[0].value(QStringLiteral("exit_code")).toInt(), 85);
        QCOMPARE(exits[1].value(QStringLiteral("exit_code")).toInt(), 0);
        QVERIFY2(stoppedMs >= 0 && stoppedMs < 1200, qPrintable(QStringLiteral("took %1 ms").arg(stoppedMs)));
    }

    // ---- 4. checkpoint pruning keeps readable checkpoints ---------------------------------------------------

    void unreadableCheckpointDoesNotEvictReadableOnes() {
        QJsonObject c = readJson(example("spirals", "run.json"));
        c[QStringLiteral("steps")] = 60;
        c[QStringLiteral("checkpoint")] =
            QJsonObject{{QStringLiteral("every_steps"), 20}, {QStringLiteral("keep_last"), 1}};
        const QString cfg = writeJson(path(QStringLiteral("keep1.json")), c);
        const QString runDir = path(QStringLiteral("keep1"));
        QCOMPARE(runEngine(trainArgs(example("spirals", "spec.json"), cfg, runDir)).exitCode, 0);
        const QDir checkpoints(QDir(runDir).filePath(QStringLiteral("checkpoints")));
        QCOMPARE(checkpoints.entryList({QStringLiteral("step-*.pt")}, QDir::Files),
                 QStringList{QStringLiteral("step-0000000060.pt")});

        // A junk file with a higher step number than anything the run will write.
        const QString junk = checkpoints.filePath(QStringLiteral("step-9999999999.pt"));
        QFile bogus(junk);
        QVERIFY(bogus.open(QIODevice::WriteOnly));
        bogus.write("PK\x03\x04 not a checkpoint");
        bogus.close();

        c[QStringLiteral("steps")] = 120;
        writeJson(cfg, c);
        const EngineRun resumed =
            runEngine(trainArgs(example("spirals", "spec.json"), cfg, runDir) << QStringLiteral("--resume"));
        QVERIFY2(resumed.exitCode == 0, qPrintable(errorText(resumed)));
        QCOMPARE(resumed.last(QStringLiteral("started")).value(QStringLiteral("start_step")).toInt(), 60);
        // The newest readable checkpoint survives; the junk is no longer among the checkpoints.
        QCOMPARE(checkpoints.entryList({QStringLiteral("step-*.pt")}, QDir::Files),
                 QStringList{QStringLiteral("step-0000000120.pt")});
        QVERIFY(QFile::exists(checkpoints.filePath(QStringLiteral("unreadable/step-9999999999.pt"))));
        bool warned = false;
        for (const QJsonObject &w : resumed.ofKind(QStringLiteral("warning")))
            warned = warned || w.value(QStringLiteral("message")).toString().contains(QStringLiteral("unreadable"));
        QVERIFY(warned);

        // The run can still be exported and resumed.
        const EngineRun exported = runEngine({QStringLiteral("export"), QStringLiteral("--spec"),
                                              example("spirals", "spec.json"), QStringLiteral("--run-dir"), runDir,
                                              QStringLiteral("--out"), path(QStringLiteral("keep1-export"))});
        QVERIFY2(exported.exitCode == 0, qPrintable(errorText(exported)));
        c[QStringLiteral("steps")] = 140;
        writeJson(cfg, c);
        const EngineRun again =
            runEngine(trainArgs(example("spirals", "spec.json"), cfg, runDir) << QStringLiteral("--resume"));
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.last(QStringLiteral("started")).value(QStringLiteral("start_step")).toInt(), 120);
    }

    // ---- 7. weights against the spec ------------------------------------------------------------------------

    void predictRefusesASpecFarLargerThanItsWeights_data() {
        QTest::addColumn<int>("width");
        QTest::newRow("1.6 GB of parameters") << 20000;
        QTest::newRow("4 TB of parameters") << (1 << 20);
    }

    void predictRefusesASpecFarLargerThanItsWeights() {
        QFETCH(int, width);
        const QString spec = wideSpec(QStringLiteral("wide-%1.json").arg(width), width);
        const QString weights = QDir(exportDir_).filePath(QStringLiteral("model.safetensors"));
        const WatchedRun w = runWatched({QStringLiteral("predict"), QStringLiteral("--spec"), spec,
                                         QStringLiteral("--weights"), weights, QStringLiteral("--inputs"),
                                         QDir(exportDir_).filePath(QStringLiteral("test_inputs.safetensors")),
                                         QStringLiteral("--output"), path(QStringLiteral("wide-out.safetensors"))});
        qInfo("peak resident memory %lld MiB", static_cast<long long>(w.peakRssBytes >> 20));
        QCOMPARE(w.run.exitCode, 1);
        const QString text = errorText(w.run);
        QVERIFY2(text.contains(QStringLiteral("model.safetensors")) && text.contains(QStringLiteral("parameters")) &&
                     !text.contains(QStringLiteral("libtorch")),
                 qPrintable(text));
        QVERIFY2(w.peakRssBytes < (600 << 20), qPrintable(QString::number(w.peakRssBytes)));
    }

    void initWeightsRefusesASpecFarLargerThanTheWeights() {
        const QString spec = wideSpec(QStringLiteral("wide-train.json"), 20000);
        QStringList args = trainArgs(
            spec, config(QStringLiteral("wide-run.json"), {{QStringLiteral("source"), QStringLiteral("spirals")}}),
            path(QStringLiteral("wide-run")));
        args << QStringLiteral("--init-weights") << QDir(exportDir_).filePath(QStringLiteral("model.safetensors"));
        const WatchedRun w = runWatched(args);
        qInfo("peak resident memory %lld MiB", static_cast<long long>(w.peakRssBytes >> 20));
        QCOMPARE(w.run.exitCode, 1);
        QCOMPARE(w.run.last(QStringLiteral("error")).value(QStringLiteral("field")).toString(),
                 QStringLiteral("--weights"));
        QVERIFY2(errorText(w.run).contains(QStringLiteral("parameters")), qPrintable(errorText(w.run)));
        QVERIFY2(w.peakRssBytes < (600 << 20), qPrintable(QString::number(w.peakRssBytes)));
    }
};

QTEST_GUILESS_MAIN(TestDiamondTrainHostile)
#include "tst_diamond_train_hostile.moc"
