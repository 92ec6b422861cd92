// Replays the engine fuzz corpora (tests/fuzz/corpus/<target>/, one folder per input format of
// engine/train/fuzz/fuzz_inputs.h) through the same iteration the libFuzzer targets run, so past crashes stay
// fixed in the normal gcc build without clang; and checks that every target's seeds are still accepted under the
// fuzzing memory cap.
#include "common/test_paths.h"
#include "fuzz/fuzz_inputs.h"

#include <QDir>
#include <QElapsedTimer>
#include <QtTest>

namespace fuzz = diamond::engine::fuzz;

class TestFuzzEngineCorpus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { fuzz::initialize(); }

    void seedsAreAccepted_data() {
        QTest::addColumn<int>("target");
        for (const fuzz::Target t : fuzz::allTargets())
            QTest::newRow(fuzz::targetName(t)) << static_cast<int>(t);
    }

    void seedsAreAccepted() {
        QFETCH(int, target);
        const auto t = static_cast<fuzz::Target>(target);
        const auto seeds = fuzz::seedInputs(t);
        QVERIFY(!seeds.empty());
        for (const auto &[name, bytes] : seeds)
            QVERIFY2(fuzz::runOne(t, bytes), name.c_str());
    }

    void replayCorpus_data() { seedsAreAccepted_data(); }

    void replayCorpus() {
        QFETCH(int, target);
        const auto t = static_cast<fuzz::Target>(target);
        const QDir dir(diamond::test::sourcePath(QStringLiteral("tests/fuzz/corpus/")) +
                       QLatin1String(fuzz::targetName(t)));
        const QStringList files = dir.entryList(QDir::Files, QDir::Name);
        QVERIFY2(!files.isEmpty(), qPrintable(dir.path()));
        QElapsedTimer timer;
        timer.start();
        int accepted = 0;
        for (const QString &name : files) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            accepted += fuzz::runOne(t, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        }
        qInfo("%s: replayed %d files (%d accepted) in %lld ms", fuzz::targetName(t), static_cast<int>(files.size()),
              accepted, static_cast<long long>(timer.elapsed()));
    }
};

QTEST_APPLESS_MAIN(TestFuzzEngineCorpus)
#include "tst_fuzz_engine_corpus.moc"
