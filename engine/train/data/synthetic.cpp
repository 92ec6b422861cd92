// Synthetic sources: spirals, moons, blobs, checkerboard, sine, shapes. Contract: deterministic in the seed
// (all randomness comes from one CPU generator seeded from it), no files; classification sets have balanced,
// interleaved classes (sample i has class i % k), so any contiguous part of them, and any large random
// subset, stays balanced. Every generator charges data.max_bytes for its tensors (and float64 temporaries)
// before it allocates them, and polls the stop request between its large pieces of work.
#include "data/data_internal.h"

#include <c10/util/irange.h>

#include <cmath>

namespace diamond::engine::data {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr std::int64_t kMaxSamples = 50'000'000;

std::int64_t samplesOption(Options &o, std::int64_t fallback, std::int64_t classes) {
    const std::int64_t s = o.integer("samples", fallback, 1, kMaxSamples);
    if (s < classes)
        throw EngineError("'data.samples' must be at least the number of classes (" + std::to_string(classes) + ").",
                          "data.samples");
    return s;
}

/// Charges `o`'s budget for `samples` samples: their inputs (`inputFloats` float32 values each, with the shape
/// text `sampleShape` for the message) first, then `extraBytes` per sample of targets and temporaries.
void chargeSamples(Options &o, std::int64_t samples, std::int64_t inputFloats, const std::string &sampleShape,
                   std::int64_t extraBytes) {
    const std::string what = o.sourceName() + ": " + std::to_string(samples) + " samples x " + sampleShape;
    std::uint64_t bytes = 0;
    if (!checkedBytes({samples, inputFloats}, sizeof(float), bytes)) bytes = ~std::uint64_t(0);
    o.budget().charge(bytes, what + " float32", "data.samples");
    o.budget().charge(static_cast<std::uint64_t>(samples) * static_cast<std::uint64_t>(extraBytes),
                      what + " (targets and temporaries)", "data.samples");
}

torch::Tensor interleavedClasses(std::int64_t samples, std::int64_t classes) {
    return torch::arange(samples, torch::kInt64).remainder(classes);
}

/// Spirals: `arms` arms (one class each) of `turns` turns from the centre to radius 1. A point of arm k at
/// position t in [0, 1) sits at radius t and angle 2*pi*(k/arms + turns*t) + noise*N(0,1): the noise is an
/// angular jitter in radians, so the gap between neighbouring arms (2*pi/arms) stays many noise widths wide
/// at every radius (noise 0.2 vs a gap of 2.09 for three arms: an MLP separates them almost perfectly).
Dataset spirals(Options &o, at::Generator &gen) {
    const std::int64_t arms = o.integer("arms", 3, 2, 64);
    const std::int64_t s = samplesOption(o, 3000, arms);
    const double noise = o.number("noise", 0.2, 0.0, 10.0);
    const double turns = o.number("turns", 1.5, 0.0, 20.0);
    o.checkUnknown();
    chargeSamples(o, s, 2, "[2]", 8 + 6 * 8);
    Dataset d;
    d.targets = interleavedClasses(s, arms);
    const torch::Tensor t = torch::rand({s}, gen, torch::kFloat64);
    throwIfStopRequested();
    const torch::Tensor jitter = torch::randn({s}, gen, torch::kFloat64);
    throwIfStopRequested();
    const torch::Tensor angle =
        d.targets.to(torch::kFloat64) * (2 * kPi / static_cast<double>(arms)) + t * (2 * kPi * turns) + jitter * noise;
    d.inputs = torch::stack({t * angle.cos(), t * angle.sin()}, 1).to(torch::kFloat32).contiguous();
    d.numClasses = arms;
    return d;
}

/// Two interleaving half circles (as scikit-learn's make_moons) plus isotropic Gaussian noise of std `noise`.
Dataset moons(Options &o, at::Generator &gen) {
    const std::int64_t s = samplesOption(o, 1000, 2);
    const double noise = o.number("noise", 0.1, 0.0, 10.0);
    o.checkUnknown();
    chargeSamples(o, s, 2, "[2]", 8 + 8 * 8);
    Dataset d;
    d.targets = interleavedClasses(s, 2);
    const torch::Tensor theta = torch::rand({s}, gen, torch::kFloat64) * kPi;
    const torch::Tensor upper = d.targets.eq(0);
    const torch::Tensor x = torch::where(upper, theta.cos(), 1.0 - theta.cos());
    const torch::Tensor y = torch::where(upper, theta.sin(), 0.5 - theta.sin());
    const torch::Tensor n = torch::randn({s, 2}, gen, torch::kFloat64) * noise;
    d.inputs = (torch::stack({x, y}, 1) + n).to(torch::kFloat32).contiguous();
    d.numClasses = 2;
    d.classNames = {"upper", "lower"};
    return d;
}

/// Isotropic Gaussian blobs: `centers` centres drawn uniformly from [-10, 10]^features, std `spread`.
Dataset blobs(Options &o, at::Generator &gen) {
    const std::int64_t centers = o.integer("centers", 3, 2, 1000);
    const std::int64_t features = o.integer("features", 2, 1, 10000);
    const std::int64_t s = samplesOption(o, 1000, centers);
    const double spread = o.number("spread", 1.0, 0.0, 1000.0);
    o.checkUnknown();
    chargeSamples(o, s, features, "[" + std::to_string(features) + "]", 8);
    Dataset d;
    d.targets = interleavedClasses(s, centers);
    // float32 throughout: blobs are used for large synthetic benchmarks, where float64 noise
    // would double the generation time and memory.
    const torch::Tensor c = torch::rand({centers, features}, gen, torch::kFloat32) * 20.0 - 10.0;
    const float *const centre = c.data_ptr<float>();
    const std::int64_t *const label = d.targets.data_ptr<std::int64_t>();
    const float scale = static_cast<float>(spread);
    // Noise, scale and centre in one pass per row, on every core (10M values: 120 -> 25 ms on 2 cores).
    d.inputs = standardNormalRows({s, features}, gen, 0, [=](std::int64_t row, float *values) {
        const float *const mean = centre + label[row] * features;
        for (std::int64_t f = 0; f < features; ++f)
            values[f] = values[f] * scale + mean[f];
    });
    d.numClasses = centers;
    return d;
}

/// Points uniform in [-1, 1]^2 cut into tiles x tiles squares; the class is the colour of the square
/// ((column + row) % 2). Each sample picks a uniformly random square of its class.
Dataset checkerboard(Options &o, at::Generator &gen) {
    const std::int64_t tiles = o.integer("tiles", 4, 2, 1000);
    const std::int64_t s = samplesOption(o, 2000, 2);
    o.checkUnknown();
    chargeSamples(o, s, 2, "[2]", 8 + 3 * 8);
    std::vector<std::int64_t> cells[2];
    for (const auto cell : c10::irange(tiles * tiles))
        cells[(cell / tiles + cell % tiles) % 2].push_back(cell);
    Dataset d;
    d.targets = interleavedClasses(s, 2);
    const torch::Tensor pick = torch::rand({s}, gen, torch::kFloat64);
    const torch::Tensor pos = torch::rand({s, 2}, gen, torch::kFloat64);
    d.inputs = torch::empty({s, 2}, torch::kFloat32);
    const double *pk = pick.data_ptr<double>();
    const double *ps = pos.data_ptr<double>();
    float *out = d.inputs.data_ptr<float>();
    for (const auto i : c10::irange(s)) {
        if ((i & 0xFFFF) == 0) throwIfStopRequested();
        const auto &list = cells[i % 2];
        const auto n = static_cast<std::int64_t>(list.size());
        const std::int64_t cell = list[std::min<std::int64_t>(n - 1, static_cast<std::int64_t>(pk[i] * n))];
        const double cx = static_cast<double>(cell % tiles) + ps[2 * i];
        const double cy = static_cast<double>(cell / tiles) + ps[2 * i + 1];
        out[2 * i] = static_cast<float>(cx / tiles * 2.0 - 1.0);
        out[2 * i + 1] = static_cast<float>(cy / tiles * 2.0 - 1.0);
    }
    d.numClasses = 2;
    return d;
}

/// Regression: x uniform in [-pi, pi], y = sin(x) + noise * N(0, 1); inputs [S, 1], targets [S, 1].
Dataset sine(Options &o, at::Generator &gen) {
    const std::int64_t s = samplesOption(o, 1000, 1);
    const double noise = o.number("noise", 0.1, 0.0, 100.0);
    o.checkUnknown();
    chargeSamples(o, s, 1, "[1]", 4 + 4 * 8);
    Dataset d;
    const torch::Tensor x = torch::rand({s, 1}, gen, torch::kFloat64) * (2 * kPi) - kPi;
    const torch::Tensor n = torch::randn({s, 1}, gen, torch::kFloat64) * noise;
    d.inputs = x.to(torch::kFloat32).contiguous();
    d.targets = (x.sin() + n).to(torch::kFloat32).contiguous();
    d.task = "regression";
    return d;
}

/// Small images [S, 1, size, size] in [0, 1]: one filled shape (circle, square, triangle, cross) per image with a
/// random centre, half-extent in [0.2, 0.4] * size (always inside the image) and brightness in [0.5, 1] on a
/// black background, plus Gaussian pixel noise of std `noise`, clamped to [0, 1].
Dataset shapes(Options &o, at::Generator &gen) {
    const std::int64_t s = samplesOption(o, 2000, 4);
    const std::int64_t size = o.integer("size", 28, 8, 256);
    const double noise = o.number("noise", 0.1, 0.0, 1.0);
    o.checkUnknown();
    chargeSamples(o, s, size * size, "[1, " + std::to_string(size) + ", " + std::to_string(size) + "]", 8 + 4 * 8);
    Dataset d;
    d.targets = interleavedClasses(s, 4);
    const torch::Tensor params = torch::rand({s, 4}, gen, torch::kFloat64);
    const float noiseScale = static_cast<float>(noise);
    d.inputs = standardNormalRows({s, 1, size, size}, gen, 0, [=](std::int64_t, float *values) {
        for (std::int64_t k = 0; k < size * size; ++k)
            values[k] *= noiseScale;
    });
    const double *p = params.data_ptr<double>();
    float *img = d.inputs.data_ptr<float>();
    const double n = static_cast<double>(size);
    for (const auto i : c10::irange(s)) {
        if ((i & 0x3FF) == 0) throwIfStopRequested();
        const double *q = p + 4 * i;
        const double r = n * (0.2 + 0.2 * q[0]);
        const double cx = r + (n - 2 * r) * q[1];
        const double cy = r + (n - 2 * r) * q[2];
        const float value = static_cast<float>(0.5 + 0.5 * q[3]);
        const std::int64_t cls = i % 4;
        float *px = img + i * size * size;
        for (const auto y : c10::irange(size)) {
            for (const auto x : c10::irange(size)) {
                const double dx = static_cast<double>(x) + 0.5 - cx;
                const double dy = static_cast<double>(y) + 0.5 - cy;
                bool inside = false;
                switch (cls) {
                case 0: inside = dx * dx + dy * dy <= r * r; break;
                case 1: inside = std::fabs(dx) <= 0.8 * r && std::fabs(dy) <= 0.8 * r; break;
                case 2: inside = dy <= 0.5 * r && dy >= -r && std::fabs(dx) <= (dy + r) * 0.57735026919; break;
                default:
                    inside = (std::fabs(dx) <= 0.3 * r && std::fabs(dy) <= r) ||
                             (std::fabs(dy) <= 0.3 * r && std::fabs(dx) <= r);
                }
                if (inside) px[y * size + x] += value;
            }
        }
    }
    d.inputs.clamp_(0.0, 1.0);
    d.numClasses = 4;
    d.classNames = {"circle", "square", "triangle", "cross"};
    return d;
}

using Generator = Dataset (*)(Options &, at::Generator &);

struct Entry {
    const char *name;
    Generator generate;
};

const Entry kSynthetic[] = {{"spirals", spirals},           {"moons", moons}, {"blobs", blobs},
                            {"checkerboard", checkerboard}, {"sine", sine},   {"shapes", shapes}};

class SyntheticSource : public DataSource {
public:
    explicit SyntheticSource(const Entry &entry) : entry_(entry) {}

    Dataset load(const DataConfig &config, std::uint64_t seed) override {
        Options options(config, entry_.name);
        at::Generator gen = seededGenerator(seed, kStreamSynthetic);
        Dataset d = entry_.generate(options, gen);
        d.description = describe(entry_.name, d);
        return d;
    }

private:
    const Entry &entry_;
};

} // namespace

std::unique_ptr<DataSource> makeSyntheticSource(const std::string &name) {
    for (const Entry &e : kSynthetic)
        if (name == e.name) return std::make_unique<SyntheticSource>(e);
    return nullptr;
}

std::vector<std::string> syntheticSourceNames() {
    std::vector<std::string> names;
    for (const Entry &e : kSynthetic)
        names.emplace_back(e.name);
    return names;
}

} // namespace diamond::engine::data
