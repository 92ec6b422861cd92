// Data sources and loadAndSplit: every source on small real files written here (CSV text, NPY/NPZ bytes, HDF5
// through the C API, IDX bytes plain and gzipped, PNG/JPEG through stb_image_write), checking shapes, dtypes,
// values, class mapping, error fields and messages; synthetic determinism; split and standardisation.
#include "data/data_internal.h"
#include "data/dataset.h"
#include "engine_error.h"

#include "common/data_file_builders.h"
#include "common/engine_error_check.h"

#include <hdf5/serial/hdf5.h>
#include <zlib.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb/stb_image_write.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>

using namespace diamond::engine;
using json = nlohmann::json;
namespace files = diamond::test::files;

namespace {

Dataset load(const std::string &source, json options = json::object(), std::uint64_t seed = 1,
             const std::string &baseDir = {}) {
    DataConfig c;
    c.source = source;
    options["source"] = source;
    c.options = options;
    c.baseDir = baseDir;
    return makeDataSource(source)->load(c, seed);
}

double populationStd(const torch::Tensor &t) {
    const torch::Tensor d = t.to(torch::kFloat64);
    return (d - d.mean()).square().mean().sqrt().item<double>();
}

std::vector<std::int64_t> toVector(const torch::Tensor &t) {
    const torch::Tensor c = t.to(torch::kInt64).contiguous();
    return std::vector<std::int64_t>(c.data_ptr<std::int64_t>(), c.data_ptr<std::int64_t>() + c.numel());
}

QByteArray tensorBytes(const torch::Tensor &t) {
    const torch::Tensor c = t.contiguous();
    return QByteArray(static_cast<const char *>(c.data_ptr()), static_cast<qsizetype>(c.numel() * c.element_size()));
}

QByteArray bytesOf(const std::string &s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); }

/// An .npy file as numpy writes it (files::npy).
QByteArray npy(const std::string &descr, const std::vector<std::int64_t> &shape, const QByteArray &data, int major = 1,
               bool fortran = false) {
    return bytesOf(files::npy(descr, shape, data.toStdString(), major, fortran));
}

QByteArray npyOf(const torch::Tensor &t, const std::string &descr, int major = 1) {
    return npy(descr, t.sizes().vec(), tensorBytes(t), major);
}

struct ZipMember {
    std::string name;
    QByteArray data;
    bool deflate = false;
    bool zip64 = false; ///< sizes and offset in zip64 extra fields, like numpy's force_zip64 writes
};

QByteArray zip(const std::vector<ZipMember> &members) {
    std::vector<files::ZipMember> built;
    for (const ZipMember &m : members)
        built.push_back({m.name, m.data.toStdString(), m.deflate, m.zip64});
    return bytesOf(files::zip(built));
}

QByteArray idx(std::uint8_t type, const std::vector<std::uint32_t> &dims, const QByteArray &bigEndianData) {
    return bytesOf(files::idx(type, dims, bigEndianData.toStdString()));
}

void h5Write(hid_t loc, const char *name, hid_t type, const std::vector<hsize_t> &dims, const void *data) {
    const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    const hid_t ds = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    QVERIFY(ds >= 0);
    QVERIFY(H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
    H5Dclose(ds);
    H5Sclose(space);
}

} // namespace

class TestDataSources : public QObject {
    Q_OBJECT

public:
    TestDataSources() { dirPath_ = dir_.path().toStdString(); }

private:
    QTemporaryDir dir_;
    std::string dirPath_;

    std::string path(const std::string &name) const { return dirPath_ + "/" + name; }

    std::string write(const std::string &name, const QByteArray &bytes) {
        const std::string p = path(name);
        QDir().mkpath(QFileInfo(QString::fromStdString(p)).absolutePath());
        QFile f(QString::fromStdString(p));
        if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", p.c_str());
        f.write(bytes);
        return p;
    }
    std::string write(const std::string &name, const char *text) { return write(name, QByteArray(text)); }

    std::string writeGz(const std::string &name, const QByteArray &bytes) {
        const std::string p = path(name);
        gzFile f = gzopen(p.c_str(), "wb");
        gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
        gzclose(f);
        return p;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // ---- registry -----------------------------------------------------------------------------------------

    void sourceNames() {
        const std::vector<std::string> names = dataSourceNames();
        for (const char *n : {"spirals", "moons", "blobs", "checkerboard", "sine", "shapes", "csv", "npy", "npz",
                              "hdf5", "idx", "image_folder"}) {
            QVERIFY2(std::find(names.begin(), names.end(), n) != names.end(), n);
            QVERIFY(makeDataSource(n) != nullptr);
        }
        CHECK_ENGINE_ERROR(makeDataSource("spiral"), "data.source", "'spiral'", "spirals", "image_folder");
    }

    // ---- synthetic ----------------------------------------------------------------------------------------

    void synthetic_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<qint64>("samples");
        QTest::addColumn<qint64>("classes");
        QTest::addColumn<QList<qint64>>("sample");
        QTest::newRow("spirals") << QStringLiteral("spirals") << qint64(3000) << qint64(3) << QList<qint64>{2};
        QTest::newRow("moons") << QStringLiteral("moons") << qint64(1000) << qint64(2) << QList<qint64>{2};
        QTest::newRow("blobs") << QStringLiteral("blobs") << qint64(1000) << qint64(3) << QList<qint64>{2};
        QTest::newRow("checkerboard") << QStringLiteral("checkerboard") << qint64(2000) << qint64(2)
                                      << QList<qint64>{2};
        QTest::newRow("sine") << QStringLiteral("sine") << qint64(1000) << qint64(0) << QList<qint64>{1};
        QTest::newRow("shapes") << QStringLiteral("shapes") << qint64(2000) << qint64(4) << QList<qint64>{1, 28, 28};
    }

    void synthetic() {
        QFETCH(QString, source);
        QFETCH(qint64, samples);
        QFETCH(qint64, classes);
        QFETCH(QList<qint64>, sample);
        const std::string name = source.toStdString();
        const Dataset d = load(name, json::object(), 5);
        QCOMPARE(d.size(), std::int64_t(samples));
        QCOMPARE(d.inputs.scalar_type(), torch::kFloat32);
        QVERIFY(d.inputs.is_contiguous());
        QCOMPARE(QList<qint64>(d.inputs.sizes().begin() + 1, d.inputs.sizes().end()), sample);
        QVERIFY(d.inputs.isfinite().all().item<bool>());
        QVERIFY(d.description.rfind(name + ": " + std::to_string(samples) + " x ", 0) == 0);
        if (classes == 0) {
            QCOMPARE(QString::fromStdString(d.task), QStringLiteral("regression"));
            QCOMPARE(d.targets.sizes().vec(), (std::vector<std::int64_t>{samples, 1}));
            QCOMPARE(d.targets.scalar_type(), torch::kFloat32);
        } else {
            QCOMPARE(QString::fromStdString(d.task), QStringLiteral("classification"));
            QCOMPARE(d.numClasses, std::int64_t(classes));
            QCOMPARE(d.targets.sizes().vec(), (std::vector<std::int64_t>{samples}));
            QCOMPARE(d.targets.scalar_type(), torch::kInt64);
            // balanced and interleaved: sample i has class i % k
            QVERIFY(torch::equal(d.targets,
                                 torch::arange(std::int64_t(samples), torch::kInt64).remainder(std::int64_t(classes))));
        }
        // deterministic in the seed
        const Dataset same = load(name, json::object(), 5);
        QVERIFY(torch::equal(d.inputs, same.inputs));
        QVERIFY(torch::equal(d.targets, same.targets));
        const Dataset other = load(name, json::object(), 6);
        QVERIFY(!torch::equal(d.inputs, other.inputs));
        // seeds that differ only in the high 32 bits differ too
        const Dataset high = load(name, json::object(), 5 + (std::uint64_t(1) << 40));
        QVERIFY(!torch::equal(d.inputs, high.inputs));
    }

    void syntheticOptions() {
        const Dataset spirals = load("spirals", {{"samples", 300}, {"arms", 5}, {"noise", 0.0}, {"turns", 1.0}});
        QCOMPARE(spirals.numClasses, std::int64_t(5));
        QCOMPARE(spirals.size(), std::int64_t(300));
        QVERIFY(spirals.inputs.norm(2, 1).max().item<float>() <= 1.0f + 1e-5f); // radius t in [0, 1)
        const Dataset blobs = load("blobs", {{"samples", 100}, {"centers", 4}, {"features", 7}, {"spread", 0.5}});
        QCOMPARE(blobs.inputs.sizes().vec(), (std::vector<std::int64_t>{100, 7}));
        QCOMPARE(blobs.numClasses, std::int64_t(4));
        const Dataset sine = load("sine", {{"samples", 500}, {"noise", 0.0}});
        QVERIFY(sine.inputs.abs().max().item<float>() <= 3.1416f);
        QVERIFY(torch::allclose(sine.targets, sine.inputs.sin(), 1e-5, 1e-5));
        const Dataset board = load("checkerboard", {{"samples", 400}, {"tiles", 3}});
        QVERIFY(board.inputs.abs().max().item<float>() <= 1.0f);
        const torch::Tensor cell = ((board.inputs + 1) / 2 * 3).floor().clamp(0, 2).to(torch::kInt64);
        QVERIFY(torch::equal((cell.select(1, 0) + cell.select(1, 1)).remainder(2), board.targets));
        const Dataset shapes = load("shapes", {{"samples", 40}, {"size", 16}, {"noise", 0.0}});
        QCOMPARE(shapes.inputs.sizes().vec(), (std::vector<std::int64_t>{40, 1, 16, 16}));
        QVERIFY(shapes.inputs.min().item<float>() >= 0.0f && shapes.inputs.max().item<float>() <= 1.0f);
        QCOMPARE(shapes.classNames, (std::vector<std::string>{"circle", "square", "triangle", "cross"}));
        // every noise-free image holds a shape
        QVERIFY(shapes.inputs.flatten(1).amax(1).gt(0.4).all().item<bool>());
        const Dataset moons = load("moons", {{"samples", 10}, {"noise", 0.0}});
        QCOMPARE(moons.classNames.size(), std::size_t(2));
    }

    /// Large synthetic sets are drawn in blocks on several threads: the values depend on the seed
    /// only, and the blob noise, spread and centres land on the right rows.
    void standardNormalRowsIsIndependentOfWorkers() {
        at::Generator a = data::seededGenerator(9, 1), b = data::seededGenerator(9, 1);
        const torch::Tensor one = data::standardNormalRows({30000, 7}, a, 1); // 4 blocks of whole rows
        const torch::Tensor three = data::standardNormalRows({30000, 7}, b, 3);
        QVERIFY(torch::equal(one, three));
        QCOMPARE(one.sizes().vec(), (std::vector<std::int64_t>{30000, 7}));
        QVERIFY(std::fabs(one.mean().item<double>()) < 0.02);
        QVERIFY(std::fabs(one.std().item<double>() - 1.0) < 0.02);
        // blocks draw from different generators: no block repeats the first one
        const std::int64_t rowsPerBlock = (std::int64_t(1) << 16) / 7;
        QVERIFY(!torch::equal(one.narrow(0, 0, 100), one.narrow(0, rowsPerBlock, 100)));
        // the generator advances: a second draw differs
        QVERIFY(!torch::equal(data::standardNormalRows({30000, 7}, a, 2), one));
        // perRow sees each row once, with its index; a failure reaches the caller
        std::vector<std::atomic<int>> seen(30000);
        data::standardNormalRows({30000, 7}, a, 3, [&](std::int64_t row, float *) { ++seen[row]; });
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](const std::atomic<int> &n) { return n == 1; }));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 data::standardNormalRows({30000, 7}, a, 3, [](std::int64_t row, float *) {
                                     if (row == 20000) throw std::runtime_error("row 20000");
                                 }));

        const Dataset blobs = load("blobs", {{"samples", 30000}, {"centers", 3}, {"features", 5}, {"spread", 0.5}});
        for (std::int64_t k = 0; k < 3; ++k) {
            const torch::Tensor rows = blobs.inputs.index_select(0, blobs.targets.eq(k).nonzero().squeeze(1));
            QCOMPARE(rows.size(0), std::int64_t(10000));
            const torch::Tensor centre = rows.mean(0), spread = rows.std(0);
            QVERIFY(centre.abs().max().item<float>() <= 10.05f);
            QVERIFY2((spread - 0.5).abs().max().item<float>() < 0.02f,
                     std::to_string(spread.max().item<float>()).c_str());
            if (k > 0) { // distinct centres: blobs are told apart by their centre
                const torch::Tensor previous =
                    blobs.inputs.index_select(0, blobs.targets.eq(k - 1).nonzero().squeeze(1)).mean(0);
                QVERIFY((centre - previous).abs().max().item<float>() > 0.1f);
            }
        }
    }

    void syntheticOptionErrors() {
        CHECK_ENGINE_ERROR(load("spirals", {{"samples", -3}}), "data.samples", "data.samples", "-3");
        CHECK_ENGINE_ERROR(load("spirals", {{"samples", 2}}), "data.samples", "number of classes");
        CHECK_ENGINE_ERROR(load("spirals", {{"noise", "a lot"}}), "data.noise", "must be a number");
        CHECK_ENGINE_ERROR(load("moons", {{"sampels", 100}}), "data.sampels", "not an option", "moons", "samples");
        CHECK_ENGINE_ERROR(load("blobs", {{"centers", 2.5}}), "data.centers", "integer");
    }

    /// The later requirement: an MLP 2-64-64-3 learns the default spirals to >= 95 % validation accuracy.
    void spiralsAreLearnable() {
        DataConfig config;
        config.source = "spirals";
        config.options = {{"source", "spirals"}};
        const SplitData data = loadAndSplit(config, 1);
        torch::manual_seed(1);
        torch::nn::Sequential net(torch::nn::Linear(2, 64), torch::nn::ReLU(), torch::nn::Linear(64, 64),
                                  torch::nn::ReLU(), torch::nn::Linear(64, 3));
        torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(3e-3));
        BatchSampler sampler(data.train.size(), 32, 1);
        for (std::int64_t epoch = 0; epoch < 60; ++epoch) {
            for (std::int64_t b = 0; b < sampler.batchesPerEpoch(); ++b) {
                const torch::Tensor idx = sampler.indices(epoch, b);
                opt.zero_grad();
                const torch::Tensor loss = torch::nn::functional::cross_entropy(
                    net->forward(data.train.inputs.index_select(0, idx)), data.train.targets.index_select(0, idx));
                loss.backward();
                opt.step();
            }
        }
        torch::NoGradGuard noGrad;
        const double accuracy = net->forward(data.validation.inputs)
                                    .argmax(1)
                                    .eq(data.validation.targets)
                                    .to(torch::kFloat64)
                                    .mean()
                                    .item<double>();
        qInfo("spirals validation accuracy: %.4f", accuracy);
        QVERIFY2(accuracy >= 0.95, qPrintable(QString::number(accuracy)));
    }

    // ---- csv ----------------------------------------------------------------------------------------------

    void csvClassification() {
        const std::string file = write("iris.csv", "sepal_length,sepal_width,petal_length,species\r\n"
                                                   "5.1,3.5,1.4,setosa\r\n"
                                                   "7.0,3.2,4.7,versicolor\r\n"
                                                   "\r\n"
                                                   "6.3, 3.3 ,6.0,\"virginica\"\r\n"
                                                   "4.9,3.0,1.4,setosa\r\n");
        const Dataset d = load("csv", {{"path", file}, {"target", "species"}});
        QCOMPARE(d.inputs.sizes().vec(), (std::vector<std::int64_t>{4, 3}));
        QCOMPARE(d.inputs.scalar_type(), torch::kFloat32);
        QVERIFY(torch::allclose(d.inputs[2], torch::tensor({6.3f, 3.3f, 6.0f})));
        QCOMPARE(QString::fromStdString(d.task), QStringLiteral("classification"));
        QCOMPARE(d.classNames, (std::vector<std::string>{"setosa", "versicolor", "virginica"}));
        QCOMPARE(d.numClasses, std::int64_t(3));
        QCOMPARE(toVector(d.targets), (std::vector<std::int64_t>{0, 1, 2, 0}));
        QVERIFY(d.description.find("4 x [3], 3 classes") != std::string::npos);

        // chosen features, in the listed order, relative path against baseDir
        const Dataset f = load(
            "csv",
            {{"path", "iris.csv"}, {"target", "species"}, {"features", json::array({"petal_length", "sepal_length"})}},
            1, dirPath_);
        QVERIFY(torch::allclose(f.inputs[1], torch::tensor({4.7f, 7.0f})));
    }

    void csvNumericTargets() {
        // integer-valued target: classification, classes sorted numerically ("2" before "10")
        const std::string ints = write("ints.csv", "a;b;label\n1;2;10\n3;4;2\n5;6;10\n7;8;7\n");
        const Dataset c = load("csv", {{"path", ints}, {"target", "label"}, {"delimiter", ";"}});
        QCOMPARE(QString::fromStdString(c.task), QStringLiteral("classification"));
        QCOMPARE(c.classNames, (std::vector<std::string>{"2", "7", "10"}));
        QCOMPARE(toVector(c.targets), (std::vector<std::int64_t>{2, 0, 2, 1}));
        // fractional target: regression [S, 1]
        const std::string reals = write("reals.csv", "x,y\n1,0.5\n2,1.5\n3,-2.25\n");
        const Dataset r = load("csv", {{"path", reals}, {"target", "y"}});
        QCOMPARE(QString::fromStdString(r.task), QStringLiteral("regression"));
        QCOMPARE(r.targets.sizes().vec(), (std::vector<std::int64_t>{3, 1}));
        QVERIFY(torch::allclose(r.targets.flatten(), torch::tensor({0.5f, 1.5f, -2.25f})));
        // task override, several regression targets
        const Dataset forced =
            load("csv", {{"path", ints}, {"target", "label"}, {"delimiter", ";"}, {"task", "regression"}});
        QCOMPARE(QString::fromStdString(forced.task), QStringLiteral("regression"));
        const Dataset multi =
            load("csv", {{"path", ints}, {"target", json::array({"b", "label"})}, {"delimiter", ";"}});
        QCOMPARE(multi.targets.sizes().vec(), (std::vector<std::int64_t>{4, 2}));
        QCOMPARE(multi.inputs.sizes().vec(), (std::vector<std::int64_t>{4, 1}));
        // no header: columns are 0, 1, 2; tab delimiter; quoted field with a delimiter and an escaped quote
        const std::string tsv = write("plain.tsv", "1\t2\t\"a\tb \"\"x\"\"\"\n3\t4\tc\n");
        const Dataset t = load("csv", {{"path", tsv}, {"header", false}, {"target", 2}, {"delimiter", "\t"}});
        QCOMPARE(t.classNames, (std::vector<std::string>{"a\tb \"x\"", "c"}));
        QCOMPARE(t.inputs.sizes().vec(), (std::vector<std::int64_t>{2, 2}));
        // gzip-compressed CSV
        const std::string gz = writeGz("reals.csv.gz", QByteArray("x,y\n1,0.5\n2,1.5\n"));
        QCOMPARE(load("csv", {{"path", gz}, {"target", "y"}}).size(), std::int64_t(2));
    }

    void csvErrors() {
        const std::string file = write("bad.csv", "a,b,label\n1,2,x\n3,oops,y\n");
        CHECK_ENGINE_ERROR(load("csv", {{"path", file}, {"target", "species"}}), "data.target", "no column 'species'",
                           "'a', 'b', 'label'");
        CHECK_ENGINE_ERROR(load("csv", {{"path", file}, {"target", "label"}, {"features", json::array({"a", "c"})}}),
                           "data.features", "no column 'c'");
        CHECK_ENGINE_ERROR(load("csv", {{"path", file}, {"target", "label"}}), "data.features", "bad.csv:3:", "'b'",
                           "'oops'");
        const std::string ragged = write("ragged.csv", "a,b,label\n1,2,x\n3,4\n");
        CHECK_ENGINE_ERROR(load("csv", {{"path", ragged}, {"target", "label"}}), "data.path",
                           "ragged.csv:3:", "2 fields", "3");
        CHECK_ENGINE_ERROR(load("csv", {{"path", file}}), "data.target", "data.target");
        CHECK_ENGINE_ERROR(load("csv", {{"target", "label"}}), "data.path", "data.path");
        CHECK_ENGINE_ERROR(load("csv", {{"path", path("missing.csv")}, {"target", "label"}}), "data.path",
                           "missing.csv");
        const std::string text = write("text.csv", "a,label\n1,x\n2,y\n");
        CHECK_ENGINE_ERROR(load("csv", {{"path", text}, {"target", "label"}, {"task", "regression"}}), "data.target",
                           "text.csv:2:", "'x'");
        const std::string empty = write("empty.csv", "a,label\n1,\n");
        CHECK_ENGINE_ERROR(load("csv", {{"path", empty}, {"target", "label"}}), "data.target", "empty.csv:2:");
        const std::string unclosed = write("unclosed.csv", "a,label\n1,\"x\n");
        CHECK_ENGINE_ERROR(load("csv", {{"path", unclosed}, {"target", "label"}}), "data.path", "unclosed.csv:2:");
        CHECK_ENGINE_ERROR(load("csv", {{"path", file}, {"target", "label"}, {"delimiter", ";;"}}), "data.delimiter");
        CHECK_ENGINE_ERROR(load("csv", {{"path", file}, {"target", "label"}, {"header", "maybe"}}), "data.header");
    }

    void csvSkipRowsAndHeaderDetection() {
        // scikit-learn's bundled files: a line of counts and class names above the table.
        std::string text = "6,3,malignant,benign\n";
        for (int i = 0; i < 6; ++i)
            text += std::to_string(i) + "," + std::to_string(i * 2) + "," + std::to_string(i * 3) + "," +
                    std::to_string(i * 4) + "," + std::to_string(i % 2) + "\n";
        const std::string sk = write("breast_cancer.csv", text.c_str());
        CHECK_ENGINE_ERROR(load("csv", {{"path", sk}, {"target", "benign"}}), "data.path",
                           "breast_cancer.csv:2:", "5 fields", "header (line 1) has 4", "\"skip_rows\": 1");
        const std::string wide = write("wide.csv", "a,b\n1,2,3\n");
        CHECK_ENGINE_ERROR(load("csv", {{"path", wide}, {"target", "b"}}), "data.path", "wide.csv:2:", "3 fields",
                           "skip_rows");
        Dataset d = load("csv", {{"path", sk}, {"skip_rows", 1}, {"header", false}, {"target", 4}});
        QCOMPARE(d.inputs.size(0), std::int64_t(6));
        QCOMPARE(d.inputs.size(1), std::int64_t(4));
        QCOMPARE(d.inputs[5][2].item<float>(), 15.0f);
        // "auto": no header above numbers ...
        d = load("csv", {{"path", sk}, {"skip_rows", 1}, {"header", "auto"}, {"target", 4}});
        QCOMPARE(d.inputs.size(0), std::int64_t(6));
        // ... a header above numbers; line numbers count the skipped lines.
        const std::string named = write("named.csv", "# exported 2026\nx,y,label\n1,2,a\n3,4,b\n5,oops,a\n");
        CHECK_ENGINE_ERROR(load("csv", {{"path", named}, {"skip_rows", 1}, {"header", "auto"}, {"target", "label"}}),
                           "data.features", "named.csv:5:", "'oops'");
        const std::string good = write("good.csv", "# exported 2026\nx,y,label\n1,2,a\n3,4,b\n5,6,a\n");
        d = load("csv", {{"path", good}, {"skip_rows", 1}, {"header", "auto"}, {"target", "label"}});
        QCOMPARE(d.inputs.size(0), std::int64_t(3));
        QCOMPARE(d.classNames.size(), std::size_t(2));
        CHECK_ENGINE_ERROR(load("csv", {{"path", good}, {"skip_rows", -1}, {"target", "label"}}), "data.skip_rows");
    }

    // ---- npy / npz ----------------------------------------------------------------------------------------

    void npyArrays() {
        const torch::Tensor x = torch::arange(24, torch::kFloat32).reshape({6, 4}) / 8;
        const torch::Tensor y = torch::tensor({0, 1, 2, 1, 0, 2}, torch::kInt64);
        const std::string xs = write("x.npy", npyOf(x, "<f4"));
        const std::string ys = write("y.npy", npyOf(y, "<i8"));
        Dataset d = load("npy", {{"inputs", xs}, {"targets", ys}});
        QVERIFY(torch::equal(d.inputs, x));
        QVERIFY(torch::equal(d.targets, y));
        QCOMPARE(d.numClasses, std::int64_t(3));
        QCOMPARE(QString::fromStdString(d.task), QStringLiteral("classification"));
        // the tensor aliases the mapping copy-on-write: writing to it leaves the file alone
        d.inputs.add_(1);
        QVERIFY(torch::equal(load("npy", {{"inputs", xs}, {"targets", ys}}).inputs, x));

        // versions 2.0 and 3.0, float64 inputs (converted), int32 targets
        const std::string x2 = write("x2.npy", npyOf(x.to(torch::kFloat64), "<f8", 2));
        const std::string y3 = write("y3.npy", npyOf(y.to(torch::kInt32), "<i4", 3));
        const Dataset v = load("npy", {{"inputs", x2}, {"targets", y3}});
        QCOMPARE(v.inputs.scalar_type(), torch::kFloat32);
        QVERIFY(torch::equal(v.inputs, x));
        QVERIFY(torch::equal(v.targets, y));

        // int32 inputs are token ids (int64), uint8 inputs floats; bool targets classes; float targets regression
        const std::string tok = write("tok.npy", npyOf(torch::arange(12, torch::kInt32).reshape({6, 2}), "<i4"));
        const std::string u8 = write("u8.npy", npyOf(torch::arange(12, torch::kUInt8).reshape({6, 2}), "|u1"));
        const std::string b1 = write("b1.npy", npyOf(torch::tensor({1, 0, 1, 1, 0, 0}, torch::kBool), "|b1"));
        const std::string f4 = write("f4.npy", npyOf(torch::arange(6, torch::kFloat32) * 0.5, "<f4"));
        const Dataset t = load("npy", {{"inputs", tok}, {"targets", b1}});
        QCOMPARE(t.inputs.scalar_type(), torch::kInt64);
        QCOMPARE(toVector(t.targets), (std::vector<std::int64_t>{1, 0, 1, 1, 0, 0}));
        QCOMPARE(t.numClasses, std::int64_t(2));
        const Dataset u = load("npy", {{"inputs", u8}, {"targets", f4}});
        QCOMPARE(u.inputs.scalar_type(), torch::kFloat32);
        QCOMPARE(u.inputs[5][1].item<float>(), 11.0f);
        QCOMPARE(QString::fromStdString(u.task), QStringLiteral("regression"));
        QCOMPARE(u.targets.sizes().vec(), (std::vector<std::int64_t>{6, 1}));
        const Dataset asFloat = load("npy", {{"inputs", tok}, {"targets", ys}, {"input_dtype", "float32"}});
        QCOMPARE(asFloat.inputs.scalar_type(), torch::kFloat32);
    }

    void npyErrors() {
        const torch::Tensor x = torch::zeros({4, 3});
        const std::string ys = write("e_y.npy", npyOf(torch::tensor({0, 1, 0, 1}, torch::kInt64), "<i8"));
        const std::string fortran = write("fortran.npy", npy("<f4", {4, 3}, tensorBytes(x), 1, true));
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", fortran}, {"targets", ys}}), "data.inputs", "fortran.npy",
                           "Fortran order");
        const std::string big = write("big.npy", npy(">f4", {4, 3}, tensorBytes(x)));
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", big}, {"targets", ys}}), "data.inputs", "big-endian");
        const std::string f2 = write("f2.npy", npy("<f2", {4, 3}, tensorBytes(x).left(24)));
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", f2}, {"targets", ys}}), "data.inputs", "'<f2'", "<f4");
        const std::string cut = write("cut.npy", npy("<f4", {4, 3}, tensorBytes(x).left(40)));
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", cut}, {"targets", ys}}), "data.inputs", "truncated", "48 bytes");
        const std::string junk = write("junk.npy", "not numpy at all");
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", junk}, {"targets", ys}}), "data.inputs", "junk.npy", "magic");
        const std::string three = write("three.npy", npyOf(torch::zeros({3, 3}), "<f4"));
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", three}, {"targets", ys}}), "data.targets", "[4]", "3 samples");
        const std::string halves = write("halves.npy", npyOf(torch::arange(4, torch::kFloat32) * 0.5, "<f4"));
        const std::string xs = write("e_x.npy", npyOf(x, "<f4"));
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", xs}, {"targets", halves}, {"task", "classification"}}),
                           "data.targets", "non-integer");
        const std::string negative = write("neg.npy", npyOf(torch::tensor({0, -1, 0, 1}, torch::kInt64), "<i8"));
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", xs}, {"targets", negative}}), "data.targets", "negative");
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", path("nothing.npy")}, {"targets", ys}}), "data.inputs",
                           "nothing.npy", "No such file");
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", xs}}), "data.targets");
    }

    void npzArchives() {
        const torch::Tensor x = torch::randn({50, 3, 4});
        const torch::Tensor y = torch::randint(5, {50}, torch::kInt64);
        // stored members (one at an odd offset: copied instead of aliased), deflated members, zip64 extras
        const std::string stored = write("stored.npz", zip({{"x.npy", npyOf(x, "<f4")}, {"y.npy", npyOf(y, "<i8")}}));
        const std::string odd = write("odd.npz", zip({{"y.npy", npyOf(y, "<i8")}, {"xx.npy", npyOf(x, "<f4")}}));
        const std::string deflated =
            write("deflated.npz", zip({{"x.npy", npyOf(x, "<f4"), true}, {"y.npy", npyOf(y, "<i8"), true}}));
        const std::string zip64 =
            write("zip64.npz",
                  zip({{"features.npy", npyOf(x, "<f4"), false, true}, {"labels.npy", npyOf(y, "<i8"), true, true}}));
        for (const std::string &file : {stored, deflated}) {
            const Dataset d = load("npz", {{"path", file}});
            QVERIFY(torch::equal(d.inputs, x));
            QVERIFY(torch::equal(d.targets, y));
            QCOMPARE(d.numClasses, y.max().item<std::int64_t>() + 1);
        }
        const Dataset o = load("npz", {{"path", odd}, {"inputs", "xx"}});
        QVERIFY(torch::equal(o.inputs, x));
        const Dataset z = load("npz", {{"path", zip64}, {"inputs", "features"}, {"targets", "labels.npy"}});
        QVERIFY(torch::equal(z.inputs, x));
        QVERIFY(torch::equal(z.targets, y));

        CHECK_ENGINE_ERROR(load("npz", {{"path", stored}, {"inputs", "images"}}), "data.inputs", "no array 'images'",
                           "'x', 'y'");
        QByteArray corrupt = QByteArray::fromStdString(std::string(8, 'z'));
        const std::string notZip = write("notzip.npz", corrupt);
        CHECK_ENGINE_ERROR(load("npz", {{"path", notZip}}), "data.path", "notzip.npz", "zip");
        QByteArray damaged = zip({{"x.npy", npyOf(x, "<f4"), true}, {"y.npy", npyOf(y, "<i8"), true}});
        damaged[60] = static_cast<char>(damaged[60] ^ 0x5A);
        const std::string bad = write("damaged.npz", damaged);
        CHECK_ENGINE_ERROR(load("npz", {{"path", bad}}), "data.path", "damaged.npz");
    }

    // ---- hdf5 ---------------------------------------------------------------------------------------------

    void hdf5Datasets() {
        const std::string file = path("data.h5");
        const std::int64_t rows = 10000; // more than one 4096-row hyperslab
        const torch::Tensor x = torch::randn({rows, 5}, torch::kFloat64);
        const torch::Tensor y = torch::randint(7, {rows}, torch::kInt64);
        const torch::Tensor img = torch::randint(256, {20, 2, 3, 3}, torch::kUInt8);
        const torch::Tensor tok = torch::randint(100, {20, 6}, torch::kInt32);
        const torch::Tensor reg = torch::randn({20, 2}, torch::kFloat32);
        {
            const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
            QVERIFY(f >= 0);
            h5Write(f, "x", H5T_NATIVE_DOUBLE, {hsize_t(rows), 5}, x.data_ptr());
            h5Write(f, "y", H5T_NATIVE_INT64, {hsize_t(rows)}, y.data_ptr());
            const hid_t g = H5Gcreate2(f, "small", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
            h5Write(g, "images", H5T_NATIVE_UINT8, {20, 2, 3, 3}, img.data_ptr());
            h5Write(g, "tokens", H5T_NATIVE_INT32, {20, 6}, tok.data_ptr());
            h5Write(g, "values", H5T_NATIVE_FLOAT, {20, 2}, reg.data_ptr());
            H5Gclose(g);
            H5Fclose(f);
        }
        const Dataset d = load("hdf5", {{"path", file}});
        QCOMPARE(d.inputs.scalar_type(), torch::kFloat32);
        QVERIFY(torch::equal(d.inputs, x.to(torch::kFloat32)));
        QVERIFY(torch::equal(d.targets, y));
        QCOMPARE(d.numClasses, y.max().item<std::int64_t>() + 1);

        const Dataset images =
            load("hdf5", {{"path", file}, {"inputs", "/small/images"}, {"targets", "/small/values"}});
        QCOMPARE(images.inputs.sizes().vec(), (std::vector<std::int64_t>{20, 2, 3, 3}));
        QVERIFY(torch::equal(images.inputs, img.to(torch::kFloat32)));
        QCOMPARE(QString::fromStdString(images.task), QStringLiteral("regression"));
        QVERIFY(torch::equal(images.targets, reg));
        const Dataset tokens =
            load("hdf5", {{"path", file}, {"inputs", "/small/tokens"}, {"targets", "/small/values"}});
        QCOMPARE(tokens.inputs.scalar_type(), torch::kInt64);
        QVERIFY(torch::equal(tokens.inputs, tok.to(torch::kInt64)));

        CHECK_ENGINE_ERROR(load("hdf5", {{"path", file}, {"inputs", "/features"}}), "data.inputs", "'/features'", "/x",
                           "/small/images");
        CHECK_ENGINE_ERROR(load("hdf5", {{"path", file}, {"inputs", "/small"}}), "data.inputs", "not a dataset");
        CHECK_ENGINE_ERROR(load("hdf5", {{"path", file}, {"targets", "/small/values"}}), "data.targets", "[20, 2]");
        const std::string junk = write("junk.h5", "not hdf5");
        CHECK_ENGINE_ERROR(load("hdf5", {{"path", junk}}), "data.path", "junk.h5", "not an HDF5 file");
        CHECK_ENGINE_ERROR(load("hdf5", {{"path", path("none.h5")}}), "data.path", "none.h5");
    }

    // ---- idx ----------------------------------------------------------------------------------------------

    void idxFiles() {
        const torch::Tensor pixels = torch::randint(256, {30, 4, 5}, torch::kUInt8);
        const torch::Tensor labels = torch::arange(30, torch::kUInt8).remainder(10);
        const QByteArray images = idx(0x08, {30, 4, 5}, tensorBytes(pixels));
        const QByteArray labelBytes = idx(0x08, {30}, tensorBytes(labels));
        const std::string plainImages = write("train-images-idx3-ubyte", images);
        const std::string gzImages = writeGz("train-images-idx3-ubyte.gz", images);
        const std::string gzLabels = writeGz("train-labels-idx1-ubyte.gz", labelBytes);
        for (const std::string &imageFile : {plainImages, gzImages}) {
            const Dataset d = load("idx", {{"images", imageFile}, {"labels", gzLabels}});
            QCOMPARE(d.inputs.sizes().vec(), (std::vector<std::int64_t>{30, 1, 4, 5}));
            QCOMPARE(d.inputs.scalar_type(), torch::kFloat32);
            QVERIFY(torch::allclose(d.inputs.squeeze(1), pixels.to(torch::kFloat32) / 255));
            QCOMPARE(d.targets.scalar_type(), torch::kInt64);
            QVERIFY(torch::equal(d.targets, labels.to(torch::kInt64)));
            QCOMPARE(d.numClasses, std::int64_t(10));
        }
        // big-endian float32 images are converted as they are
        QByteArray floats;
        for (const float v : {1.5f, -2.0f, 0.25f, 8.0f}) {
            std::uint32_t u = 0;
            std::memcpy(&u, &v, 4);
            for (int s = 24; s >= 0; s -= 8)
                floats.append(static_cast<char>((u >> s) & 0xFF));
        }
        const std::string f32 = write("f32-idx", idx(0x0D, {2, 1, 2}, floats));
        const std::string two = write("two-labels", idx(0x08, {2}, QByteArray("\x01\x00", 2)));
        const Dataset f = load("idx", {{"images", f32}, {"labels", two}});
        QVERIFY(torch::equal(f.inputs.flatten(), torch::tensor({1.5f, -2.0f, 0.25f, 8.0f})));

        CHECK_ENGINE_ERROR(load("idx", {{"images", plainImages}, {"labels", two}}), "data.labels", "2 labels",
                           "30 images");
        const std::string cut = write("cut-idx", images.left(100));
        CHECK_ENGINE_ERROR(load("idx", {{"images", cut}, {"labels", gzLabels}}), "data.images", "cut-idx", "truncated");
        CHECK_ENGINE_ERROR(load("idx", {{"images", two}, {"labels", gzLabels}}), "data.images", "[2]");
        CHECK_ENGINE_ERROR(load("idx", {{"images", plainImages}}), "data.labels");
    }

    // ---- image_folder -------------------------------------------------------------------------------------

    void imageFolder() {
        // classes "dog" and "cat" (created in that order; sorted: cat = 0, dog = 1)
        QDir().mkpath(QString::fromStdString(path("pets/dog")));
        QDir().mkpath(QString::fromStdString(path("pets/cat/more")));
        QDir().mkpath(QString::fromStdString(path("pets/.hidden")));
        auto solid = [](int w, int h, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
            std::vector<std::uint8_t> px;
            for (int i = 0; i < w * h; ++i)
                px.insert(px.end(), {r, g, b});
            return px;
        };
        const auto red = solid(6, 4, 255, 0, 0), blue = solid(6, 4, 0, 0, 255), grey = solid(6, 4, 128, 128, 128);
        QVERIFY(stbi_write_png(path("pets/dog/a.png").c_str(), 6, 4, 3, red.data(), 18));
        QVERIFY(stbi_write_png(path("pets/dog/b.PNG").c_str(), 6, 4, 3, blue.data(), 18));
        QVERIFY(stbi_write_jpg(path("pets/cat/c.jpg").c_str(), 6, 4, 3, grey.data(), 100));
        QVERIFY(stbi_write_png(path("pets/cat/more/d.png").c_str(), 6, 4, 3, red.data(), 18));
        write("pets/cat/notes.txt", "not an image");

        const Dataset d = load("image_folder", {{"path", path("pets")}});
        QCOMPARE(d.inputs.sizes().vec(), (std::vector<std::int64_t>{4, 3, 4, 6}));
        QCOMPARE(d.classNames, (std::vector<std::string>{"cat", "dog"}));
        QCOMPARE(d.numClasses, std::int64_t(2));
        QCOMPARE(toVector(d.targets), (std::vector<std::int64_t>{0, 0, 1, 1}));
        // cat/c.jpg (grey, JPEG within a few levels), cat/more/d.png (red), dog/a.png (red), dog/b.PNG (blue)
        QVERIFY(d.inputs[0].sub(128.0 / 255).abs().max().item<float>() < 3.0f / 255);
        QVERIFY(torch::equal(d.inputs[1][0], torch::ones({4, 6})) &&
                torch::equal(d.inputs[1][2], torch::zeros({4, 6})));
        QVERIFY(torch::equal(d.inputs[3][2], torch::ones({4, 6})));

        const Dataset small = load("image_folder", {{"path", path("pets")}, {"size", {2, 3}}, {"grayscale", true}});
        QCOMPARE(small.inputs.sizes().vec(), (std::vector<std::int64_t>{4, 1, 2, 3}));
        QVERIFY(small.inputs.min().item<float>() >= 0.0f && small.inputs.max().item<float>() <= 1.0f);
        // luminance of pure red and pure blue (stb: (77 r + 150 g + 29 b) / 256)
        QVERIFY(std::fabs(small.inputs[1].mean().item<float>() - 76.0f / 255) < 2.0f / 255);
        QVERIFY(std::fabs(small.inputs[3].mean().item<float>() - 28.0f / 255) < 2.0f / 255);
        const Dataset square = load("image_folder", {{"path", path("pets")}, {"size", 8}});
        QCOMPARE(square.inputs.sizes().vec(), (std::vector<std::int64_t>{4, 3, 8, 8}));
        QVERIFY(torch::allclose(square.inputs[2][0], torch::ones({8, 8}))); // upscaled solid red stays solid

        QVERIFY(stbi_write_png(path("pets/dog/wide.png").c_str(), 2, 1, 3, red.data(), 6));
        CHECK_ENGINE_ERROR(load("image_folder", {{"path", path("pets")}}), "data.size", "wide.png", "2x1");
        QDir().mkpath(QString::fromStdString(path("pets/empty")));
        CHECK_ENGINE_ERROR(load("image_folder", {{"path", path("pets")}, {"size", {4, 4}}}), "data.path", "empty",
                           "no images");
        QDir(QString::fromStdString(path("pets/empty"))).removeRecursively();
        write("pets/dog/broken.png", "\x89PNG but broken");
        CHECK_ENGINE_ERROR(load("image_folder", {{"path", path("pets")}, {"size", {4, 4}}}), "data.path", "broken.png");
        CHECK_ENGINE_ERROR(load("image_folder", {{"path", path("pets")}, {"size", {0, 4}}}), "data.size");
        CHECK_ENGINE_ERROR(load("image_folder", {{"path", path("nope")}}), "data.path", "not a folder");
    }

    // ---- loadAndSplit -------------------------------------------------------------------------------------

    void splitAndStandardise() {
        // sample i: features (i, 3 * i + 1, 5 (constant)), class i % 3
        const std::int64_t n = 1000;
        const torch::Tensor id = torch::arange(n, torch::kFloat32);
        const torch::Tensor x = torch::stack({id, id * 3 + 1, torch::full({n}, 5.0f)}, 1);
        const std::string xs = write("split_x.npy", npyOf(x, "<f4"));
        const std::string ys = write("split_y.npy", npyOf(torch::arange(n, torch::kInt64).remainder(3), "<i8"));
        DataConfig c;
        c.source = "npy";
        c.options = {{"source", "npy"}, {"inputs", xs}, {"targets", ys}};
        c.validationSplit = 0.2;
        c.standardize = false;
        const SplitData raw = loadAndSplit(c, 3);
        QCOMPARE(raw.train.size(), std::int64_t(800));
        QCOMPARE(raw.validation.size(), std::int64_t(200));
        QVERIFY(!raw.mean.defined() && !raw.std.defined());
        QCOMPARE(QString::fromStdString(raw.validation.task), QStringLiteral("classification"));
        QCOMPARE(raw.validation.numClasses, std::int64_t(3));
        std::set<std::int64_t> train, validation;
        for (const auto i : toVector(raw.train.inputs.select(1, 0)))
            train.insert(i);
        for (const auto i : toVector(raw.validation.inputs.select(1, 0)))
            validation.insert(i);
        QCOMPARE(train.size(), std::size_t(800));
        QCOMPARE(validation.size(), std::size_t(200));
        for (const auto i : validation)
            QVERIFY(!train.count(i));
        // targets follow their inputs
        QVERIFY(torch::equal(raw.train.inputs.select(1, 0).to(torch::kInt64).remainder(3), raw.train.targets));
        // the split is shuffled and deterministic in the seed
        QVERIFY(*validation.rbegin() < n && *validation.begin() < 100);
        QVERIFY(torch::equal(loadAndSplit(c, 3).validation.inputs, raw.validation.inputs));
        QVERIFY(!torch::equal(loadAndSplit(c, 4).validation.inputs, raw.validation.inputs));

        c.standardize = true;
        const SplitData s = loadAndSplit(c, 3);
        QCOMPARE(s.mean.sizes().vec(), (std::vector<std::int64_t>{3}));
        QCOMPARE(s.std.sizes().vec(), (std::vector<std::int64_t>{3}));
        QVERIFY(s.train.inputs.mean(0).abs().max().item<float>() < 1e-4f);
        QVERIFY(std::fabs(populationStd(s.train.inputs.select(1, 0)) - 1.0) < 1e-4);
        // statistics from the train split only, applied to both splits
        const torch::Tensor trainRaw = raw.train.inputs;
        QVERIFY(torch::allclose(s.mean, trainRaw.mean(0), 1e-3, 1e-3));
        QVERIFY(std::fabs(s.std[0].item<double>() - populationStd(trainRaw.select(1, 0))) < 1e-3);
        QVERIFY(std::fabs(s.std[1].item<double>() - populationStd(trainRaw.select(1, 1))) < 1e-3);
        QCOMPARE(s.std[2].item<float>(), 1.0f); // constant feature: std 0 -> 1
        QVERIFY(s.train.inputs.select(1, 2).eq(0).all().item<bool>());
        QVERIFY(torch::allclose(s.validation.inputs, (raw.validation.inputs - s.mean) / s.std, 1e-5, 1e-5));
        QVERIFY(s.validation.inputs.mean(0).abs().max().item<float>() > 1e-4f); // not its own statistics

        // no validation split: every sample trains, in its order (the sampler shuffles)
        c.validationSplit = 0.0;
        const SplitData all = loadAndSplit(c, 3);
        QCOMPARE(all.train.size(), n);
        QCOMPARE(all.validation.size(), std::int64_t(0));
        QCOMPARE(all.validation.inputs.dim(), std::int64_t(2));
        QVERIFY(all.mean.defined());
        QVERIFY(torch::allclose(all.train.inputs, (x - all.mean) / all.std, 1e-5, 1e-5));
        QVERIFY(torch::equal(all.train.targets, torch::arange(n, torch::kInt64).remainder(3)));
        c.validationSplit = 0.95;
        CHECK_ENGINE_ERROR(loadAndSplit(c, 3), "data.validation_split", "0.9");
        c.validationSplit = -0.1;
        CHECK_ENGINE_ERROR(loadAndSplit(c, 3), "data.validation_split");
        c.source = "nope";
        c.validationSplit = 0.2;
        CHECK_ENGINE_ERROR(loadAndSplit(c, 3), "data.source", "nope");
    }

    void splitTokensAndImages() {
        // integer inputs are never standardised
        const std::string xs = write("tok_x.npy", npyOf(torch::arange(40, torch::kInt64).reshape({20, 2}), "<i8"));
        const std::string ys = write("tok_y.npy", npyOf(torch::zeros({20}, torch::kInt64), "<i8"));
        DataConfig c;
        c.source = "npy";
        c.options = {{"source", "npy"}, {"inputs", xs}, {"targets", ys}};
        const SplitData tokens = loadAndSplit(c, 1);
        QCOMPARE(tokens.train.inputs.scalar_type(), torch::kInt64);
        QVERIFY(!tokens.mean.defined());
        QCOMPARE(tokens.train.size() + tokens.validation.size(), std::int64_t(20));
        QVERIFY(torch::equal(tokens.train.inputs.select(1, 1) - tokens.train.inputs.select(1, 0),
                             torch::ones({tokens.train.size()}, torch::kInt64)));

        // [S, C, H, W] inputs: statistics per channel, stored with the shape of one sample
        DataConfig img;
        img.source = "shapes";
        img.options = {{"source", "shapes"}, {"samples", 400}, {"size", 12}};
        const SplitData shapes = loadAndSplit(img, 1);
        QCOMPARE(shapes.train.size(), std::int64_t(320));
        QCOMPARE(shapes.mean.sizes().vec(), (std::vector<std::int64_t>{1, 12, 12}));
        QVERIFY(torch::allclose(shapes.mean, shapes.mean.flatten()[0].expand({1, 12, 12})));
        QVERIFY(std::fabs(shapes.train.inputs.mean().item<float>()) < 1e-4f);
        QVERIFY(std::fabs(populationStd(shapes.train.inputs) - 1.0) < 1e-3);
        // class balance survives the split (interleaved classes, random split)
        const torch::Tensor counts = shapes.train.targets.bincount({}, 4);
        QVERIFY(counts.min().item<std::int64_t>() >= 60);
    }
};

QTEST_APPLESS_MAIN(TestDataSources)
#include "tst_data_sources.moc"
