// The local-cluster test fixture itself (tests/fixtures/local-cluster): a real sshd and a real single-node Slurm
// on 127.0.0.1, reached with the OpenSSH client; two instances side by side; sshd stopped and restarted.
#include "common/local_cluster.h"

#include <QTcpSocket>
#include <QtTest>

using diamond::test::LocalCluster;

namespace {

bool portAnswers(int port) {
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), quint16(port));
    return socket.waitForConnected(2000);
}

} // namespace

class TestItSshFixture : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void slurmClusterAnswersOverSsh();
    void twoInstancesSideBySide();
    void sshdStopAndRestart();
};

void TestItSshFixture::slurmClusterAnswersOverSsh() {
    LocalCluster cluster(LocalCluster::Mode::Slurm);
    QVERIFY2(cluster.start(), qPrintable(cluster.log()));
    qInfo("slurm instance up in %lld ms on ssh port %d", cluster.startMilliseconds(), cluster.port());
    QCOMPARE(cluster.host(), QStringLiteral("127.0.0.1"));
    QVERIFY(QFile::exists(cluster.slurmConf()));

    // Exactly the brief's check: OpenSSH client with the fixture's key, port and known_hosts.
    QProcess ssh;
    ssh.start(QStringLiteral("ssh"),
              {QStringLiteral("-i"), cluster.keyPath(), QStringLiteral("-p"), QString::number(cluster.port()),
               QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=") + cluster.knownHostsPath(),
               QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=yes"), QStringLiteral("-o"),
               QStringLiteral("BatchMode=yes"), cluster.user() + QStringLiteral("@127.0.0.1"),
               QStringLiteral("sinfo -h -o '%P %a %T'")});
    QVERIFY(ssh.waitForFinished(30000));
    const QByteArray err = ssh.readAllStandardError();
    QVERIFY2(ssh.exitCode() == 0, err.constData());
    const QByteArray out = ssh.readAllStandardOutput().trimmed();
    QVERIFY2(out.startsWith("debug* up "), out.constData());
    QVERIFY2(out.endsWith(" idle"), out.constData());

    // A 2-task step through srun, as the test user, in the instance's scratch folder.
    QByteArray stepOut, stepErr;
    const int rc = cluster.ssh(QStringLiteral("cd %1 && srun --ntasks=2 --time=1 bash -c 'echo rank=$SLURM_PROCID "
                                              "user=$(id -un)' | sort")
                                   .arg(cluster.scratchDir()),
                               &stepOut, &stepErr);
    QVERIFY2(rc == 0, stepErr.constData());
    QCOMPARE(stepOut, QByteArray("rank=0 user=diamondtest\nrank=1 user=diamondtest\n"));

    const QString base = cluster.baseDir();
    QVERIFY(cluster.stop());
    QVERIFY2(!QFileInfo::exists(base), qPrintable(base));
}

void TestItSshFixture::twoInstancesSideBySide() {
    // Two complete clusters at once (as with ctest -j2 or two agents): own ports, munge, Slurm state, users' env.
    LocalCluster a(LocalCluster::Mode::Slurm);
    LocalCluster b(LocalCluster::Mode::Slurm);
    QVERIFY2(a.start(), qPrintable(a.log()));
    QVERIFY2(b.start(), qPrintable(b.log()));
    QVERIFY(a.port() != b.port());
    QVERIFY(a.baseDir() != b.baseDir());
    QVERIFY(a.value(QStringLiteral("LOCAL_CLUSTER_SLURMCTLD_PORT")) !=
            b.value(QStringLiteral("LOCAL_CLUSTER_SLURMCTLD_PORT")));
    QByteArray outA, outB, err;
    const QString probe = QStringLiteral("echo $LOCAL_CLUSTER_BASE $SLURM_CONF; srun -n2 --time=1 hostname | wc -l");
    QVERIFY2(a.ssh(probe, &outA, &err) == 0, err.constData());
    QVERIFY2(b.ssh(probe, &outB, &err) == 0, err.constData());
    QCOMPARE(QString::fromLocal8Bit(outA), QStringLiteral("%1 %2\n2\n").arg(a.baseDir(), a.slurmConf()));
    QCOMPARE(QString::fromLocal8Bit(outB), QStringLiteral("%1 %2\n2\n").arg(b.baseDir(), b.slurmConf()));
    // A job submitted to one cluster is not seen by the other.
    QByteArray jobId;
    QVERIFY2(a.ssh(QStringLiteral("cd %1 && sbatch --parsable --wrap 'sleep 30'").arg(a.scratchDir()), &jobId, &err) ==
                 0,
             err.constData());
    QVERIFY2(a.ssh(QStringLiteral("squeue -h -o %i"), &outA, &err) == 0, err.constData());
    QVERIFY2(b.ssh(QStringLiteral("squeue -h -o %i"), &outB, &err) == 0, err.constData());
    QCOMPARE(outA.trimmed(), jobId.trimmed());
    QCOMPARE(outB.trimmed(), QByteArray());
    const int portA = a.port();
    QVERIFY(a.stop()); // cancels the job, stops only a's daemons
    QVERIFY(!portAnswers(portA));
    QVERIFY2(b.ssh(QStringLiteral("sinfo -h -o %T"), &outB, &err) == 0, err.constData());
    QCOMPARE(outB.trimmed(), QByteArray("idle"));
}

void TestItSshFixture::sshdStopAndRestart() {
    LocalCluster cluster(LocalCluster::Mode::SshOnly);
    QVERIFY2(cluster.start(), qPrintable(cluster.log()));
    const int port = cluster.port();

    // An open session is dropped by stopSshd(), not only the listener.
    QProcess longSession;
    longSession.start(QStringLiteral("ssh"), cluster.sshArgs() << QStringLiteral("echo started; sleep 60"));
    QVERIFY(longSession.waitForReadyRead(20000));
    QElapsedTimer timer;
    timer.start();
    QVERIFY2(cluster.stopSshd(), qPrintable(cluster.log()));
    QVERIFY(longSession.waitForFinished(10000));
    QVERIFY(timer.elapsed() < 10000);
    QVERIFY(longSession.exitCode() != 0);
    QVERIFY(!portAnswers(port));

    QVERIFY2(cluster.start(), qPrintable(cluster.log()));
    QCOMPARE(cluster.port(), port);
    QByteArray out, err;
    QVERIFY2(cluster.ssh(QStringLiteral("id -un"), &out, &err) == 0, err.constData());
    QCOMPARE(out, QByteArray("diamondtest\n"));
}

QTEST_GUILESS_MAIN(TestItSshFixture)
#include "tst_it_ssh_fixture.moc"
