// The shipped templates analyse cleanly and match PyTorch's parameter counts (verified with
// torch 1.13 by resources/templates/check_templates_torch.py; ResNet-18 = torchvision's).
#include "common/test_paths.h"
#include "diamond/spec/analysis.h"

#include <QtTest>

using namespace diamond::spec;

class TestTemplates : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void totals_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("params");
        QTest::addColumn<QString>("outputShape");
        QTest::newRow("mlp") << QStringLiteral("mlp.json") << qint64(4547) << QStringLiteral("[N,3]");
        QTest::newRow("lenet5") << QStringLiteral("lenet5.json") << qint64(61706) << QStringLiteral("[N,10]");
        QTest::newRow("cnn28") << QStringLiteral("cnn28.json") << qint64(225034) << QStringLiteral("[N,10]");
        QTest::newRow("resnet18") << QStringLiteral("resnet18.json") << qint64(11689512) << QStringLiteral("[N,1000]");
        QTest::newRow("unet") << QStringLiteral("unet.json") << qint64(482466) << QStringLiteral("[N,2,64,64]");
        QTest::newRow("transformer") << QStringLiteral("transformer_classifier.json") << qint64(393476)
                                     << QStringLiteral("[N,4]");
        QTest::newRow("lstm") << QStringLiteral("lstm_regressor.json") << qint64(55425) << QStringLiteral("[N,1]");
    }

    void totals() {
        QFETCH(QString, file);
        QFETCH(qint64, params);
        QFETCH(QString, outputShape);
        const ParseResult r =
            loadSpecFile(diamond::test::sourcePath(QStringLiteral("resources/templates/") + file).toStdString());
        QVERIFY2(r.ok(), r.diagnostics.empty() ? "" : formatDiagnostic(r.diagnostics.front()).c_str());
        const Analysis a = analyze(r.spec);
        for (const auto &d : a.diagnostics)
            qWarning("%s", formatDiagnostic(d).c_str());
        QVERIFY(a.diagnostics.empty());
        QCOMPARE(a.totalParams, params);
        QVERIFY(a.totalFlops > 0);
        QCOMPARE(r.spec.outputs.size(), std::size_t(1));
        const TensorType *out = a.portType(r.spec.outputs[0].from);
        QVERIFY(out);
        QCOMPARE(QString::fromStdString(formatShape(out->shape)), outputShape);
        // Every node has a designer position.
        for (const auto &n : r.spec.nodes)
            QVERIFY2(r.spec.layout.contains(n.id), n.id.c_str());
    }

    void resnet18FlopsAreTorchvisionScale() {
        // torchvision reports 1.82 GMACs for ResNet-18 at 224x224, i.e. about 3.6 GFLOPs.
        const ParseResult r =
            loadSpecFile(diamond::test::sourcePath(QStringLiteral("resources/templates/resnet18.json")).toStdString());
        const Analysis a = analyze(r.spec);
        QVERIFY(a.totalFlops > 3'500'000'000LL);
        QVERIFY(a.totalFlops < 3'800'000'000LL);
    }
};

QTEST_APPLESS_MAIN(TestTemplates)
#include "tst_templates.moc"
