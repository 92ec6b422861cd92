// Rendezvous from the environment (torchrun and Slurm variables) and Slurm host lists.
#include "distributed.h"
#include "engine_error.h"

#include <QtTest>

#include <map>

using namespace diamond::engine;

namespace {
EnvLookup envOf(const std::map<std::string, std::string> &vars) {
    auto copy = std::make_shared<std::map<std::string, std::string>>(vars);
    return [copy](const char *name) -> const char * {
        auto it = copy->find(name);
        return it == copy->end() ? nullptr : it->second.c_str();
    };
}
} // namespace

class TestDistributedEnv : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void singleProcessWithoutVariables() {
        const Rendezvous r = rendezvousFromEnvironment(envOf({}));
        QCOMPARE(r.world, 1);
        QCOMPARE(r.rank, 0);
        QCOMPARE(r.source, std::string("single"));
    }

    void torchrunVariables() {
        const Rendezvous r = rendezvousFromEnvironment(envOf({{"RANK", "3"},
                                                              {"WORLD_SIZE", "8"},
                                                              {"LOCAL_RANK", "1"},
                                                              {"MASTER_ADDR", "10.1.2.3"},
                                                              {"MASTER_PORT", "29511"}}));
        QCOMPARE(r.source, std::string("torchrun"));
        QCOMPARE(r.rank, 3);
        QCOMPARE(r.world, 8);
        QCOMPARE(r.localRank, 1);
        QCOMPARE(r.masterAddr, std::string("10.1.2.3"));
        QCOMPARE(r.masterPort, 29511);
    }

    void torchrunWinsOverSlurm() {
        const Rendezvous r = rendezvousFromEnvironment(
            envOf({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "4"}}));
        QCOMPARE(r.source, std::string("torchrun"));
        QCOMPARE(r.world, 2);
    }

    void slurmVariables() {
        const Rendezvous r = rendezvousFromEnvironment(envOf({{"SLURM_PROCID", "5"},
                                                              {"SLURM_NTASKS", "8"},
                                                              {"SLURM_LOCALID", "1"},
                                                              {"SLURM_JOB_ID", "123456"},
                                                              {"SLURM_JOB_NODELIST", "node[07-10],gpu01"}}));
        QCOMPARE(r.source, std::string("slurm"));
        QCOMPARE(r.rank, 5);
        QCOMPARE(r.world, 8);
        QCOMPARE(r.localRank, 1);
        QCOMPARE(r.masterAddr, std::string("node07"));
        QCOMPARE(r.masterPort, 29500 + 456);
        const Rendezvous withPort = rendezvousFromEnvironment(envOf(
            {{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}, {"SLURM_JOB_NODELIST", "a"}, {"MASTER_PORT", "4000"}}));
        QCOMPARE(withPort.masterPort, 4000);
        QCOMPARE(withPort.masterAddr, std::string("a"));
    }

    void inconsistentValuesNameTheVariable() {
        try {
            rendezvousFromEnvironment(envOf({{"RANK", "2"}, {"WORLD_SIZE", "2"}}));
            QFAIL("no error");
        } catch (const EngineError &e) {
            QCOMPARE(e.field(), std::string("RANK"));
        }
        try {
            rendezvousFromEnvironment(envOf({{"SLURM_PROCID", "x"}, {"SLURM_NTASKS", "2"}}));
            QFAIL("no error");
        } catch (const EngineError &e) {
            QCOMPARE(e.field(), std::string("SLURM_PROCID"));
        }
    }

    void nodeLists_data() {
        QTest::addColumn<QString>("list");
        QTest::addColumn<QStringList>("hosts");
        QTest::newRow("plain") << QStringLiteral("node1") << QStringList{QStringLiteral("node1")};
        QTest::newRow("compressed") << QStringLiteral("node[01-04,07]")
                                    << QStringList{QStringLiteral("node01"), QStringLiteral("node02"),
                                                   QStringLiteral("node03"), QStringLiteral("node04"),
                                                   QStringLiteral("node07")};
        QTest::newRow("mixed") << QStringLiteral("gpu[9-11],login2,cpu[003]-ib")
                               << QStringList{QStringLiteral("gpu9"), QStringLiteral("gpu10"), QStringLiteral("gpu11"),
                                              QStringLiteral("login2"), QStringLiteral("cpu003-ib")};
        QTest::newRow("padding kept past 9") << QStringLiteral("n[098-101]")
                                             << QStringList{QStringLiteral("n098"), QStringLiteral("n099"),
                                                            QStringLiteral("n100"), QStringLiteral("n101")};
    }

    void nodeLists() {
        QFETCH(QString, list);
        QFETCH(QStringList, hosts);
        QStringList got;
        for (const auto &h : expandSlurmNodeList(list.toStdString()))
            got << QString::fromStdString(h);
        QCOMPARE(got, hosts);
    }

    void malformedNodeListsAreErrors_data() {
        QTest::addColumn<QString>("list");
        QTest::newRow("unclosed") << QStringLiteral("node[01-04");
        QTest::newRow("reversed") << QStringLiteral("node[5-1]");
        QTest::newRow("letters") << QStringLiteral("node[a-b]");
        QTest::newRow("empty") << QString();
        QTest::newRow("empty range") << QStringLiteral("node[1,,2]");
    }

    void malformedNodeListsAreErrors() {
        QFETCH(QString, list);
        QVERIFY_THROWS_EXCEPTION(EngineError, expandSlurmNodeList(list.toStdString()));
    }
};

QTEST_APPLESS_MAIN(TestDistributedEnv)
#include "tst_distributed_env.moc"
