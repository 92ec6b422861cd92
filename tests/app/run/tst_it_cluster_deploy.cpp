// `diamondctl cluster deploy` against the project's Slurm fixture over SSH: a bundle of this computer's engine goes
// into the scratch folder, the profile points at it, `cluster test` passes and a run trains there with it; a
// container deployment writes the source archive and the Apptainer definition, builds the image as an srun job step
// (through a stand-in `apptainer`, since Debian 12 packages none: it checks the definition and records the job),
// and a run then trains through `apptainer exec`. Bad requests are refused and leave the profile as it was.
#include "common/cluster_runs.h"
#include "common/rest_test_server.h"

#include "diamond/version.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;

class TestItClusterDeploy : public QObject {
    Q_OBJECT

    test::LocalCluster cluster_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    std::unique_ptr<test::ClusterRuns> runs_;
    QString ws_;

    struct Result {
        int code = -1;
        QByteArray out, err;
        QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
    };
    Result ctl(const QStringList &args, int timeoutMs = 600000) {
        QProcess p;
        QProcessEnvironment e = cluster_.environment();
        e.insert(QStringLiteral("HOME"), dir_.path());
        p.setProcessEnvironment(e);
        p.start(test::binary(QStringLiteral("diamondctl")), QStringList{QStringLiteral("--workspace"), ws_} + args);
        Result r;
        if (!p.waitForFinished(timeoutMs)) return r;
        r.code = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }
    /// `name` in the test's folder, or an absolute path.
    QString writeFile(const QString &name, const QByteArray &text) {
        const QString path = QDir::isAbsolutePath(name) ? name : dir_.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly)) f.write(text);
        return path;
    }
    QString writeJson(const QString &name, const QJsonObject &doc) {
        return writeFile(name, QJsonDocument(doc).toJson());
    }
    QJsonObject profile(const QString &name) {
        return ctl({QStringLiteral("cluster"), QStringLiteral("show"), name, QStringLiteral("--json")}).json();
    }
    /// Adds `p` with the engine path `engine` (nothing is installed there before a deployment).
    void addCluster(remote::ClusterProfile p, const QString &engine) {
        p.enginePath = engine;
        const Result r = ctl({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("--from-json"),
                              writeJson(p.name + QStringLiteral(".json"), p.toJson())});
        QVERIFY2(r.code == 0, r.err.constData());
    }
    /// Trains the spirals example for 300 steps on `cluster`, following it: the exit code (0 = finished).
    int trainOn(const QString &cluster) {
        const QJsonObject job = runs_->execution().value(QStringLiteral("job")).toObject();
        const Result r =
            ctl({QStringLiteral("run"), QStringLiteral("start"), QStringLiteral("--spec"),
                 writeJson(QStringLiteral("spec.json"), test::ClusterRuns::spec()), QStringLiteral("--config"),
                 writeJson(QStringLiteral("run.json"), test::ClusterRuns::config(300)), QStringLiteral("--target"),
                 cluster, QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--job"),
                 QString::fromUtf8(QJsonDocument(job).toJson(QJsonDocument::Compact)), QStringLiteral("--follow")});
        if (r.code != 0) qWarning("run start: %s %s", r.out.right(2000).constData(), r.err.constData());
        return r.code;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        runs_ = std::make_unique<test::ClusterRuns>(cluster_, dir_.path());
        ws_ = dir_.filePath(QStringLiteral("ws"));
        QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--no-examples")}).code, 0);
    }

    void bundleDeploymentTrains() {
        const remote::ClusterProfile p = runs_->sshProfile(QStringLiteral("cpu"));
        addCluster(p, QStringLiteral("/nonexistent/diamond-train"));
        Result r = ctl({QStringLiteral("cluster"), QStringLiteral("test"), QStringLiteral("cpu")});
        QCOMPARE(r.code, 1); // no engine there yet

        r = ctl({QStringLiteral("cluster"), QStringLiteral("deploy"), QStringLiteral("cpu"), QStringLiteral("--engine"),
                 test::ClusterRuns::engine(), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject out = r.json();
        const QString engine = out.value(QStringLiteral("engine_path")).toString();
        QCOMPARE(engine, p.scratchDir + QStringLiteral("/engine/diamond-train-") + QStringLiteral(DIAMOND_VERSION) +
                             QStringLiteral("/diamond-train"));
        QVERIFY2(out.value(QStringLiteral("version")).toString().startsWith(QStringLiteral("diamond-train")),
                 r.out.constData());
        qInfo("bundle: %.1f MB sent, %.1f s", out.value(QStringLiteral("uploaded_bytes")).toDouble() / 1e6,
              out.value(QStringLiteral("seconds")).toDouble());
        QVERIFY(out.value(QStringLiteral("uploaded_bytes")).toDouble() > 1e6);
        // The bundle is complete on the cluster: its own libtorch, no leftovers of the transfer.
        QVERIFY(QFileInfo(QFileInfo(engine).path() + QStringLiteral("/bin/diamond-train")).isExecutable());
        QVERIFY(!QDir(QFileInfo(engine).path() + QStringLiteral("/lib"))
                     .entryList({QStringLiteral("libtorch_cpu.so*")}, QDir::Files)
                     .isEmpty());
        QCOMPARE(QDir(p.scratchDir + QStringLiteral("/engine")).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
                 QStringList{QFileInfo(QFileInfo(engine).path()).fileName()});
        QCOMPARE(profile(QStringLiteral("cpu")).value(QStringLiteral("engine_path")).toString(), engine);

        r = ctl({QStringLiteral("cluster"), QStringLiteral("test"), QStringLiteral("cpu")});
        QVERIFY2(r.code == 0, r.out.constData());
        QCOMPARE(trainOn(QStringLiteral("cpu")), 0);

        // Deploying again replaces the copy in place.
        r = ctl({QStringLiteral("cluster"), QStringLiteral("deploy"), QStringLiteral("cpu"), QStringLiteral("--engine"),
                 test::ClusterRuns::engine()});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("The cluster profile now uses it."), r.out.constData());
    }

    void containerDeploymentBuildsInAJobAndTrains() {
        // The stand-in for apptainer: `build` checks the definition and records the Slurm job it ran in; `exec`
        // runs the engine that the image would hold with this computer's engine.
        // In the fixture's scratch folder: the cluster's user (not this test's) runs it.
        QVERIFY(QDir().mkpath(cluster_.scratchDir() + QStringLiteral("/tools")));
        const QString fake = writeFile(
            cluster_.scratchDir() + QStringLiteral("/tools/apptainer"),
            QStringLiteral("#!/bin/sh\n"
                           "cmd=\"$1\"; shift\n"
                           "case \"$cmd\" in\n"
                           "--version) echo 'apptainer version 1.3.4 (test stand-in)';;\n"
                           "build)\n"
                           "  while [ \"${1#--}\" != \"$1\" ]; do shift; done\n"
                           "  out=\"$1\"; def=\"$2\"\n"
                           "  grep -q '^Bootstrap: docker' \"$def\" && grep -q 'DIAMOND_ENGINE_ONLY=ON' \"$def\" || "
                           "{ echo \"not an engine definition: $def\" >&2; exit 1; }\n"
                           "  tar -tzf \"$(dirname \"$def\")/diamond-engine-src.tar.gz\" | grep -q "
                           "'^engine/train/trainer.cpp$' || { echo 'no sources' >&2; exit 1; }\n"
                           "  echo \"job ${SLURM_JOB_ID:-none}\" > \"$out\";;\n"
                           "exec)\n"
                           "  while [ \"${1#--}\" != \"$1\" ]; do case \"$1\" in --bind) shift 2;; *) shift;; esac; "
                           "done\n"
                           "  [ -f \"$1\" ] || { echo \"no image $1\" >&2; exit 1; }\n"
                           "  [ \"$2\" = /opt/diamond/diamond-train ] || { echo \"not in the image: $2\" >&2; exit 1; "
                           "}\n"
                           "  shift 2; exec %1 \"$@\";;\n"
                           "*) echo \"unknown command $cmd\" >&2; exit 1;;\n"
                           "esac\n")
                .arg(test::ClusterRuns::engine())
                .toUtf8());
        QVERIFY(QFile::setPermissions(fake, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                                QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther));
        remote::ClusterProfile p = runs_->sshProfile(QStringLiteral("gpu"));
        p.container.command = fake;
        addCluster(p, QStringLiteral("/nonexistent/diamond-train"));

        Result r = ctl({QStringLiteral("cluster"), QStringLiteral("deploy"), QStringLiteral("gpu"),
                        QStringLiteral("--container"), QStringLiteral("--partition"), cluster_.partition(),
                        QStringLiteral("--build-minutes"), QStringLiteral("5"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject out = r.json();
        const QString image = out.value(QStringLiteral("image")).toString();
        QCOMPARE(image, p.scratchDir + QStringLiteral("/engine/diamond-train-") + QStringLiteral(DIAMOND_VERSION) +
                            QStringLiteral(".sif"));
        QCOMPARE(out.value(QStringLiteral("engine_path")).toString(), QStringLiteral("/opt/diamond/diamond-train"));
        // Built as a job step on the fixture's node, not on the login node.
        QFile built(image);
        QVERIFY(built.open(QIODevice::ReadOnly));
        const QByteArray job = built.readAll().trimmed();
        QVERIFY2(job.startsWith("job ") && job != "job none", job.constData());
        QFile definition(p.scratchDir + QStringLiteral("/engine/diamond-train-") + QStringLiteral(DIAMOND_VERSION) +
                         QStringLiteral(".def"));
        QVERIFY(definition.open(QIODevice::ReadOnly));
        QVERIFY(definition.readAll().contains("torch.utils.cmake_prefix_path"));

        const QJsonObject saved = profile(QStringLiteral("gpu"));
        const QJsonObject container = saved.value(QStringLiteral("container")).toObject();
        QCOMPARE(container.value(QStringLiteral("runtime")).toString(), QStringLiteral("apptainer"));
        QCOMPARE(container.value(QStringLiteral("image")).toString(), image);
        QCOMPARE(container.value(QStringLiteral("command")).toString(), fake);
        r = ctl({QStringLiteral("cluster"), QStringLiteral("test"), QStringLiteral("gpu")});
        QVERIFY2(r.code == 0, r.out.constData());
        QCOMPARE(trainOn(QStringLiteral("gpu")), 0);
    }

    /// POST /api/v1/clusters/{name}/deploy does what `cluster deploy` does, for admins only, and refuses bad bodies
    /// before touching the cluster.
    void restDeploysTheBundle() {
        const remote::ClusterProfile p = runs_->sshProfile(QStringLiteral("viarest"));
        addCluster(p, QStringLiteral("/nonexistent/diamond-train"));
        QProcessEnvironment e = cluster_.environment();
        e.insert(QStringLiteral("HOME"), dir_.path());
        e.insert(QStringLiteral("DIAMOND_TRAIN"), test::ClusterRuns::engine()); // what the server bundles
        QString out;
        QCOMPARE(test::RestTestServer::ctl(e, ws_,
                                           {QStringLiteral("user"), QStringLiteral("add"), QStringLiteral("sam"),
                                            QStringLiteral("--role"), QStringLiteral("instructor"),
                                            QStringLiteral("--json")},
                                           &out),
                 0);
        const QString instructor =
            QJsonDocument::fromJson(out.toUtf8()).object().value(QStringLiteral("token")).toString();
        QVERIFY(!instructor.isEmpty());
        test::RestTestServer server;
        QVERIFY(server.start(e, ws_));
        const QString path = QStringLiteral("/api/v1/clusters/viarest/deploy");
        const QJsonObject before = profile(QStringLiteral("viarest"));
        // Refused: not an admin; a body that is not an object, a wrong type, a container-only field; no such cluster.
        QCOMPARE(server.request("POST", path, "{}", instructor).status, 403);
        for (const QByteArray &bad :
             {QByteArray("[1]"), QByteArray(R"({"container": "yes"})"), QByteArray(R"({"partition": "debug"})"),
              QByteArray(R"({"container": true, "build_minutes": 0})")}) {
            const test::RestResponse r = server.request("POST", path, bad);
            QVERIFY2(r.status == 400, bad.constData());
            QVERIFY2(!r.json()
                          .value(QStringLiteral("error"))
                          .toObject()
                          .value(QStringLiteral("message"))
                          .toString()
                          .isEmpty(),
                     r.body.constData());
        }
        QCOMPARE(server.request("POST", QStringLiteral("/api/v1/clusters/nowhere/deploy"), "{}").status, 404);
        QCOMPARE(profile(QStringLiteral("viarest")), before);

        const test::RestResponse r = server.request("POST", path, "{}");
        QVERIFY2(r.status == 200, r.body.constData());
        const QJsonObject doc = r.json();
        QCOMPARE(doc.value(QStringLiteral("cluster")).toString(), QStringLiteral("viarest"));
        QCOMPARE(doc.value(QStringLiteral("kind")).toString(), QStringLiteral("bundle"));
        const QString engine = doc.value(QStringLiteral("engine_path")).toString();
        QCOMPARE(engine, p.scratchDir + QStringLiteral("/engine/diamond-train-") + QStringLiteral(DIAMOND_VERSION) +
                             QStringLiteral("/diamond-train"));
        QVERIFY2(doc.value(QStringLiteral("version")).toString().startsWith(QStringLiteral("diamond-train")),
                 r.body.constData());
        QVERIFY(doc.value(QStringLiteral("uploaded_bytes")).toDouble() > 1e6);
        QCOMPARE(profile(QStringLiteral("viarest")).value(QStringLiteral("engine_path")).toString(), engine);
        const Result test = ctl({QStringLiteral("cluster"), QStringLiteral("test"), QStringLiteral("viarest")});
        QVERIFY2(test.code == 0, test.out.constData());
        server.stop();
    }

    void badRequestsChangeNothing() {
        const QJsonObject before = profile(QStringLiteral("cpu"));
        Result r = ctl({QStringLiteral("cluster"), QStringLiteral("deploy"), QStringLiteral("cpu"),
                        QStringLiteral("--engine"), dir_.filePath(QStringLiteral("missing"))});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("not an engine"), r.err.constData());
        r = ctl({QStringLiteral("cluster"), QStringLiteral("deploy"), QStringLiteral("cpu"),
                 QStringLiteral("--container"), QStringLiteral("--partition"), QStringLiteral("x; rm -rf ~")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("not a partition name"), r.err.constData());
        r = ctl({QStringLiteral("cluster"), QStringLiteral("deploy"), QStringLiteral("cpu"),
                 QStringLiteral("--partition"), cluster_.partition()});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--container"), r.err.constData());
        QCOMPARE(profile(QStringLiteral("cpu")), before);
    }
};

QTEST_GUILESS_MAIN(TestItClusterDeploy)
#include "tst_it_cluster_deploy.moc"
