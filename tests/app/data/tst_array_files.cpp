// Listing the arrays of HDF5 and NPZ files through the engine (`diamond-train arrays`, the build's binary) and
// guessing which are the inputs and the targets; describeDataset of such a file names them in the schema.
#include "common/data_file_builders.h"
#include "common/hdf5_file_builder.h"
#include "common/test_paths.h"

#include "app/data/array_files.h"
#include "app/data/dataset_inspector.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;

class TestArrayFiles : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString engine_ = test::binary(QStringLiteral("diamond-train"));

    app::StoredArray array(const char *name, QList<qint64> shape, const char *dtype = "float32", bool readable = true) {
        return {QLatin1String(name), shape, QLatin1String(dtype), readable};
    }

private Q_SLOTS:
    void initTestCase() { qputenv("DIAMOND_TRAIN", engine_.toLocal8Bit()); }

    void listsTheArraysWithShapesAndTypesAndFollowsNoSoftOrExternalLink() {
        const QString path = dir_.filePath(QStringLiteral("mixed.h5"));
        std::vector<double> x(10 * 3, 0.5);
        std::vector<qint64> y(10, 1);
        QVERIFY(test::writeHdf5File(path, {{"/train/features", H5T_NATIVE_DOUBLE, {10, 3}, x.data()},
                                           {"/train/label", H5T_NATIVE_INT64, {10}, y.data()},
                                           {"/meta/ids16", H5T_NATIVE_SHORT, {10}, nullptr}}));
        { // a soft link to an array and an external link to another file: not listed (nor opened)
            const hid_t f = H5Fopen(path.toLocal8Bit().constData(), H5F_ACC_RDWR, H5P_DEFAULT);
            QVERIFY(f >= 0);
            QVERIFY(H5Lcreate_soft("/train/features", f, "/alias", H5P_DEFAULT, H5P_DEFAULT) >= 0);
            QVERIFY(H5Lcreate_external("other.h5", "/x", f, "/elsewhere", H5P_DEFAULT, H5P_DEFAULT) >= 0);
            H5Fclose(f);
        }
        const app::ArrayListing l = app::listArrays(engine_, path);
        QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
        QCOMPARE(l.arrays.size(), 3);
        QCOMPARE(l.arrays[0].name, QStringLiteral("/meta/ids16"));
        QCOMPARE(l.arrays[0].dtype, QStringLiteral("int16"));
        QVERIFY(!l.arrays[0].readable);
        QCOMPARE(l.arrays[1].name, QStringLiteral("/train/features"));
        QCOMPARE(l.arrays[1].shape, (QList<qint64>{10, 3}));
        QCOMPARE(l.arrays[1].dtype, QStringLiteral("float64"));
        QVERIFY(l.arrays[1].readable);
        QCOMPARE(l.arrays[1].shapeText(), QStringLiteral("10 × 3"));
        QCOMPARE(l.arrays[2].name, QStringLiteral("/train/label"));
        QCOMPARE(l.arrays[2].dtype, QStringLiteral("int64"));
        QCOMPARE(l.inputs, QStringLiteral("/train/features"));
        QCOMPARE(l.targets, QStringLiteral("/train/label"));
        QVERIFY(!l.truncated);
    }

    void guessesTargetsByNameAndRowsAndInputsBySize() {
        app::ArrayListing l;
        l.arrays = {array("/a", {100, 8}), array("/b", {50}, "int64"), array("/c", {100}, "int64"),
                    array("/d", {100, 2}), array("/s", {100}, "string", false)};
        app::guessArrayRoles(l);
        QCOMPARE(l.targets, QStringLiteral("/c")); // /b has no partner with 50 rows
        QCOMPARE(l.inputs, QStringLiteral("/a"));  // the largest with 100 rows
        l.arrays << array("/grp/labels", {100, 1}, "int64");
        app::guessArrayRoles(l);
        QCOMPARE(l.targets, QStringLiteral("/grp/labels")); // a target's name wins
        QCOMPARE(l.inputs, QStringLiteral("/a"));
        l.arrays = {array("/only", {10, 3})};
        app::guessArrayRoles(l);
        QCOMPARE(l.inputs, QStringLiteral("/only"));
        QVERIFY(l.targets.isEmpty());
        l.arrays = {array("/s", {10}, "string", false)};
        app::guessArrayRoles(l);
        QVERIFY(l.inputs.isEmpty() && l.targets.isEmpty());
    }

    void errorsNameTheFile() {
        const QString junk = dir_.filePath(QStringLiteral("junk.h5"));
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not HDF5");
        f.close();
        app::ArrayListing l = app::listArrays(engine_, junk);
        QVERIFY2(l.error.contains(QStringLiteral("junk.h5")) && l.error.contains(QStringLiteral("not an HDF5 file")),
                 qPrintable(l.error));
        QVERIFY(l.arrays.isEmpty());
        l = app::listArrays(dir_.filePath(QStringLiteral("no-engine")), junk);
        QVERIFY2(l.error.contains(QStringLiteral("no-engine")) && l.error.contains(QStringLiteral("missing")),
                 qPrintable(l.error));
    }

    void listsNpzMembersStoredAndDeflated() {
        namespace files = test::files;
        const std::string x = files::npy("<f4", {6, 2}, std::string(6 * 2 * 4, '\0'));
        const std::string labels = files::npy("|u1", {6}, std::string(6, '\1'));
        const std::string text = files::npy("<U3", {2}, std::string(2 * 12, 'a')); // strings: not readable
        const std::string bytes = files::zip({{"features.npy", x, false},
                                              {"labels.npy", labels, true}, // np.savez_compressed deflates
                                              {"names.npy", text, false}});
        const QString path = dir_.filePath(QStringLiteral("arrays.npz"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes.data(), qint64(bytes.size()));
        f.close();
        const app::ArrayListing l = app::listArrays(engine_, path);
        QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
        QCOMPARE(l.arrays.size(), 3);
        QCOMPARE(l.arrays[0].name, QStringLiteral("features"));
        QCOMPARE(l.arrays[0].shape, (QList<qint64>{6, 2}));
        QCOMPARE(l.arrays[0].dtype, QStringLiteral("float32"));
        QCOMPARE(l.arrays[1].name, QStringLiteral("labels"));
        QCOMPARE(l.arrays[1].shape, (QList<qint64>{6}));
        QCOMPARE(l.arrays[1].dtype, QStringLiteral("uint8"));
        QVERIFY(l.arrays[1].readable);
        QCOMPARE(l.arrays[2].name, QStringLiteral("names"));
        QVERIFY(!l.arrays[2].readable);
        QCOMPARE(l.inputs, QStringLiteral("features"));
        QCOMPARE(l.targets, QStringLiteral("labels"));
        // A zip whose directory lies is an error naming the file.
        const QString broken = dir_.filePath(QStringLiteral("broken.npz"));
        QFile b(broken);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write(bytes.data(), qint64(bytes.size()) - 10);
        b.close();
        const app::ArrayListing e = app::listArrays(engine_, broken);
        QVERIFY2(e.error.contains(QStringLiteral("broken.npz")), qPrintable(e.error));
    }

    void describeDatasetNamesTheArraysAndTheirRoles() {
        QDir(dir_.path()).mkpath(QStringLiteral("ds"));
        const QString path = dir_.filePath(QStringLiteral("ds/cells.hdf5"));
        std::vector<float> x(40 * 5, 1.0f);
        std::vector<qint64> y(30, 0);
        QVERIFY(test::writeHdf5File(
            path, {{"/x", H5T_NATIVE_FLOAT, {40, 5}, x.data()}, {"/y", H5T_NATIVE_INT64, {30}, y.data()}}));
        app::ContentManifest m;
        m.files.append({QStringLiteral("cells.hdf5"), QFileInfo(path).size(), {}, {}});
        const app::DatasetDescription d = app::describeDataset(dir_.filePath(QStringLiteral("ds")), m);
        QCOMPARE(d.format, QStringLiteral("hdf5"));
        QCOMPARE(d.schema.value(QStringLiteral("arrays")).toArray().size(), 2);
        QCOMPARE(d.schema.value(QStringLiteral("inputs")).toString(), QStringLiteral("/x"));
        QCOMPARE(d.schema.value(QStringLiteral("targets")).toString(), QStringLiteral("/y"));
        QCOMPARE(d.rows, 40);
        // 40 input rows against 30 targets: a problem before anything trains.
        QCOMPARE(d.problems.size(), 1);
        QVERIFY2(d.problems.first().contains(QStringLiteral("40")) && d.problems.first().contains(QStringLiteral("30")),
                 qPrintable(d.problems.first()));
    }
};

QTEST_GUILESS_MAIN(TestArrayFiles)
#include "tst_array_files.moc"
