// ClusterJobRecord (<run-dir>/cluster-job.json) round-trips, and a hostile or damaged record is refused or trimmed:
// over 1 MiB, not JSON, no job or remote folder, a chain of 500 ids or non-string ids.
#include "app/cluster/cluster_job_record.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using diamond::app::ClusterJobRecord;

class TestClusterJobRecord : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    void writeRaw(const QByteArray &bytes) {
        QFile f(ClusterJobRecord::path(dir_.path()));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }

private Q_SLOTS:
    void roundTrip() {
        ClusterJobRecord r;
        r.profile = QStringLiteral("lc");
        r.jobId = QStringLiteral("12");
        r.remoteDir = QStringLiteral("/scratch/runs/a-1");
        r.attempt = 3;
        r.cancelRequested = true;
        r.dataPath = QStringLiteral("/scratch/data/x");
        r.queuedLinks = {QStringLiteral("13"), QStringLiteral("14")};
        QVERIFY(r.write(dir_.path()));
        const auto back = ClusterJobRecord::read(dir_.path());
        QVERIFY(back);
        QCOMPARE(back->jobId, r.jobId);
        QCOMPARE(back->attempt, 3);
        QVERIFY(back->cancelRequested);
        QCOMPARE(back->queuedLinks, r.queuedLinks);
    }

    void hostileRecords() {
        writeRaw(QByteArray(2 << 20, ' ') + "{}"); // over 1 MiB: not read at all
        QVERIFY(!ClusterJobRecord::read(dir_.path()));
        writeRaw("not json");
        QVERIFY(!ClusterJobRecord::read(dir_.path()));
        writeRaw(R"({"profile":"lc","remote_dir":"/x"})"); // no job
        QVERIFY(!ClusterJobRecord::read(dir_.path()));

        QJsonArray chain;
        for (int i = 0; i < 500; ++i)
            chain.append(QString::number(100 + i));
        chain.insert(0, 42); // not a string: skipped
        writeRaw(QJsonDocument(QJsonObject{{QStringLiteral("profile"), QStringLiteral("lc")},
                                           {QStringLiteral("job_id"), QStringLiteral("1")},
                                           {QStringLiteral("remote_dir"), QStringLiteral("/x")},
                                           {QStringLiteral("attempt"), -7},
                                           {QStringLiteral("chain"), chain}})
                     .toJson());
        const auto r = ClusterJobRecord::read(dir_.path());
        QVERIFY(r);
        QCOMPARE(r->queuedLinks.size(), 100); // kMaxChainJobs
        QCOMPARE(r->queuedLinks.first(), QStringLiteral("100"));
        QCOMPARE(r->attempt, 1);
    }
};

QTEST_GUILESS_MAIN(TestClusterJobRecord)
#include "tst_cluster_job_record.moc"
