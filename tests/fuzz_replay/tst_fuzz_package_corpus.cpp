// Replays the package importer's fuzz corpus (tests/fuzz/corpus/package/) through the iteration fuzz_package runs
// (tests/fuzz/fuzz_package_input.h), in the normal build; checks that fresh seed packages and the committed seeds
// are accepted and that a damaged seed is refused with a code.
#include "common/test_paths.h"
#include "fuzz/fuzz_package_input.h"

#include <QDir>
#include <QtTest>

namespace fuzz = diamond::app::gallery::fuzz;

class TestFuzzPackageCorpus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void seedsAreAccepted() {
        const auto seeds = fuzz::seedPackages();
        QCOMPARE(seeds.size(), std::size_t(2));
        for (const auto &[name, bytes] : seeds) {
            QVERIFY2(fuzz::runOne(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size()))),
                     qPrintable(name));
            QByteArray damaged = bytes;
            damaged[damaged.size() / 2] = static_cast<char>(damaged.at(damaged.size() / 2) ^ 0x5a);
            QVERIFY2(!fuzz::runOne(std::string_view(damaged.constData(), static_cast<std::size_t>(damaged.size()))),
                     qPrintable(name));
        }
    }

    void replayCorpus() {
        const QDir dir(diamond::test::sourcePath(QStringLiteral("tests/fuzz/corpus/package")));
        const QStringList files = dir.entryList(QDir::Files, QDir::Name);
        QVERIFY2(!files.isEmpty(), qPrintable(dir.path()));
        int accepted = 0, seeds = 0;
        for (const QString &name : files) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            const bool ok = fuzz::runOne(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
            accepted += ok;
            if (name.startsWith(QLatin1String("seed-"))) {
                QVERIFY2(ok, qPrintable(name));
                ++seeds;
            }
        }
        QCOMPARE(seeds, 2);
        qInfo("package: replayed %d files (%d accepted)", static_cast<int>(files.size()), accepted);
    }
};

QTEST_APPLESS_MAIN(TestFuzzPackageCorpus)
#include "tst_fuzz_package_corpus.moc"
