// Checkpoint files against damage and hostility: a written checkpoint reads back; checkpointProblem() names why a
// file is unusable (junk, another network, a TorchScript method that loading would run, a record larger than the
// file, a pickle whose lengths run past it); pruneCheckpoints() keeps the newest usable files and moves unusable newer
// ones aside instead of counting them.
#include "checkpoint.h"
#include "engine_error.h"
#include "zip_directory.h"

#include "common/data_file_builders.h"

#include <zlib.h>

#include <QTemporaryDir>
#include <QtTest>

#include <limits>

#include <filesystem>
#include <fstream>

using namespace diamond::engine;
namespace fs = std::filesystem;
namespace files = diamond::test::files;

namespace {

CheckpointState stateOf(std::int64_t outFeatures, std::int64_t step) {
    CheckpointState s;
    s.step = step;
    s.model = {{"fc.weight", torch::randn({outFeatures, 2})}, {"fc.bias", torch::randn({outFeatures})}};
    s.optimizer = {{"exp_avg", torch::zeros({3 * outFeatures})}};
    s.rngState = cpuRngState();
    return s;
}

std::string readAll(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeAll(const std::string &path, const std::string &bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// Raw deflate `compressed` into `size` bytes.
std::string inflated(const std::string &compressed, std::size_t size) {
    std::string out(size, '\0');
    z_stream zs{};
    inflateInit2(&zs, -MAX_WBITS);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(compressed.data()));
    zs.avail_in = static_cast<uInt>(compressed.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    inflate(&zs, Z_FINISH);
    inflateEnd(&zs);
    return out;
}

/// The checkpoint at `path` rebuilt as a zip of stored records, each passed through `edit(name, bytes)` first.
template <typename Edit> std::string rebuilt(const std::string &path, Edit edit) {
    const std::string bytes = readAll(path);
    const auto *p = reinterpret_cast<const std::uint8_t *>(bytes.data());
    std::vector<files::ZipMember> members;
    for (ZipMember m : readZipDirectory(p, bytes.size(), path, "checkpoint", "checkpoint")) {
        locateZipMember(p, bytes.size(), m, path, "checkpoint");
        std::string data = bytes.substr(m.dataOffset, m.compressedSize);
        if (m.method == 8) data = inflated(data, m.size);
        edit(m.name, data);
        members.push_back({m.name, data});
    }
    return files::zip(members);
}

} // namespace

class TestCheckpointFiles : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string runDir(const char *name) const { return dir_.filePath(QLatin1String(name)).toStdString(); }

private Q_SLOTS:
    void writtenCheckpointsReadBack() {
        const CheckpointState s = stateOf(3, 10);
        const std::string path = writeCheckpoint(runDir("write"), s);
        QVERIFY(checkpointProblem(path, s).empty());
        CheckpointState back = stateOf(3, 0);
        readCheckpoint(path, back);
        QCOMPARE(back.step, std::int64_t(10));
        QVERIFY(torch::equal(back.model[0].second, s.model[0].second));
        QVERIFY(!fs::exists(path + ".tmp"));
    }

    /// checkpointShapes: names, shapes and dtypes without data, which is all a check compares; a state moved into
    /// writeCheckpoint is written as it was.
    void shapesAloneCheckACheckpoint() {
        CheckpointState s = stateOf(3, 12);
        const torch::Tensor weight = s.model[0].second.clone();
        const CheckpointState shapes = checkpointShapes(s);
        QCOMPARE(shapes.model.size(), s.model.size());
        QVERIFY(shapes.model[0].second.is_meta());
        QCOMPARE(shapes.model[0].second.sizes(), s.model[0].second.sizes());
        QCOMPARE(shapes.optimizer.size(), s.optimizer.size());
        const std::string path = writeCheckpoint(runDir("shapes"), std::move(s));
        QVERIFY(checkpointProblem(path, shapes).empty());
        QVERIFY(!checkpointProblem(path, checkpointShapes(stateOf(4, 0))).empty());
        CheckpointState back = stateOf(3, 0);
        readCheckpoint(path, back);
        QVERIFY(torch::equal(back.model[0].second, weight));
    }

    /// fp16's loss scale and its good steps travel with the checkpoint; a checkpoint without them (fp32, bf16, or
    /// written before they were stored) reads as 0; a scale that is not a positive number is refused.
    void theLossScaleIsCheckpointed() {
        CheckpointState s = stateOf(3, 30);
        s.lossScale = 2048;
        s.lossScaleGoodSteps = 17;
        const std::string path = writeCheckpoint(runDir("scale"), s);
        CheckpointState back = stateOf(3, 0);
        readCheckpoint(path, back);
        QCOMPARE(back.lossScale, 2048.0);
        QCOMPARE(back.lossScaleGoodSteps, std::int64_t(17));
        const std::string none = writeCheckpoint(runDir("no-scale"), stateOf(3, 30));
        CheckpointState plain = stateOf(3, 0);
        plain.lossScale = 5; // replaced by what the file says: nothing
        readCheckpoint(none, plain);
        QCOMPARE(plain.lossScale, 0.0);
        s.lossScale = std::numeric_limits<double>::infinity();
        QString error;
        try {
            writeCheckpoint(runDir("bad-scale"), s);
        } catch (const EngineError &e) {
            error = QString::fromStdString(e.what());
        }
        QVERIFY2(error.contains(QStringLiteral("train/loss_scale")), qPrintable(error));
    }

    void problemsAreNamed() {
        const CheckpointState s = stateOf(3, 20);
        const std::string path = writeCheckpoint(runDir("problems"), s);
        const std::string other = checkpointProblem(path, stateOf(4, 0));
        QVERIFY2(other.find("fc.weight") != std::string::npos, other.c_str());

        const std::string junk = runDir("problems") + "/junk.pt";
        writeAll(junk, "PK\x03\x04 not a checkpoint");
        QVERIFY(!checkpointProblem(junk, s).empty());
        QVERIFY(!checkpointProblem(runDir("problems"), s).empty()); // a folder

        // A TorchScript method in the archive's code would run while loading (__setstate__): refused.
        const std::string method = runDir("problems") + "/method.pt";
        const std::string same = runDir("problems") + "/same.pt";
        writeAll(same, rebuilt(path, [](const std::string &, std::string &) {}));
        QVERIFY2(checkpointProblem(same, s).empty(), checkpointProblem(same, s).c_str()); // the rebuild itself is fine
        writeAll(method, rebuilt(path, [](const std::string &name, std::string &data) {
                     if (name.size() > 17 && name.compare(name.size() - 17, 17, "code/__torch__.py") == 0)
                         data += "  def __setstate__(self, state: Tuple[Tensor]) -> None:\n    pass\n";
                 }));
        const std::string methodProblem = checkpointProblem(method, s);
        QVERIFY2(methodProblem.find("TorchScript methods") != std::string::npos, methodProblem.c_str());
        // Any other code is refused before libtorch's TorchScript parser reads it (a damaged class constant crashed
        // it: found by fuzz_checkpoint).
        const std::string constant = runDir("problems") + "/constant.pt";
        writeAll(constant, rebuilt(path, [](const std::string &name, std::string &data) {
                     if (name.size() > 17 && name.compare(name.size() - 17, 17, "code/__torch__.py") == 0)
                         data += "  answer : Final[int] = 42\n";
                 }));
        const std::string constantProblem = checkpointProblem(constant, s);
        QVERIFY2(constantProblem.find("TorchScript code a checkpoint never has") != std::string::npos,
                 constantProblem.c_str());

        // A record that claims more bytes than the file has.
        std::string cut = readAll(path);
        const std::size_t eocd = cut.rfind(std::string("PK\x05\x06", 4));
        QVERIFY(eocd != std::string::npos);
        const std::size_t cd = static_cast<std::uint8_t>(cut[eocd + 16]) |
                               static_cast<std::uint8_t>(cut[eocd + 17]) << 8 |
                               static_cast<std::uint8_t>(cut[eocd + 18]) << 16 |
                               static_cast<std::size_t>(static_cast<std::uint8_t>(cut[eocd + 19])) << 24;
        for (int i = 0; i < 4; ++i) // the first record's sizes: 0x7FFFFFFF
            cut[cd + 20 + static_cast<std::size_t>(i)] = cut[cd + 24 + static_cast<std::size_t>(i)] =
                static_cast<char>(i == 3 ? 0x7F : 0xFF);
        const std::string lying = runDir("problems") + "/lying.pt";
        writeAll(lying, cut);
        const std::string lyingProblem = checkpointProblem(lying, s);
        QVERIFY2(lyingProblem.find("2147483647") != std::string::npos, lyingProblem.c_str());
        CheckpointState untouched = stateOf(3, 0);
        QVERIFY_THROWS_EXCEPTION(EngineError, readCheckpoint(lying, untouched));

        // A string in data.pkl that declares 1.75 GiB (found by fuzz_checkpoint): libtorch reserved the length
        // before reading; refused from the pickle's opcodes now, before libtorch sees the file.
        const std::string pickle = runDir("problems") + "/pickle.pt";
        bool patched = false;
        writeAll(pickle, rebuilt(path, [&](const std::string &name, std::string &data) {
                     if (name.size() < 8 || name.compare(name.size() - 8, 8, "data.pkl") != 0) return;
                     const std::size_t x = data.find('X'); // BINUNICODE: 4-byte little-endian length, then text
                     if (x == std::string::npos || x + 5 > data.size()) return;
                     data.replace(x + 1, 4, std::string("\x00\x00\x00\x70", 4));
                     patched = true;
                 }));
        QVERIFY(patched);
        const std::string pickleProblemText = checkpointProblem(pickle, s);
        QVERIFY2(pickleProblemText.find("declares 1879048192 bytes") != std::string::npos, pickleProblemText.c_str());
    }

    void pruningKeepsTheNewestUsableCheckpoints() {
        const std::string run = runDir("prune");
        const CheckpointState expected = stateOf(3, 0);
        for (const std::int64_t step : {10, 20, 30})
            writeCheckpoint(run, stateOf(3, step));
        const std::string foreign = writeCheckpoint(run, stateOf(5, 50)); // readable, but another network
        writeAll(run + "/checkpoints/step-0000000040.pt", "junk");
        const PruneResult r = pruneCheckpoints(run, 2, expected);
        QCOMPARE(r.kept.size(), std::size_t(2));
        QVERIFY(r.kept[0].find("step-0000000030.pt") != std::string::npos);
        QVERIFY(r.kept[1].find("step-0000000020.pt") != std::string::npos);
        QCOMPARE(r.deleted.size(), std::size_t(1));
        QVERIFY(r.deleted[0].find("step-0000000010.pt") != std::string::npos);
        QCOMPARE(r.quarantined.size(), std::size_t(2));
        QCOMPARE(r.problems.size(), std::size_t(2));
        QVERIFY(fs::exists(run + "/checkpoints/unreadable/step-0000000050.pt"));
        QVERIFY(fs::exists(run + "/checkpoints/unreadable/step-0000000040.pt"));
        QVERIFY(!fs::exists(foreign));
        QCOMPARE(listCheckpoints(run).size(), std::size_t(2));

        // Fewer usable checkpoints than `keep`: nothing usable is deleted.
        const std::string few = runDir("few");
        writeCheckpoint(few, stateOf(3, 5));
        writeAll(few + "/checkpoints/step-0000000099.pt", "junk");
        const PruneResult f = pruneCheckpoints(few, 3, expected);
        QCOMPARE(f.kept.size(), std::size_t(1));
        QVERIFY(f.deleted.empty());
        QCOMPARE(f.quarantined.size(), std::size_t(1));
    }
};

QTEST_APPLESS_MAIN(TestCheckpointFiles)
#include "tst_checkpoint_files.moc"
