#include "checkpoint.h"

#include "engine_error.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <regex>
#include <unistd.h>

namespace diamond::engine {

namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kCheckpointVersion = 1;

std::string checkpointDir(const std::string &runDir) { return (fs::path(runDir) / "checkpoints").string(); }

void fsyncPath(const std::string &path, bool directory) {
    const int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

torch::Tensor scalar(double v) { return torch::tensor(v, torch::kFloat64); }
torch::Tensor scalar(std::int64_t v) { return torch::tensor(v, torch::kInt64); }

} // namespace

torch::Tensor cpuRngState() {
    auto gen = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    return gen.get_state();
}

void setCpuRngState(const torch::Tensor &state) {
    auto gen = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_state(state);
}

std::string writeCheckpoint(const std::string &runDir, const CheckpointState &state) {
    const std::string dir = checkpointDir(runDir);
    std::error_code ec;
    fs::create_directories(dir, ec);
    char name[64];
    std::snprintf(name, sizeof name, "step-%010lld.pt", static_cast<long long>(state.step));
    const std::string finalPath = (fs::path(dir) / name).string();
    const std::string tmpPath = finalPath + ".tmp";

    torch::serialize::OutputArchive archive;
    archive.write("meta/version", scalar(kCheckpointVersion));
    archive.write("meta/step", scalar(state.step));
    for (const auto &[key, tensor] : state.model)
        archive.write("model/" + key, tensor.detach().cpu(), true);
    for (const auto &[key, tensor] : state.optimizer)
        archive.write("optim/" + key, tensor.detach().cpu(), true);
    archive.write("rng/cpu", state.rngState, true);
    archive.write("meta/world", scalar(state.world));
    for (std::size_t r = 0; r < state.rankRngStates.size(); ++r)
        archive.write("rng/rank" + std::to_string(r), state.rankRngStates[r], true);
    archive.write("train/best_metric", scalar(state.bestMetric));
    archive.write("train/has_best", scalar(std::int64_t(state.hasBest ? 1 : 0)));
    archive.write("train/evals_without_improvement", scalar(state.evalsWithoutImprovement));
    archive.write("meta/complete", scalar(std::int64_t(1)));
    try {
        archive.save_to(tmpPath);
    } catch (const std::exception &e) {
        fs::remove(tmpPath, ec);
        throw EngineError("Could not write the checkpoint " + finalPath + ": " + e.what(), "checkpoint");
    }
    fsyncPath(tmpPath, false);
    fs::rename(tmpPath, finalPath, ec);
    if (ec)
        throw EngineError("Could not move the checkpoint into place (" + finalPath + "): " + ec.message(),
                          "checkpoint");
    fsyncPath(dir, true);
    return finalPath;
}

std::vector<std::pair<std::int64_t, std::string>> listCheckpoints(const std::string &runDir) {
    std::vector<std::pair<std::int64_t, std::string>> out;
    std::error_code ec;
    static const std::regex pattern(R"(step-(\d+)\.pt)");
    for (const auto &entry : fs::directory_iterator(checkpointDir(runDir), ec)) {
        std::smatch m;
        const std::string file = entry.path().filename().string();
        if (std::regex_match(file, m, pattern)) out.emplace_back(std::stoll(m[1].str()), entry.path().string());
    }
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    return out;
}

void pruneCheckpoints(const std::string &runDir, int keep) {
    const auto all = listCheckpoints(runDir);
    std::error_code ec;
    for (std::size_t i = static_cast<std::size_t>(std::max(keep, 1)); i < all.size(); ++i)
        fs::remove(all[i].second, ec);
}

void readCheckpoint(const std::string &path, CheckpointState &state) {
    torch::serialize::InputArchive archive;
    archive.load_from(path);
    torch::Tensor t;
    if (!archive.try_read("meta/complete", t)) throw EngineError("checkpoint " + path + " is incomplete");
    archive.read("meta/version", t);
    if (t.item<std::int64_t>() != kCheckpointVersion)
        throw EngineError("checkpoint " + path + " has an unsupported version " +
                          std::to_string(t.item<std::int64_t>()));
    archive.read("meta/step", t);
    const std::int64_t step = t.item<std::int64_t>();
    // Read everything into temporaries first so a mismatch leaves `state` untouched.
    std::vector<torch::Tensor> model(state.model.size());
    for (std::size_t i = 0; i < state.model.size(); ++i) {
        if (!archive.try_read("model/" + state.model[i].first, model[i]))
            throw EngineError("checkpoint " + path + " has no tensor '" + state.model[i].first +
                              "' (different network?)");
        if (model[i].sizes() != state.model[i].second.sizes())
            throw EngineError("checkpoint " + path + ": '" + state.model[i].first +
                              "' has another shape (different network?)");
    }
    std::map<std::string, torch::Tensor> optim;
    for (const auto &[key, tensor] : state.optimizer) {
        torch::Tensor v;
        if (!archive.try_read("optim/" + key, v))
            throw EngineError("checkpoint " + path + " has no optimizer state '" + key + "'");
        if (v.sizes() != tensor.sizes())
            throw EngineError("checkpoint " + path + ": optimizer state '" + key + "' has another shape");
        optim[key] = v;
    }
    torch::Tensor rng, best, hasBest, bad, world;
    archive.read("rng/cpu", rng);
    std::vector<torch::Tensor> rankRng;
    std::int64_t worldSize = 1;
    if (archive.try_read("meta/world", world)) worldSize = world.item<std::int64_t>();
    for (std::int64_t r = 0; r < worldSize; ++r) {
        torch::Tensor t;
        if (archive.try_read("rng/rank" + std::to_string(r), t)) rankRng.push_back(t);
    }
    archive.read("train/best_metric", best);
    archive.read("train/has_best", hasBest);
    archive.read("train/evals_without_improvement", bad);

    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < state.model.size(); ++i)
        state.model[i].second.copy_(model[i]);
    for (auto &[key, tensor] : state.optimizer)
        tensor = optim[key];
    state.step = step;
    state.rngState = rng;
    state.rankRngStates = rankRng;
    state.world = worldSize;
    state.bestMetric = best.item<double>();
    state.hasBest = hasBest.item<std::int64_t>() != 0;
    state.evalsWithoutImprovement = bad.item<std::int64_t>();
}

} // namespace diamond::engine
