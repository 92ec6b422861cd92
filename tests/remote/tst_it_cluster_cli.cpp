// `diamondctl cluster add|list|show|test|probe|remove` against the project's local Slurm cluster over SSH
// (tests/fixtures/local-cluster): the real binary, a real workspace, the fixture's key and known_hosts.
#include "common/local_cluster.h"
#include "common/test_paths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;

class TestItClusterCli : public QObject {
    Q_OBJECT

    test::LocalCluster cluster_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;

    struct Result {
        int code = -1;
        QByteArray out, err;
        QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
    };

    Result ctl(const QStringList &args) {
        QProcess p;
        p.start(test::binary(QStringLiteral("diamondctl")),
                QStringList{QStringLiteral("--workspace"), dir_.filePath(QStringLiteral("ws"))} + args);
        Result r;
        if (!p.waitForFinished(120000)) return r;
        r.code = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--no-examples")}).code, 0);
    }

    void addTestProbeRemove() {
        const QString engine = qEnvironmentVariable("DIAMOND_TRAIN", test::binary(QStringLiteral("diamond-train")));
        Result r =
            ctl({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("lc"), QStringLiteral("--host"),
                 cluster_.host(), QStringLiteral("--port"), QString::number(cluster_.port()), QStringLiteral("--user"),
                 cluster_.user(), QStringLiteral("--identity"), cluster_.keyPath(), QStringLiteral("--known-hosts"),
                 cluster_.knownHostsPath(), QStringLiteral("--scratch"), cluster_.scratchDir(),
                 QStringLiteral("--engine"), engine, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(r.json().value(QStringLiteral("port")).toInt(), cluster_.port());

        r = ctl({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("lc"), QStringLiteral("--host"),
                 QStringLiteral("x"), QStringLiteral("--scratch"), QStringLiteral("/s"), QStringLiteral("--engine"),
                 QStringLiteral("e")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("exists"), r.err.constData());
        r = ctl({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("bad"), QStringLiteral("--host"),
                 QStringLiteral("x"), QStringLiteral("--scratch"), QStringLiteral("relative"),
                 QStringLiteral("--engine"), QStringLiteral("e")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("scratch_dir:"), r.err.constData());

        r = ctl({QStringLiteral("cluster"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json().value(QStringLiteral("clusters")).toArray().size(), 1);

        r = ctl({QStringLiteral("cluster"), QStringLiteral("test"), QStringLiteral("lc"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, QByteArray(r.out + r.err).constData());
        QVERIFY(r.json().value(QStringLiteral("ok")).toBool());
        QCOMPARE(r.json().value(QStringLiteral("checks")).toArray().size(), 4);

        r = ctl({QStringLiteral("cluster"), QStringLiteral("probe"), QStringLiteral("lc"), QStringLiteral("--save"),
                 QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject partition = r.json().value(QStringLiteral("partitions")).toArray().at(0).toObject();
        QCOMPARE(partition.value(QStringLiteral("name")).toString(), cluster_.partition());
        QCOMPARE(partition.value(QStringLiteral("max_walltime_minutes")).toInt(), 60);
        r = ctl({QStringLiteral("cluster"), QStringLiteral("show"), QStringLiteral("lc"), QStringLiteral("--json")});
        QCOMPARE(r.json().value(QStringLiteral("partitions")).toArray().at(0).toObject(), partition);

        // A wrong engine path fails the test with the reason.
        r = ctl({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("noengine"), QStringLiteral("--host"),
                 cluster_.host(), QStringLiteral("--port"), QString::number(cluster_.port()), QStringLiteral("--user"),
                 cluster_.user(), QStringLiteral("--identity"), cluster_.keyPath(), QStringLiteral("--known-hosts"),
                 cluster_.knownHostsPath(), QStringLiteral("--scratch"), cluster_.scratchDir(),
                 QStringLiteral("--engine"), QStringLiteral("/nonexistent/diamond-train")});
        QCOMPARE(r.code, 0);
        r = ctl({QStringLiteral("cluster"), QStringLiteral("test"), QStringLiteral("noengine")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains("FAIL engine"), r.out.constData());

        QCOMPARE(ctl({QStringLiteral("cluster"), QStringLiteral("remove"), QStringLiteral("lc")}).code, 0);
        QCOMPARE(ctl({QStringLiteral("cluster"), QStringLiteral("test"), QStringLiteral("lc")}).code, 1);
    }
};

QTEST_GUILESS_MAIN(TestItClusterCli)
#include "tst_it_cluster_cli.moc"
