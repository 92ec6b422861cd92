// docs/diamond.spec-1.schema.json is the registry's generated schema, kept in sync by this test.
#include "common/test_paths.h"
#include "diamond/spec/registry.h"

#include <QtTest>

using namespace diamond::spec;
using nlohmann::json;

class TestSpecSchema : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void checkedInSchemaMatchesRegistry() {
        QFile f(diamond::test::sourcePath(QStringLiteral("docs/diamond.spec-1.schema.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const json onDisk = json::parse(f.readAll().toStdString());
        const json generated = specJsonSchema();
        QVERIFY2(onDisk == generated, "docs/diamond.spec-1.schema.json is stale: regenerate it with "
                                      "`build/bin/diamondctl spec schema > docs/diamond.spec-1.schema.json`");
    }

    void schemaCoversEveryLayerAndParameter() {
        const json schema = specJsonSchema();
        const json &types = schema["$defs"]["node"]["properties"]["type"]["enum"];
        for (const LayerType &t : Registry::instance().types()) {
            if (t.name == "Input") continue;
            QVERIFY2(std::find(types.begin(), types.end(), json(t.name)) != types.end(), t.name.c_str());
        }
        bool sawConv2dKernel = false;
        for (const json &variant : schema["$defs"]["node"]["allOf"]) {
            if (variant["if"]["properties"]["type"]["const"] != "Conv2d") continue;
            const json &params = variant["then"]["properties"]["params"];
            sawConv2dKernel = params["properties"].contains("kernel_size") &&
                              params["required"] == json::array({"out_channels", "kernel_size"});
        }
        QVERIFY(sawConv2dKernel);
    }
};

QTEST_APPLESS_MAIN(TestSpecSchema)
#include "tst_spec_schema.moc"
