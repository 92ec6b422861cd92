// ClusterProfile JSON round trip and field-named errors; ClusterStore CRUD on a real workspace database.
#include "app/cluster/cluster_store.h"
#include "app/workspace/workspace.h"
#include "remote/cluster_profile.h"

#include <QJsonDocument>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;
using remote::ClusterProfile;

class TestClusterProfile : public QObject {
    Q_OBJECT

    static QJsonObject full() {
        return QJsonDocument::fromJson(R"({
          "name": "hpc", "host": "login.hpc.example", "port": 2222, "user": "alice", "scheduler": "slurm",
          "account": "proj1",
          "partitions": [
            {"name": "gpu", "gpu_type": "a100", "gpus_per_node": 4, "cpus_per_node": 64, "memory_mb": 512000,
             "max_walltime_minutes": 2880, "nodes": 12, "default": true},
            {"name": "cpu", "cpus_per_node": 128}
          ],
          "modules": ["cuda/12.1", "nccl"],
          "container": {"runtime": "apptainer", "image": "/scratch/diamond.sif", "options": ["--cleanenv"],
                        "command": "/opt/apptainer/bin/apptainer"},
          "gpu_directive": "gres",
          "scratch_dir": "/scratch/alice/diamond", "engine_path": "/opt/diamond/diamond-train",
          "identity_file": "/home/alice/.ssh/id_ed25519", "environment": {"OMP_PROC_BIND": "close"}
        })")
            .object();
    }

private Q_SLOTS:
    void roundTrip() {
        QString error;
        const auto p = ClusterProfile::fromJson(full(), &error);
        QVERIFY2(p, qPrintable(error));
        QCOMPARE(p->port, 2222);
        QCOMPARE(p->scheduler, remote::SchedulerKind::Slurm);
        QCOMPARE(p->partitions.size(), 2);
        QCOMPARE(p->partitions[0].gpuType, QStringLiteral("a100"));
        QCOMPARE(p->partitions[0].memoryMb, 512000);
        QVERIFY(p->partitions[0].isDefault);
        QCOMPARE(p->partition()->name, QStringLiteral("gpu"));
        QCOMPARE(p->partition(QStringLiteral("cpu"))->cpusPerNode, 128);
        QVERIFY(!p->partition(QStringLiteral("none")));
        QCOMPARE(p->container.runtime, remote::ContainerRuntime::Apptainer);
        QCOMPARE(p->container.options, QStringList{QStringLiteral("--cleanenv")});
        QCOMPARE(p->container.program(), QStringLiteral("/opt/apptainer/bin/apptainer"));
        QCOMPARE(p->gpuDirective, QStringLiteral("gres"));
        QCOMPARE(ClusterProfile{}.gpuDirective, QStringLiteral("gpus-per-node")); // and left out of the JSON
        QVERIFY(!ClusterProfile{}.configJson().contains(QStringLiteral("gpu_directive")));
        remote::ContainerSettings podman;
        podman.runtime = remote::ContainerRuntime::Podman;
        QCOMPARE(podman.program(), QStringLiteral("podman"));
        QCOMPARE(p->environment.value(QStringLiteral("OMP_PROC_BIND")), QStringLiteral("close"));
        QCOMPARE(p->toJson(), full());
        const auto again = ClusterProfile::fromJson(p->toJson(), &error);
        QVERIFY(again && *again == *p);
        QVERIFY(!p->configJson().contains(QStringLiteral("host")));
        QCOMPARE(p->remoteRunDir(QStringLiteral("r7")), QStringLiteral("/scratch/alice/diamond/runs/r7"));
    }

    void errorsNameTheField_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("field");
        QTest::newRow("port type") << "port"
                                   << R"("x")"
                                   << "port:";
        QTest::newRow("port range") << "port"
                                    << "70000"
                                    << "port:";
        QTest::newRow("scheduler") << "scheduler"
                                   << R"("lsf")"
                                   << "scheduler:";
        QTest::newRow("unknown key") << "colour"
                                     << R"("red")"
                                     << "colour:";
        QTest::newRow("partition gpus") << "partitions"
                                        << R"([{"name":"g","gpus_per_node":-1}])"
                                        << "partitions[0].gpus_per_node:";
        QTest::newRow("partition name") << "partitions"
                                        << R"([{"gpus_per_node":1}])"
                                        << "partitions[0].name:";
        QTest::newRow("partition twice") << "partitions"
                                         << R"([{"name":"a"},{"name":"a"}])"
                                         << "partitions[1].name:";
        QTest::newRow("partition key") << "partitions"
                                       << R"([{"name":"a","gpu":2}])"
                                       << "partitions[0].gpu:";
        QTest::newRow("runtime") << "container"
                                 << R"({"runtime":"lxc","image":"x"})"
                                 << "container.runtime:";
        QTest::newRow("image") << "container"
                               << R"({"runtime":"podman"})"
                               << "container.image:";
        QTest::newRow("container command") << "container"
                                           << R"({"runtime":"apptainer","image":"x","command":"apptainer; rm -rf ~"})"
                                           << "container.command:";
        QTest::newRow("gpu directive") << "gpu_directive"
                                       << R"("gpus")"
                                       << "gpu_directive:";
        QTest::newRow("modules") << "modules"
                                 << R"(["ok", 3])"
                                 << "modules[1]:";
        QTest::newRow("module name") << "modules"
                                     << R"(["a b"])"
                                     << "modules[0]:";
        QTest::newRow("scratch") << "scratch_dir"
                                 << R"("relative/dir")"
                                 << "scratch_dir:";
        QTest::newRow("engine") << "engine_path"
                                << R"("")"
                                << "engine_path:";
        QTest::newRow("env") << "environment"
                             << R"({"A-B":"x"})"
                             << "environment.A-B:";
        QTest::newRow("host") << "host"
                              << R"("bad host")"
                              << "host:";
        QTest::newRow("name") << "name"
                              << R"("")"
                              << "name:";
    }
    void errorsNameTheField() {
        QFETCH(QString, key);
        QFETCH(QString, json);
        QFETCH(QString, field);
        QJsonObject o = full();
        o.insert(key, QJsonDocument::fromJson("[" + json.toUtf8() + "]").array().at(0));
        QString error;
        QVERIFY(!ClusterProfile::fromJson(o, &error));
        QVERIFY2(error.startsWith(field), qPrintable(error));
    }

    void storeCrud() {
        QTemporaryDir dir;
        app::Workspace ws;
        QVERIFY2(ws.create(dir.path()), qPrintable(ws.errorString()));
        app::ClusterStore store(ws);
        QString error;
        auto p = *ClusterProfile::fromJson(full(), &error);
        QVERIFY2(store.add(p), qPrintable(store.errorString()));
        QVERIFY(!store.add(p));
        QVERIFY2(store.errorString().contains(QLatin1String("exists")), qPrintable(store.errorString()));
        auto loaded = store.profile(QStringLiteral("hpc"));
        QVERIFY2(loaded, qPrintable(store.errorString()));
        QVERIFY(*loaded == p);
        // The columns hold what they name; the rest is in config_json.
        QSqlQuery q(ws.database());
        QVERIFY(q.exec(QStringLiteral("SELECT host, port, username, scheduler, config_json FROM cluster_profiles")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("login.hpc.example"));
        QCOMPARE(q.value(1).toInt(), 2222);
        QCOMPARE(q.value(2).toString(), QStringLiteral("alice"));
        QCOMPARE(q.value(3).toString(), QStringLiteral("slurm"));
        QVERIFY(q.value(4).toString().contains(QLatin1String("\"account\":\"proj1\"")));

        p.host = QStringLiteral("login2.hpc.example");
        p.modules.clear();
        QVERIFY2(store.update(p), qPrintable(store.errorString()));
        QCOMPARE(store.profile(QStringLiteral("hpc"))->host, QStringLiteral("login2.hpc.example"));
        QVERIFY(store.profile(QStringLiteral("hpc"))->modules.isEmpty());
        ClusterProfile other = p;
        other.name = QStringLiteral("other");
        other.scheduler = remote::SchedulerKind::Pbs;
        QVERIFY(store.add(other));
        const auto all = store.profiles();
        QCOMPARE(all.size(), 2);
        QCOMPARE(all[0].name, QStringLiteral("hpc"));
        QCOMPARE(all[1].scheduler, remote::SchedulerKind::Pbs);
        QVERIFY(store.remove(QStringLiteral("hpc")));
        QVERIFY(!store.remove(QStringLiteral("hpc")));
        QVERIFY(!store.profile(QStringLiteral("hpc")));
        other.port = 0;
        QVERIFY(!store.update(other));
        QVERIFY(store.errorString().startsWith(QLatin1String("port:")));
    }
};

QTEST_GUILESS_MAIN(TestClusterProfile)
#include "tst_cluster_profile.moc"
