// `diamond-train calibrate` as a process: the device profile it prints (every probe, positive rates, within the
// 30 s budget, nothing left behind in --dir), all-reduce timings with two ranks, and clear errors for bad options.
#include "common/test_paths.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

class TestDiamondTrainCalibrate : public QObject {
    Q_OBJECT

    struct Result {
        int exitCode = -1;
        QByteArray out, err;
        double seconds = 0;
    };

    static Result run(const QStringList &args) {
        QProcess p;
        QElapsedTimer t;
        t.start();
        p.start(diamond::test::binary(QStringLiteral("diamond-train")),
                QStringList{QStringLiteral("calibrate")} + args);
        Result r;
        if (!p.waitForFinished(120000)) return r;
        r.seconds = double(t.elapsed()) / 1000.0;
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

private Q_SLOTS:
    void theProfileHasEveryProbe() {
        QTemporaryDir dir;
        // 2 threads: the references trained at 1 thread for larger_batch must not leave the probes at 1.
        const Result r = run({QStringLiteral("--dir"), dir.path(), QStringLiteral("--threads"), QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject p = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(p.value(QStringLiteral("format")).toString(), QStringLiteral("diamond.device-profile/1"));
        QCOMPARE(p.value(QStringLiteral("threads")).toInt(), 2);
        QCOMPARE(p.value(QStringLiteral("probe_threads")).toInt(), 2);
        QCOMPARE(p.value(QStringLiteral("device")).toString(), QStringLiteral("cpu"));
        QCOMPARE(p.value(QStringLiteral("linear")).toArray().size(), 4);
        // Four convolutions, each with its own input channels (the model's rate by channels).
        QCOMPARE(p.value(QStringLiteral("conv2d")).toArray().size(), 4);
        QSet<int> channels;
        for (const QJsonValue &v : p.value(QStringLiteral("conv2d")).toArray())
            channels.insert(v[QStringLiteral("in_channels")].toInt());
        QCOMPARE(channels, (QSet<int>{1, 8, 32, 64}));
        for (const char *probes : {"linear", "conv2d"})
            for (const QJsonValue &v : p.value(QLatin1String(probes)).toArray()) {
                QVERIFY2(v[QStringLiteral("seconds")].toDouble() > 0, probes);
                QVERIFY2(v[QStringLiteral("gflops")].toDouble() > 0.1, probes);
            }
        const QJsonObject e = p.value(QStringLiteral("elementwise")).toObject();
        QVERIFY(e.value(QStringLiteral("gb_s")).toDouble() > 0);
        QVERIFY(e.value(QStringLiteral("layer_overhead_s")).toDouble() > 0);
        // The dearer elementwise kinds, each at three sizes (which is dearer is a timing: bench_perf_model's business).
        const QJsonObject kinds = p.value(QStringLiteral("elementwise_kinds")).toObject();
        QCOMPARE(kinds.keys(), (QStringList{QStringLiteral("normalization"), QStringLiteral("pooling"),
                                            QStringLiteral("transcendental")}));
        for (const QString &kind : kinds.keys()) {
            const QJsonArray points = kinds.value(kind)[QStringLiteral("points")].toArray();
            QCOMPARE(points.size(), 3);
            for (const QJsonValue &v : points)
                QVERIFY2(v[QStringLiteral("seconds")].toDouble() > 0 && v[QStringLiteral("elements")].toInt() > 0,
                         qPrintable(kind));
        }
        const QJsonObject opt = p.value(QStringLiteral("optimizer")).toObject();
        QVERIFY(opt.value(QStringLiteral("adam_ns_per_param")).toDouble() > 0);
        QVERIFY(opt.value(QStringLiteral("sgd_momentum_ns_per_param")).toDouble() > 0);
        QVERIFY(p.value(QStringLiteral("memory_gb_s")).toDouble() > 0);
        QVERIFY(p.value(QStringLiteral("checkpoint_write_mb_s")).toDouble() > 0);
        QVERIFY(p.value(QStringLiteral("allreduce")).toArray().isEmpty()); // one rank
        QVERIFY(p.value(QStringLiteral("send")).toArray().isEmpty());
        const QJsonObject reference = p.value(QStringLiteral("reference_step")).toObject();
        QVERIFY(reference.value(QStringLiteral("step_s")).toDouble() > 0);
        QCOMPARE(reference.value(QStringLiteral("ranks")).toInt(), 1);
        QVERIFY(reference.value(QStringLiteral("spec")).isObject());
        // The same network at batch 128 and 32, at 1 thread: the per-step cost's growth with the samples.
        const QJsonObject larger = reference.value(QStringLiteral("larger_batch")).toObject();
        QCOMPARE(larger.value(QStringLiteral("batch")).toInt(), 128);
        QCOMPARE(larger.value(QStringLiteral("threads")).toInt(), 1);
        QVERIFY(larger.value(QStringLiteral("step_s")).toDouble() > 0);
        QVERIFY(larger.value(QStringLiteral("base_step_s")).toDouble() > 0);
        QVERIFY(!p.contains(QStringLiteral("reference_step_ranks")));
        // The CNN alone at the profile's threads, batch 64, the median of 3 trainings.
        const QJsonObject conv = p.value(QStringLiteral("reference_step_conv")).toObject();
        QCOMPARE(conv.value(QStringLiteral("ranks")).toInt(), 1);
        QCOMPARE(conv.value(QStringLiteral("batch")).toInt(), 64);
        QCOMPARE(conv.value(QStringLiteral("threads")).toInt(), 2);
        const QJsonArray convRuns = conv.value(QStringLiteral("runs_step_s")).toArray();
        QCOMPARE(convRuns.size(), 3);
        QList<double> sorted;
        for (const QJsonValue &v : convRuns)
            sorted << v.toDouble();
        std::sort(sorted.begin(), sorted.end());
        QVERIFY(sorted.first() > 0);
        QCOMPARE(conv.value(QStringLiteral("step_s")).toDouble(), sorted[1]);
        // The budget is 30 s on this computer; the probe-write file is gone.
        QVERIFY2(p.value(QStringLiteral("calibration_seconds")).toDouble() < 30, r.out.constData());
        QVERIFY(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty());
        qInfo("calibration: %.2f s (process %.2f s)", p.value(QStringLiteral("calibration_seconds")).toDouble(),
              r.seconds);
    }

    void twoRanksAddAllReduceTimings() {
        QTemporaryDir dir;
        const Result r = run({QStringLiteral("--dir"), dir.path(), QStringLiteral("--quick"), QStringLiteral("--nproc"),
                              QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject p = QJsonDocument::fromJson(r.out).object(); // rank 0 alone prints
        QCOMPARE(p.value(QStringLiteral("ranks")).toInt(), 2);
        const QJsonArray ar = p.value(QStringLiteral("allreduce")).toArray();
        QVERIFY(ar.size() >= 3);
        // Point-to-point sends between ranks 0 and 1 (what pipeline stages pay), one-way, by size.
        const QJsonArray sends = p.value(QStringLiteral("send")).toArray();
        QCOMPARE(sends.size(), 3); // --quick: 1 KiB, 128 KiB, 1 MiB
        for (qsizetype i = 0; i < sends.size(); ++i) {
            QVERIFY(sends[i][QStringLiteral("seconds")].toDouble() > 0);
            if (i > 0)
                QVERIFY(sends[i][QStringLiteral("bytes")].toInteger() >
                        sends[i - 1][QStringLiteral("bytes")].toInteger());
        }
        QCOMPARE(p.value(QStringLiteral("reference_step_ranks")).toObject().value(QStringLiteral("ranks")).toInt(), 2);
        QVERIFY(p.value(QStringLiteral("reference_step_ranks")).toObject().value(QStringLiteral("step_s")).toDouble() >
                0);
        QCOMPARE(p.value(QStringLiteral("reference_step_ranks"))
                     .toObject()
                     .value(QStringLiteral("runs_step_s"))
                     .toArray()
                     .size(),
                 5);
        QCOMPARE(p.value(QStringLiteral("reference_step_ranks_conv"))
                     .toObject()
                     .value(QStringLiteral("runs_step_s"))
                     .toArray()
                     .size(),
                 3);
        QCOMPARE(p.value(QStringLiteral("reference_step")).toObject().value(QStringLiteral("ranks")).toInt(), 1);
        QVERIFY(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty());
        qint64 previous = 0;
        for (const QJsonValue &v : ar) {
            QVERIFY(v[QStringLiteral("bytes")].toInteger() > previous);
            previous = v[QStringLiteral("bytes")].toInteger();
            QVERIFY(v[QStringLiteral("seconds")].toDouble() > 0);
        }
    }

    void badOptionsAreErrorEvents() {
        const struct {
            QStringList args;
            const char *field;
        } cases[] = {
            {{QStringLiteral("--dir"), QStringLiteral("/nonexistent/diamond")}, "--dir"},
            {{QStringLiteral("--device"), QStringLiteral("cuda")}, "--device"},
            {{QStringLiteral("--nproc"), QStringLiteral("0")}, "--nproc"},
            {{QStringLiteral("--threads"), QStringLiteral("many")}, "--threads"},
            {{QStringLiteral("--frobnicate")}, "--frobnicate"},
        };
        for (const auto &c : cases) {
            const Result r = run(c.args);
            QVERIFY2(r.exitCode == 2 || r.exitCode == 1, qPrintable(c.args.join(QLatin1Char(' '))));
            const QJsonObject event = QJsonDocument::fromJson(r.out.split('\n').first()).object();
            QCOMPARE(event.value(QStringLiteral("event")).toString(), QStringLiteral("error"));
            QCOMPARE(event.value(QStringLiteral("field")).toString(), QLatin1String(c.field));
        }
    }
};

QTEST_GUILESS_MAIN(TestDiamondTrainCalibrate)
#include "tst_diamond_train_calibrate.moc"
