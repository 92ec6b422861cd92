// Container recipes (Apptainer definition, Containerfile) and the engine bundle: a real bundle of a real
// dynamically linked program, started through its launcher with only the bundled libraries' folder added.
#include "remote/container_recipes.h"
#include "remote/engine_bundle.h"

#include "common/test_paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::remote;

class TestContainerRecipes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void apptainer() {
        const QString def = apptainerDefinition();
        QVERIFY(def.contains(QLatin1String("\nBootstrap: docker\nFrom: docker.io/nvidia/cuda:")));
        QVERIFY(def.contains(QLatin1String("cudnn8-runtime")));
        QVERIFY(def.contains(QLatin1String("%files\n    diamond-train-bundle /opt/diamond\n")));
        QVERIFY(def.contains(QLatin1String("%runscript\n    exec /opt/diamond/diamond-train \"$@\"\n")));
        QVERIFY(def.contains(QLatin1String("%post\n")));
        ContainerRecipeOptions o;
        o.baseImage = QStringLiteral("docker://nvcr.io/nvidia/cuda:12.1.1-runtime-ubuntu22.04");
        o.installDir = QStringLiteral("/usr/local/diamond");
        o.version = QStringLiteral("9.9");
        const QString custom = apptainerDefinition(o);
        QVERIFY(custom.contains(QLatin1String("From: nvcr.io/nvidia/cuda:12.1.1-runtime-ubuntu22.04\n")));
        QVERIFY(custom.contains(QLatin1String("org.opencontainers.image.version 9.9")));
        QCOMPARE(containerEnginePath(o), QStringLiteral("/usr/local/diamond/diamond-train"));
    }

    // The GPU clusters' image: built from the uploaded sources against the image's own PyTorch, engine only, checked.
    void sourceImageDefinition() {
        const QString def = apptainerSourceDefinition();
        QVERIFY(def.contains(QLatin1String("\nBootstrap: docker\nFrom: docker.io/pytorch/pytorch:")));
        QVERIFY(def.contains(QLatin1String("-devel\n"))); // a compiler and the CUDA headers
        QVERIFY(def.contains(QLatin1String("%files\n    diamond-engine-src.tar.gz /opt/diamond-src.tar.gz\n")));
        QVERIFY(def.contains(QLatin1String("python3 -c 'import torch; print(torch.utils.cmake_prefix_path)'")));
        QVERIFY(def.contains(QLatin1String("-DDIAMOND_ENGINE_ONLY=ON")));
        QVERIFY(def.contains(QLatin1String("-DDIAMOND_THIRD_PARTY_INCLUDE=/opt/diamond-src/third_party/include")));
        QVERIFY(def.contains(QLatin1String("--target diamond-train")));
        QVERIFY(def.contains(QLatin1String("%test\n    /opt/diamond/diamond-train --version\n")));
        // %post stops at the first failing command, and checks the engine it built.
        const qsizetype post = def.indexOf(QLatin1String("%post\n    set -e\n"));
        QVERIFY(post > 0);
        QVERIFY(def.indexOf(QLatin1String("/opt/diamond/diamond-train --version"), post) <
                def.indexOf(QLatin1String("%environment")));
        SourceImageOptions o;
        o.baseImage = QStringLiteral("docker://nvcr.io/nvidia/pytorch:24.10-py3");
        o.installDir = QStringLiteral("/usr/local/diamond");
        QVERIFY(apptainerSourceDefinition(o).contains(QLatin1String("From: nvcr.io/nvidia/pytorch:24.10-py3\n")));
        QCOMPARE(sourceImageEnginePath(o), QStringLiteral("/usr/local/diamond/diamond-train"));
    }

    void containerfileText() {
        const QString c = containerfile();
        QVERIFY(c.contains(QLatin1String("\nFROM docker.io/nvidia/cuda:")));
        QVERIFY(c.contains(QLatin1String("\nCOPY diamond-train-bundle/ /opt/diamond/\n")));
        QVERIFY(c.contains(QLatin1String("\nENTRYPOINT [\"/opt/diamond/diamond-train\"]\n")));
        QVERIFY(c.indexOf(QLatin1String("FROM")) < c.indexOf(QLatin1String("COPY")));
    }

    void systemLibraries() {
        for (const char *name : {"libc.so.6", "ld-linux-x86-64.so.2", "libm.so.6", "libpthread.so.0", "libdl.so.2",
                                 "librt.so.1", "linux-vdso.so.1"})
            QVERIFY2(isSystemLibrary(QLatin1String(name)), name);
        for (const char *name : {"libtorch_cpu.so.1.13", "libstdc++.so.6", "libgomp.so.1", "libc10.so", "libmkl.so"})
            QVERIFY2(!isSystemLibrary(QLatin1String(name)), name);
    }

    void bundleRunsThroughItsLauncher() {
        // Bundle this very test program (Qt libraries, libstdc++): small, dynamically linked and runnable.
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString program = QCoreApplication::applicationFilePath();
        QString error;
        const QStringList libs = sharedLibraries(program, &error);
        QVERIFY2(!libs.isEmpty(), qPrintable(error));
        EngineBundle bundle;
        QVERIFY2(createEngineBundle(program, tmp.filePath(QStringLiteral("bundle")), &bundle, &error),
                 qPrintable(error));
        QVERIFY(bundle.libraries.contains(QStringLiteral("libQt6Core.so.6")));
        QVERIFY(bundle.libraries.contains(QStringLiteral("libstdc++.so.6")));
        QVERIFY(!bundle.libraries.contains(QStringLiteral("libc.so.6")));
        QVERIFY(QFile::exists(tmp.filePath(QStringLiteral("bundle/bin/diamond-train"))));
        QVERIFY(!QFile::exists(tmp.filePath(QStringLiteral("bundle/lib/libc.so.6"))));
        QFile manifest(tmp.filePath(QStringLiteral("bundle/MANIFEST")));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QCOMPARE(manifest.readAll().count('\n'), bundle.libraries.size() + 1);
        QVERIFY(bundle.bytes > QFileInfo(program).size());
        QVERIFY(!createEngineBundle(program, tmp.filePath(QStringLiteral("bundle")), &bundle, &error));
        QVERIFY(error.contains(QLatin1String("not empty")));

        // The launcher puts lib/ first: the program then loads the bundle's copy of QtCore.
        QProcess run;
        run.start(QStringLiteral("sh"),
                  {QStringLiteral("-c"), QStringLiteral("LD_DEBUG=libs \"%1\" -functions 2>&1 >/dev/null | grep "
                                                        "'calling init:.*libQt6Core' ; \"%1\" -functions")
                                             .arg(bundle.launcher)});
        QVERIFY(run.waitForFinished(30000));
        const QString out = QString::fromLocal8Bit(run.readAllStandardOutput());
        QVERIFY2(out.contains(tmp.filePath(QStringLiteral("bundle/lib/libQt6Core.so.6"))), qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("bundleRunsThroughItsLauncher()")), qPrintable(out));

        QVERIFY2(packBundle(bundle.dir, tmp.filePath(QStringLiteral("bundle.tar.gz")), &error), qPrintable(error));
        QProcess list;
        list.start(QStringLiteral("tar"), {QStringLiteral("-tzf"), tmp.filePath(QStringLiteral("bundle.tar.gz"))});
        QVERIFY(list.waitForFinished(60000));
        QVERIFY(list.readAllStandardOutput().contains("bundle/lib/libQt6Core.so.6"));

        QVERIFY(!createEngineBundle(tmp.filePath(QStringLiteral("missing")), tmp.filePath(QStringLiteral("b2")),
                                    &bundle, &error));
        QVERIFY(!error.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestContainerRecipes)
#include "tst_container_recipes.moc"
