// Replays every file of the fuzz corpus (tests/fuzz/corpus) through the fuzz iteration, so past
// crashes stay fixed in the normal gcc build too.
#include "common/test_paths.h"
#include "fuzz/fuzz_spec_input.h"

#include <QDir>
#include <QtTest>

class TestFuzzCorpus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void replayCorpus() {
        const QDir dir(diamond::test::sourcePath(QStringLiteral("tests/fuzz/corpus")));
        const QStringList files = dir.entryList(QDir::Files);
        QVERIFY(files.size() >= 10);
        for (const QString &name : files) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            diamond::spec::fuzz::runOne(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        }
        qInfo("replayed %d corpus files", static_cast<int>(files.size()));
    }
};

QTEST_APPLESS_MAIN(TestFuzzCorpus)
#include "tst_fuzz_corpus.moc"
