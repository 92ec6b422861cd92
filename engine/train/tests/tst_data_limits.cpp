// Hostile data files: every reader checks declared sizes against the file (or the bytes actually decompressed)
// and against data.max_bytes before it allocates, refuses what is not a regular file, keeps offset arithmetic
// from wrapping, and bounds class indices. Each case names the file and the numbers in its error; the peak
// resident memory of the process (VmHWM, reset before each case) shows that nothing large was allocated.
#include "data/data_internal.h"
#include "data/dataset.h"
#include "engine_error.h"

#include "common/data_file_builders.h"
#include "common/engine_error_check.h"
#include "common/test_paths.h"

#include <hdf5/serial/hdf5.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <fstream>
#include <limits>
#include <optional>

#include <sys/stat.h>

using namespace diamond::engine;
using json = nlohmann::json;
namespace files = diamond::test::files;

namespace {

constexpr std::int64_t kMiB = std::int64_t(1) << 20;

Dataset load(const std::string &source, json options) {
    DataConfig c;
    c.source = source;
    options["source"] = source;
    c.options = options;
    if (options.contains("max_bytes")) c.maxBytes = options["max_bytes"].get<std::int64_t>(); // as parseRunConfig does
    return makeDataSource(source)->load(c, 1);
}

/// Peak resident memory of this process since the last resetPeak(), in bytes (VmHWM).
std::int64_t peakRss() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
    return -1;
}
std::int64_t currentRss() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
    return -1;
}
/// Resets VmHWM to the current resident size; returns that size.
std::int64_t resetPeak() {
    std::ofstream("/proc/self/clear_refs") << "5";
    return currentRss();
}

std::string f32Bytes(std::size_t count) { return std::string(count * 4, '\0'); }

std::string i64Bytes(const std::vector<std::int64_t> &v) { return files::rawBytes(v); }

} // namespace

class TestDataLimits : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string path(const std::string &name) const {
        return dir_.filePath(QString::fromStdString(name)).toStdString();
    }

    std::string write(const std::string &name, const std::string &bytes) {
        const std::string p = path(name);
        QDir().mkpath(QFileInfo(QString::fromStdString(p)).absolutePath());
        std::ofstream out(p, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        return p;
    }

    /// A valid small targets file for the npy source: `n` class indices 0/1.
    std::string smallTargets(const std::string &name, std::int64_t n) {
        std::vector<std::int64_t> y(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i)
            y[static_cast<std::size_t>(i)] = i % 2;
        return write(name, files::npy("<i8", {n}, files::rawBytes(y)));
    }

    /// Fails the test when the process's peak memory grew by more than `limit` since `base` (from resetPeak()).
    static bool stayedBelow(std::int64_t base, std::int64_t limit) {
        const std::int64_t grown = peakRss() - base;
        if (grown > limit) qWarning("peak resident memory grew by %lld MiB", static_cast<long long>(grown / kMiB));
        return grown <= limit;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // ---- data.max_bytes in the run config ----------------------------------------------------------------

    void maxBytesIsACommonConfigKey() {
        namespace config = diamond::config;
        const auto parse = [](json data) {
            data["source"] = "spirals";
            return config::parseRunConfig({{"format", "diamond.run/1"}, {"data", data}}, {});
        };
        const config::RunConfig plain = parse(json::object());
        QCOMPARE(plain.data.maxBytes, std::int64_t(0));
        const std::int64_t fallback = config::defaultDataMaxBytes();
        QVERIFY(fallback >= config::kMinDataMaxBytes && fallback <= config::kMaxDefaultDataMaxBytes);
        QCOMPARE(plain.data.maxBytesOrDefault(), fallback);
        QVERIFY(!config::toJson(plain)["data"].contains("max_bytes")); // the machine's default is no fixed number

        const config::RunConfig set = parse({{"max_bytes", 64 * kMiB}});
        QCOMPARE(set.data.maxBytes, 64 * kMiB);
        QCOMPARE(set.data.maxBytesOrDefault(), 64 * kMiB);
        QCOMPARE(config::toJson(set)["data"]["max_bytes"].get<std::int64_t>(), 64 * kMiB);
        QCOMPARE(config::toJson(config::parseRunConfig(config::toJson(set), {})), config::toJson(set));

        for (const json &bad : {json(1000), json(-1), json(1.5e9), json("1G")}) {
            try {
                parse({{"max_bytes", bad}});
                QFAIL(qPrintable(QString::fromStdString("accepted max_bytes " + bad.dump())));
            } catch (const config::ConfigError &e) {
                QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("data.max_bytes"));
            }
        }
        // The sources take it as a common key.
        QCOMPARE(load("spirals", {{"samples", 300}, {"max_bytes", kMiB}}).size(), std::int64_t(300));
    }

    // ---- 1. NPZ: offsets, stored and deflated sizes ---------------------------------------------------------

    void npzStoredMemberLargerThanTheFileIsRefused() {
        // A stored x.npy whose npy header declares 64M floats (256 MB) while the archive holds a few bytes of it;
        // the central directory claims the full size. Reading it would run past the mapping (SIGBUS).
        const std::string member = files::npy("<f4", {64 * kMiB}, f32Bytes(16));
        files::ZipMember x{"x.npy", member};
        x.declaredSize = member.size() - 64 + 64 * kMiB * 4;
        const std::string file =
            write("stored-lies.npz", files::zip({x, {"y.npy", files::npy("<i8", {2}, i64Bytes({0, 1}))}}));
        CHECK_ENGINE_ERROR(load("npz", {{"path", file}}), "data.path", "stored-lies.npz", "'x'", "stored",
                           std::to_string(x.declaredSize));
    }

    void npzMemberOffsetThatWrapsAroundIsRefused() {
        files::ZipMember x{"x.npy", files::npy("<f4", {2}, f32Bytes(2))};
        x.zip64 = true;
        x.declaredOffset = ~std::uint64_t(0) - 15; // + 30 wraps around to 14
        const std::string file = write("wrap-offset.npz", files::zip({x}));
        CHECK_ENGINE_ERROR(load("npz", {{"path", file}}), "data.path", "wrap-offset.npz", "'x'");

        // zip64 end record whose central directory offset + size wraps around
        std::string z = files::zip({{"x.npy", files::npy("<f4", {2}, f32Bytes(2))}});
        z.resize(z.size() - 22); // drop the end record, write zip64 ones
        const std::uint64_t zip64End = z.size();
        files::putLe(z, 0x06064b50, 4);
        files::putLe(z, 44, 8);
        files::putLe(z, 45, 2);
        files::putLe(z, 45, 2);
        files::putLe(z, 0, 8);
        files::putLe(z, 1, 8);
        files::putLe(z, 1, 8);
        files::putLe(z, 64, 8);                     // central directory size
        files::putLe(z, ~std::uint64_t(0) - 31, 8); // offset: offset + size wraps to 32
        files::putLe(z, 0x07064b50, 4);
        files::putLe(z, 0, 4);
        files::putLe(z, zip64End, 8);
        files::putLe(z, 1, 4);
        files::putLe(z, 0x06054b50, 4);
        files::putLe(z, 0, 4);
        files::putLe(z, 0xFFFF, 2);
        files::putLe(z, 0xFFFF, 2);
        files::putLe(z, 0xFFFFFFFF, 4);
        files::putLe(z, 0xFFFFFFFF, 4);
        files::putLe(z, 0, 2);
        const std::string cd = write("wrap-cd.npz", z);
        CHECK_ENGINE_ERROR(load("npz", {{"path", cd}}), "data.path", "wrap-cd.npz", "central directory");

        // zip64 locator pointing at an end record whose offset + 56 wraps around
        std::string loc = z;
        const std::size_t locatorOffset = loc.size() - 22 - 20 + 8;
        for (int i = 0; i < 8; ++i)
            loc[locatorOffset + static_cast<std::size_t>(i)] = static_cast<char>(i == 0 ? 0xF0 : 0xFF);
        const std::string locator = write("wrap-locator.npz", loc);
        CHECK_ENGINE_ERROR(load("npz", {{"path", locator}}), "data.path", "wrap-locator.npz", "zip64");
    }

    void npzDeflatedSizeBeyondWhatDeflateCanProduceIsRefused() {
        // 2 GiB declared for a few hundred compressed bytes: more than deflate's 1032:1 can give.
        files::ZipMember x{"x.npy", files::npy("<f4", {512 * kMiB}, f32Bytes(64)), true};
        x.declaredSize = std::uint64_t(2048) * kMiB;
        const std::string file =
            write("bomb.npz", files::zip({x, {"y.npy", files::npy("<i8", {2}, i64Bytes({0, 1}))}}));
        QVERIFY(QFileInfo(QString::fromStdString(file)).size() < 1024);
        const std::int64_t base = resetPeak();
        CHECK_ENGINE_ERROR(load("npz", {{"path", file}}), "data.path", "bomb.npz", "'x'", "1032",
                           std::to_string(x.declaredSize));
        QVERIFY(stayedBelow(base, 64 * kMiB));
    }

    void npzDeflatedMemberAboveTheCapIsRefused() {
        // 8 MiB of zeros deflate to a few KB (within the ratio), but data.max_bytes is 2 MiB.
        const std::string x = files::npy("<f4", {2 * kMiB}, f32Bytes(2 * kMiB));
        const std::string file =
            write("zeros.npz", files::zip({{"x.npy", x, true}, {"y.npy", files::npy("<i8", {2}, i64Bytes({0, 1}))}}));
        const std::int64_t base = resetPeak();
        CHECK_ENGINE_ERROR(load("npz", {{"path", file}, {"max_bytes", 2 * kMiB}}), "data.path", "zeros.npz", "'x'",
                           "data.max_bytes", std::to_string(2 * kMiB));
        QVERIFY(stayedBelow(base, 6 * kMiB));
    }

    // ---- 2. caps and non-regular files for every reader ------------------------------------------------------

    void npyAboveTheCapIsRefused() {
        const std::string x = write("cap-x.npy", files::npy("<f4", {kMiB}, f32Bytes(kMiB))); // 4 MiB
        const std::string y = smallTargets("cap-y.npy", kMiB);
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", x}, {"targets", y}, {"max_bytes", 2 * kMiB}}), "data.inputs",
                           "cap-x.npy", "data.max_bytes", "4194304", std::to_string(2 * kMiB));
    }

    void gzippedIdxStopsAtTheCap() {
        // 32 MiB of pixels gzip to ~32 KB; the header declares all of them, data.max_bytes is 4 MiB.
        const std::string raw = files::idx(0x08, {2048, 128, 128}, std::string(32 * kMiB, '\0'));
        const std::string images = write("bomb-images.gz", files::gzip(raw));
        const std::string labels = write("bomb-labels", files::idx(0x08, {2048}, std::string(2048, '\1')));
        QVERIFY(QFileInfo(QString::fromStdString(images)).size() < kMiB);
        const std::int64_t base = resetPeak();
        CHECK_ENGINE_ERROR(load("idx", {{"images", images}, {"labels", labels}, {"max_bytes", 4 * kMiB}}),
                           "data.images", "bomb-images.gz", "data.max_bytes", std::to_string(4 * kMiB));
        QVERIFY(stayedBelow(base, 12 * kMiB));

        // trailing gzip data beyond what the header declares is not read into memory
        const std::string small = files::idx(0x08, {4, 2, 2}, std::string(16, '\2')) + std::string(64 * kMiB, '\0');
        const std::string padded = write("padded-images.gz", files::gzip(small));
        const std::string four = write("four-labels", files::idx(0x08, {4}, std::string("\0\1\0\1", 4)));
        const std::int64_t base2 = resetPeak();
        const Dataset d = load("idx", {{"images", padded}, {"labels", four}});
        QCOMPARE(d.size(), std::int64_t(4));
        QVERIFY(stayedBelow(base2, 16 * kMiB));
    }

    void csvAboveTheCapIsRefused() {
        std::string text = "a,b,label\n";
        while (text.size() < std::size_t(3 * kMiB))
            text += "0.125,0.5,1\n";
        const std::string file = write("big.csv", text);
        CHECK_ENGINE_ERROR(load("csv", {{"path", file}, {"target", "label"}, {"max_bytes", kMiB}}), "data.path",
                           "big.csv", "data.max_bytes", std::to_string(kMiB));
    }

    void hdf5DeclaredDimensionsBeyondTheFileAreRefused() {
        // /x declares [2^26, 8] float32 (2 GiB) but is never written: the file holds no data for it.
        const std::string file = path("empty-dims.h5");
        const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        const hsize_t xdims[2] = {hsize_t(1) << 26, 8}, ydims[1] = {hsize_t(1) << 26};
        const hid_t xs = H5Screate_simple(2, xdims, nullptr), ys = H5Screate_simple(1, ydims, nullptr);
        H5Dclose(H5Dcreate2(f, "/x", H5T_IEEE_F32LE, xs, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
        H5Dclose(H5Dcreate2(f, "/y", H5T_STD_I64LE, ys, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
        H5Sclose(xs);
        H5Sclose(ys);
        H5Fclose(f);
        QVERIFY(QFileInfo(QString::fromStdString(file)).size() < 64 * 1024);
        const std::int64_t base = resetPeak();
        CHECK_ENGINE_ERROR(load("hdf5", {{"path", file}}), "data.inputs", "empty-dims.h5", "'/x'", "2147483648");
        QVERIFY(stayedBelow(base, 64 * kMiB));
    }

    void hdf5CompressedChunksAreReadAndCheckedOneByOne() {
        // gzip + shuffle with chunks of 1024 rows on a resizable 10-row dataset (as h5py appends data): read as is.
        const std::string file = path("gzip.h5");
        const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        std::vector<float> x(20);
        std::vector<std::int64_t> y(10);
        for (int i = 0; i < 10; ++i) {
            x[std::size_t(2 * i)] = float(i);
            x[std::size_t(2 * i + 1)] = float(-i);
            y[std::size_t(i)] = i % 2;
        }
        const hsize_t xdims[2] = {10, 2}, xmax[2] = {H5S_UNLIMITED, 2}, chunk[2] = {1024, 2}, ydims[1] = {10};
        const hid_t xs = H5Screate_simple(2, xdims, xmax), ys = H5Screate_simple(1, ydims, nullptr);
        const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_chunk(dcpl, 2, chunk);
        H5Pset_shuffle(dcpl);
        H5Pset_deflate(dcpl, 4);
        const hid_t xd = H5Dcreate2(f, "/x", H5T_IEEE_F32LE, xs, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        const hid_t yd = H5Dcreate2(f, "/y", H5T_STD_I64LE, ys, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(xd, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, x.data());
        H5Dwrite(yd, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, y.data());
        for (const hid_t id : {xd, yd})
            H5Dclose(id);
        H5Pclose(dcpl);
        H5Sclose(xs);
        H5Sclose(ys);
        H5Fclose(f);
        const Dataset d = load("hdf5", {{"path", file}});
        QCOMPARE(d.inputs.size(0), 10);
        QCOMPARE(d.inputs[9][1].item<float>(), -9.0f);
        QCOMPARE(d.numClasses, 2);

        // Found by fuzz_hdf5: the header's chunk dimensions changed to [2, 61] while the stored chunk inflates to
        // 16 bytes; libhdf5 1.10 read past a freed buffer. Now the chunk is checked before HDF5 reads it.
        const std::string damaged =
            diamond::test::sourcePath(
                QStringLiteral("tests/fuzz/corpus/hdf5/crash-libhdf5-chunk-shorter-than-declared"))
                .toStdString();
        CHECK_ENGINE_ERROR(load("hdf5", {{"path", damaged}}), "data.inputs", "'/x'", "chunk 0 holds 16 bytes", "488");
        const std::string stored = diamond::test::sourcePath(QStringLiteral("tests/fuzz/corpus/hdf5/"
                                                                            "crash-libhdf5-unfiltered-chunk-shorter-"
                                                                            "than-declared"))
                                       .toStdString();
        CHECK_ENGINE_ERROR(load("hdf5", {{"path", stored}}), "data.inputs", "'/x'", "chunk 0 holds 21 bytes", "488");
    }

    void hdf5ParserCrashesAreErrors() {
        // Found by fuzz_hdf5: a damaged local heap makes libhdf5 1.10.8 dereference NULL while looking up "/x". It
        // runs in a child process, so the crash is an error naming the file; this process carries on.
        const std::string crashing =
            diamond::test::sourcePath(QStringLiteral("tests/fuzz/corpus/hdf5/crash-libhdf5-null-local-heap-segv"))
                .toStdString();
        CHECK_ENGINE_ERROR(load("hdf5", {{"path", crashing}}), "data.path", "crash-libhdf5-null-local-heap-segv",
                           "crashed its parser");
        const std::string good =
            diamond::test::sourcePath(QStringLiteral("tests/fuzz/corpus/hdf5/seed-contiguous.h5")).toStdString();
        QCOMPARE(load("hdf5", {{"path", good}}).inputs.size(0), 4);
    }

    void hdf5AboveTheCapIsRefused() {
        const std::string file = path("cap.h5");
        const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        const std::vector<float> x(std::size_t(kMiB), 0.5f); // 4 MiB
        const std::vector<std::int64_t> y(std::size_t(kMiB / 4), 1);
        const hsize_t xdims[2] = {hsize_t(kMiB / 4), 4}, ydims[1] = {hsize_t(kMiB / 4)};
        const hid_t xs = H5Screate_simple(2, xdims, nullptr), ys = H5Screate_simple(1, ydims, nullptr);
        const hid_t xd = H5Dcreate2(f, "/x", H5T_IEEE_F32LE, xs, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        const hid_t yd = H5Dcreate2(f, "/y", H5T_STD_I64LE, ys, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        QVERIFY(H5Dwrite(xd, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, x.data()) >= 0);
        QVERIFY(H5Dwrite(yd, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, y.data()) >= 0);
        H5Dclose(xd);
        H5Dclose(yd);
        H5Sclose(xs);
        H5Sclose(ys);
        H5Fclose(f);
        CHECK_ENGINE_ERROR(load("hdf5", {{"path", file}, {"max_bytes", 2 * kMiB}}), "data.inputs", "cap.h5", "'/x'",
                           "data.max_bytes", "4194304");
    }

    void imageFolderAboveTheCapIsRefused() {
        // one PNG declaring 15000 x 15000 RGB pixels (675 MB decoded) with a single row of data
        std::string row(1 + 15000 * 3, '\0');
        write("huge/a/img.png", files::png(15000, 15000, 2, row));
        const std::int64_t base = resetPeak();
        CHECK_ENGINE_ERROR(load("image_folder", {{"path", path("huge")}, {"max_bytes", 64 * kMiB}}), "data.path",
                           "img.png", "15000x15000", "data.max_bytes");
        QVERIFY(stayedBelow(base, 64 * kMiB));

        // 40 images of 64 x 64 RGB: 1.9 MiB of float32, above a 1 MiB cap
        for (int i = 0; i < 40; ++i)
            write("many/" + std::string(i % 2 ? "a" : "b") + "/" + std::to_string(i) + ".png",
                  files::solidPng(64, 64, 2, static_cast<char>(i)));
        CHECK_ENGINE_ERROR(load("image_folder", {{"path", path("many")}, {"max_bytes", kMiB}}), "data.path", "many",
                           "40", "data.max_bytes", "1966080");
    }

    void syntheticAboveTheCapIsRefused() {
        // 1M x 1000 float32 is 4 GB
        const std::int64_t base = resetPeak();
        CHECK_ENGINE_ERROR(load("blobs", {{"samples", 1000000}, {"features", 1000}, {"max_bytes", 1024 * kMiB}}),
                           "data.samples", "4000000000", "data.max_bytes");
        QVERIFY(stayedBelow(base, 64 * kMiB));
    }

    void notRegularFilesAreRefused() {
        // A FIFO would block open() forever, /dev/zero never ends, a folder is no file.
        const std::string fifo = path("fifo.npy");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const std::string y = smallTargets("fifo-y.npy", 2);
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", fifo}, {"targets", y}}), "data.inputs", "fifo.npy",
                           "not a regular file");
        CHECK_ENGINE_ERROR(load("npz", {{"path", fifo}}), "data.path", "fifo.npy", "not a regular file");
        CHECK_ENGINE_ERROR(load("csv", {{"path", fifo}, {"target", 0}}), "data.path", "fifo.npy", "not a regular file");
        const std::int64_t base = resetPeak();
        const std::string labels = write("zero-labels", files::idx(0x08, {2}, std::string(2, '\1')));
        CHECK_ENGINE_ERROR(load("idx", {{"images", "/dev/zero"}, {"labels", labels}}), "data.images", "/dev/zero",
                           "not a regular file");
        CHECK_ENGINE_ERROR(load("csv", {{"path", "/dev/zero"}, {"target", 0}}), "data.path", "/dev/zero",
                           "not a regular file");
        QVERIFY(stayedBelow(base, 16 * kMiB));
        CHECK_ENGINE_ERROR(load("csv", {{"path", dir_.path().toStdString()}, {"target", 0}}), "data.path",
                           "not a regular file");
        CHECK_ENGINE_ERROR(load("hdf5", {{"path", fifo}}), "data.path", "fifo.npy", "not a regular file");
    }

    // ---- 3. class indices ----------------------------------------------------------------------------------

    void hugeClassIndicesAreRefused() {
        const std::string x = write("cls-x.npy", files::npy("<f4", {3, 2}, f32Bytes(6)));
        const std::int64_t max = std::numeric_limits<std::int64_t>::max();
        const std::string y = write("cls-y.npy", files::npy("<i8", {3}, i64Bytes({0, max, 1})));
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", x}, {"targets", y}}), "data.targets", "cls-y.npy",
                           "9223372036854775807", "16777215");
        // just above the bound: 2^24
        const std::string above = write("cls-above.npy", files::npy("<i8", {3}, i64Bytes({0, 1 << 24, 1})));
        CHECK_ENGINE_ERROR(load("npy", {{"inputs", x}, {"targets", above}}), "data.targets", "16777216");
        // the largest index allowed gives 2^24 classes
        const std::string top = write("cls-top.npy", files::npy("<i8", {3}, i64Bytes({0, (1 << 24) - 1, 1})));
        QCOMPARE(load("npy", {{"inputs", x}, {"targets", top}}).numClasses, std::int64_t(1) << 24);

        // IDX int32 labels up to 2^31 - 1
        std::string be;
        for (const std::uint32_t v : {0u, 0x7FFFFFFFu})
            files::putBe32(be, v);
        const std::string labels = write("cls-labels", files::idx(0x0C, {2}, be));
        const std::string images = write("cls-images", files::idx(0x08, {2, 2, 2}, std::string(8, '\0')));
        CHECK_ENGINE_ERROR(load("idx", {{"images", images}, {"labels", labels}}), "data.labels", "cls-labels",
                           "2147483647");
    }
};

QTEST_APPLESS_MAIN(TestDataLimits)
#include "tst_data_limits.moc"
