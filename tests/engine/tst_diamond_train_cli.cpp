// diamond-train's command line as a process: --version, --help, and the error contract.
#include "common/test_paths.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

class TestDiamondTrainCli : public QObject {
    Q_OBJECT

    struct Result {
        int exitCode = -1;
        QString out, err;
    };

    static Result run(const QStringList &args) {
        QProcess p;
        p.start(diamond::test::binary(QStringLiteral("diamond-train")), args);
        Result r;
        if (!p.waitForFinished(60000)) return r;
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

private Q_SLOTS:
    void versionNamesEngineAndLibtorch() {
        const Result r = run({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("diamond-train 0.")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("libtorch 1.")), qPrintable(r.out));
    }

    void helpListsOptionsAndExitCodes() {
        const Result r = run({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        for (const char *option : {"--spec", "--config", "--run-dir", "--resume", "--dry-run", "--threads", "--device"})
            QVERIFY2(r.out.contains(QLatin1String(option)), option);
        QVERIFY(r.out.contains(QStringLiteral("85")));
    }

    void badInvocationIsAnErrorEvent() {
        const Result r = run({QStringLiteral("--no-such-option")});
        QVERIFY(r.exitCode != 0);
        const QString firstLine = r.out.section(QLatin1Char('\n'), 0, 0);
        const QJsonObject event = QJsonDocument::fromJson(firstLine.toUtf8()).object();
        QCOMPARE(event.value(QStringLiteral("event")).toString(), QStringLiteral("error"));
        QVERIFY(!event.value(QStringLiteral("message")).toString().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDiamondTrainCli)
#include "tst_diamond_train_cli.moc"
