// Parsing and serialisation of the run config ("diamond.run/1"); see diamond/config/run_config.h.
#include "diamond/config/run_config.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <utility>

#include <unistd.h>

namespace diamond::config {

using nlohmann::json;

namespace {

/// Reads one JSON object's fields with type and range checks; remembers which keys were read
/// so unknown keys can be reported by name.
class Fields {
public:
    Fields(const json &object, std::string prefix) : object_(object), prefix_(std::move(prefix)) {
        if (!object_.is_object()) throw ConfigError("'" + where() + "' must be an object.", where());
    }

    std::string where(const std::string &key = {}) const {
        if (key.empty()) return prefix_.empty() ? std::string("config") : prefix_;
        return prefix_.empty() ? key : prefix_ + "." + key;
    }

    const json *find(const std::string &key) {
        known_.insert(key);
        auto it = object_.find(key);
        return it == object_.end() || it->is_null() ? nullptr : &*it;
    }

    void number(const std::string &key, double &out, double lo, double hi, bool loOpen = false) {
        const json *v = find(key);
        if (!v) return;
        if (!v->is_number())
            throw ConfigError("'" + where(key) + "' must be a number, got " + v->dump() + ".", where(key));
        const double d = v->get<double>();
        if (d < lo || d > hi || (loOpen && d == lo)) {
            std::ostringstream s;
            s << "'" << where(key) << "' must be " << (loOpen ? "greater than " : "at least ") << lo << " and at most "
              << hi << ", got " << d << ".";
            throw ConfigError(s.str(), where(key));
        }
        out = d;
    }

    template <typename Int> void integer(const std::string &key, Int &out, std::int64_t lo, std::int64_t hi) {
        const json *v = find(key);
        if (!v) return;
        if (!v->is_number_integer())
            throw ConfigError("'" + where(key) + "' must be a whole number, got " + v->dump() + ".", where(key));
        if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
            throw ConfigError("'" + where(key) + "' must be at most " + std::to_string(hi) + ".", where(key));
        const std::int64_t i = v->get<std::int64_t>();
        if (i < lo || i > hi)
            throw ConfigError("'" + where(key) + "' must be between " + std::to_string(lo) + " and " +
                                  std::to_string(hi) + ", got " + std::to_string(i) + ".",
                              where(key));
        out = static_cast<Int>(i);
    }

    void boolean(const std::string &key, bool &out) {
        const json *v = find(key);
        if (!v) return;
        if (!v->is_boolean()) throw ConfigError("'" + where(key) + "' must be true or false.", where(key));
        out = v->get<bool>();
    }

    void choice(const std::string &key, std::string &out, const std::vector<std::string> &choices) {
        const json *v = find(key);
        if (!v) return;
        std::string list;
        for (const auto &c : choices)
            list += (list.empty() ? "" : ", ") + c;
        if (!v->is_string())
            throw ConfigError("'" + where(key) + "' must be one of " + list + ", got " + v->dump() + ".", where(key));
        for (const auto &c : choices) {
            if (c == v->get<std::string>()) {
                out = c;
                return;
            }
        }
        throw ConfigError("'" + where(key) + "' must be one of " + list + ", got \"" + v->get<std::string>() + "\".",
                          where(key));
    }

    /// Throws for the first key that no reader asked for.
    void rejectUnknown() const {
        for (auto it = object_.begin(); it != object_.end(); ++it) {
            if (known_.count(it.key())) continue;
            std::string list;
            for (const auto &k : known_)
                list += (list.empty() ? "" : ", ") + k;
            throw ConfigError("Unknown field '" + where(it.key()) + "'.", where(it.key()),
                              "Known fields here: " + list + ".");
        }
    }

    void allowAll() {
        for (auto it = object_.begin(); it != object_.end(); ++it)
            known_.insert(it.key());
    }

private:
    const json &object_;
    std::string prefix_;
    std::set<std::string> known_;
};

const std::vector<std::string> kMetricNames = {"accuracy", "top5", "mae", "rmse", "r2"};

} // namespace

std::int64_t defaultDataMaxBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pageSize <= 0) return kMaxDefaultDataMaxBytes;
    const double physical = static_cast<double>(pages) * static_cast<double>(pageSize);
    const double threeQuarters = std::min(physical * 0.75, static_cast<double>(kMaxDefaultDataMaxBytes));
    return std::max(kMinDataMaxBytes, static_cast<std::int64_t>(threeQuarters));
}

std::string resolveDataPath(const std::string &baseDir, const std::string &path) {
    std::filesystem::path p(path);
    if (p.is_relative() && !baseDir.empty()) p = std::filesystem::path(baseDir) / p;
    return p.lexically_normal().string();
}

RunConfig parseRunConfig(const json &doc, const std::string &baseDir) {
    RunConfig c;
    Fields top(doc, {});
    const json *format = top.find("format");
    if (!format)
        throw ConfigError("The run config has no \"format\" field.", "format",
                          "Add \"format\": \"diamond.run/1\" at the top level.");
    if (!format->is_string() || format->get<std::string>() != kRunFormatV1)
        throw ConfigError("The run config uses the format " + format->dump() + ", but this engine reads only \"" +
                              kRunFormatV1 + "\".",
                          "format");

    const json *data = top.find("data");
    if (!data)
        throw ConfigError("The run config has no \"data\" section.", "data",
                          "Add e.g. \"data\": {\"source\": \"spirals\"}.");
    {
        Fields d(*data, "data");
        const json *source = d.find("source");
        if (!source || !source->is_string()) throw ConfigError("'data.source' must name a data source.", "data.source");
        c.data.source = source->get<std::string>();
        d.number("validation_split", c.data.validationSplit, 0.0, 0.9);
        d.boolean("standardize", c.data.standardize);
        d.integer("max_bytes", c.data.maxBytes, kMinDataMaxBytes, std::numeric_limits<std::int64_t>::max());
        c.data.options = *data;
        c.data.baseDir = baseDir;
        d.allowAll(); // the source checks its own options
    }

    top.integer("batch_size", c.batchSize, 1, 1 << 24);
    top.integer("epochs", c.epochs, 1, 1000000);
    top.integer("steps", c.steps, 0, std::int64_t(1) << 40);
    top.integer("seed", c.seed, 0, std::numeric_limits<std::int64_t>::max());
    top.integer("threads", c.threads, 0, 1024);
    top.choice("device", c.device, {"cpu", "cuda"});
    top.choice("precision", c.precision, {"fp32", "bf16", "fp16"});
    top.choice("sharding", c.sharding, {"none", "optimizer", "gradients"});
    top.choice("recompute", c.recompute, {"marked", "all", "none", "auto"});
    top.number("activation_budget_mb", c.activationBudgetMb, 0.0, 1e9);
    if (c.recompute == "auto" && c.activationBudgetMb <= 0)
        throw ConfigError("\"recompute\": \"auto\" needs 'activation_budget_mb', the activation memory per process to "
                          "stay within.",
                          "activation_budget_mb", "Set it, e.g. \"activation_budget_mb\": 512.");
    if (const json *p = top.find("pipeline")) {
        Fields f(*p, "pipeline");
        f.integer("stages", c.pipeline.stages, 1, 64);
        f.integer("micro_batches", c.pipeline.microBatches, 1, 4096);
        if (const json *cut = f.find("cut")) {
            const bool names = cut->is_array() && std::all_of(cut->begin(), cut->end(), [](const json &id) {
                                   return id.is_string() && !id.get<std::string>().empty();
                               });
            if (!(cut->is_string() && cut->get<std::string>() == "auto") && !names)
                throw ConfigError("'pipeline.cut' must be \"auto\" or a list of node ids, the last node of each stage "
                                  "but the last.",
                                  "pipeline.cut", "For example \"cut\": [\"fc2\"] for two stages.");
            if (names)
                for (const json &id : *cut)
                    c.pipeline.cut.push_back(id.get<std::string>());
        }
        f.rejectUnknown();
        if (!c.pipeline.cut.empty() && static_cast<int>(c.pipeline.cut.size()) != c.pipeline.stages - 1)
            throw ConfigError("'pipeline.cut' names " + std::to_string(c.pipeline.cut.size()) + " node(s); " +
                                  std::to_string(c.pipeline.stages) + " stages need " +
                                  std::to_string(c.pipeline.stages - 1) + ".",
                              "pipeline.cut", "Name the last node of every stage but the last, or use \"auto\".");
        if (c.pipeline.stages > 1 && c.batchSize % c.pipeline.microBatches != 0)
            throw ConfigError("batch_size " + std::to_string(c.batchSize) + " is not divisible by the " +
                                  std::to_string(c.pipeline.microBatches) +
                                  " micro-batches of 'pipeline.micro_batches'.",
                              "pipeline.micro_batches", "Use a divisor of batch_size.");
        if (c.pipeline.stages > 1 && c.sharding != "none")
            throw ConfigError("'sharding' splits the state of data-parallel processes; a pipeline run has one process "
                              "per stage, each holding only its stage's state.",
                              "sharding", "Set \"sharding\": \"none\" with a pipeline.");
    }
    top.boolean("deterministic", c.deterministic);
    top.boolean("cudnn_benchmark", c.cudnnBenchmark);
    top.boolean("flush_denormals", c.flushDenormals);
    top.number("grad_clip_norm", c.gradClipNorm, 0.0, 1e12);
    top.integer("accumulation_steps", c.accumulationSteps, 1, 4096);
    top.integer("log_every_steps", c.logEverySteps, 1, std::int64_t(1) << 40);
    top.integer("eval_every_steps", c.evalEverySteps, 0, std::int64_t(1) << 40);

    if (const json *o = top.find("optimizer")) {
        Fields f(*o, "optimizer");
        f.choice("name", c.optimizer.name, {"sgd", "adam", "adamw", "rmsprop"});
        if (c.optimizer.name == "adamw") c.optimizer.weightDecay = 0.01;
        f.number("lr", c.optimizer.lr, 0.0, 1e6, true);
        f.number("momentum", c.optimizer.momentum, 0.0, 0.999999);
        f.boolean("nesterov", c.optimizer.nesterov);
        f.number("weight_decay", c.optimizer.weightDecay, 0.0, 1e3);
        f.number("eps", c.optimizer.eps, 0.0, 1.0, true);
        f.number("alpha", c.optimizer.alpha, 0.0, 1.0);
        if (const json *betas = f.find("betas")) {
            if (!betas->is_array() || betas->size() != 2 || !(*betas)[0].is_number() || !(*betas)[1].is_number())
                throw ConfigError("'optimizer.betas' must be a list of two numbers such as [0.9, 0.999].",
                                  "optimizer.betas");
            c.optimizer.beta1 = (*betas)[0].get<double>();
            c.optimizer.beta2 = (*betas)[1].get<double>();
            if (c.optimizer.beta1 < 0 || c.optimizer.beta1 >= 1 || c.optimizer.beta2 < 0 || c.optimizer.beta2 >= 1)
                throw ConfigError("'optimizer.betas' must both be in [0, 1).", "optimizer.betas");
        }
        f.rejectUnknown();
        if (c.optimizer.nesterov && c.optimizer.momentum <= 0)
            throw ConfigError("'optimizer.nesterov' needs a momentum greater than 0.", "optimizer.nesterov");
    }
    if (const json *s = top.find("schedule")) {
        Fields f(*s, "schedule");
        f.choice("name", c.schedule.name, {"constant", "step", "cosine", "warmup", "one_cycle"});
        f.integer("warmup_steps", c.schedule.warmupSteps, 0, std::int64_t(1) << 40);
        f.integer("step_size", c.schedule.stepSize, 0, std::int64_t(1) << 40);
        f.number("gamma", c.schedule.gamma, 0.0, 1.0, true);
        f.number("min_lr", c.schedule.minLr, 0.0, 1e6);
        f.number("pct_start", c.schedule.pctStart, 0.0, 1.0, true);
        f.number("div_factor", c.schedule.divFactor, 1.0, 1e9);
        f.number("final_div_factor", c.schedule.finalDivFactor, 1.0, 1e12);
        f.rejectUnknown();
    }
    if (const json *l = top.find("loss")) {
        Fields f(*l, "loss");
        f.choice("name", c.loss.name, {"cross_entropy", "mse", "l1", "huber", "bce_with_logits"});
        f.number("label_smoothing", c.loss.labelSmoothing, 0.0, 0.999);
        f.number("delta", c.loss.delta, 0.0, 1e9, true);
        f.rejectUnknown();
    }
    if (const json *m = top.find("metrics")) {
        if (!m->is_array()) throw ConfigError("'metrics' must be a list such as [\"accuracy\"].", "metrics");
        for (const auto &name : *m) {
            bool ok = name.is_string();
            if (ok)
                ok = std::find(kMetricNames.begin(), kMetricNames.end(), name.get<std::string>()) != kMetricNames.end();
            if (!ok)
                throw ConfigError("Unknown metric " + name.dump() + " in 'metrics'.", "metrics",
                                  "Known metrics: accuracy, top5, mae, rmse, r2.");
            c.metrics.push_back(name.get<std::string>());
        }
    }
    if (const json *k = top.find("checkpoint")) {
        Fields f(*k, "checkpoint");
        f.integer("every_steps", c.checkpoint.everySteps, 0, std::int64_t(1) << 40);
        f.number("every_seconds", c.checkpoint.everySeconds, 0.0, 1e9);
        f.integer("keep_last", c.checkpoint.keepLast, 1, 1000);
        f.rejectUnknown();
    }
    if (const json *e = top.find("early_stopping")) {
        Fields f(*e, "early_stopping");
        c.earlyStopping.enabled = true;
        f.boolean("enabled", c.earlyStopping.enabled);
        if (const json *metric = f.find("metric")) {
            if (!metric->is_string())
                throw ConfigError("'early_stopping.metric' must be a metric name such as \"val_loss\".",
                                  "early_stopping.metric");
            c.earlyStopping.metric = metric->get<std::string>();
        }
        f.choice("mode", c.earlyStopping.mode, {"min", "max"});
        f.integer("patience", c.earlyStopping.patience, 1, 1000000);
        f.number("min_delta", c.earlyStopping.minDelta, 0.0, 1e12);
        f.rejectUnknown();
    }
    top.rejectUnknown();
    if (c.schedule.name == "one_cycle" && c.schedule.warmupSteps > 0)
        throw ConfigError("'schedule.warmup_steps' does not apply to one_cycle; use 'schedule.pct_start'.",
                          "schedule.warmup_steps");
    return c;
}

RunConfig loadRunConfig(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ConfigError("Cannot open the run config '" + path + "'.", "config");
    std::ostringstream text;
    text << in.rdbuf();
    json doc;
    try {
        doc = json::parse(text.str());
    } catch (const json::parse_error &e) {
        throw ConfigError("The run config '" + path + "' is not valid JSON: " + e.what(), "config");
    }
    const std::string base = std::filesystem::absolute(path).parent_path().string();
    return parseRunConfig(doc, base);
}

json toJson(const RunConfig &c) {
    json data = c.data.options;
    data["validation_split"] = c.data.validationSplit;
    data["standardize"] = c.data.standardize;
    if (c.data.maxBytes > 0)
        data["max_bytes"] = c.data.maxBytes;
    else
        data.erase("max_bytes"); // not set: the machine's default applies, which is no fixed number
    json loss = {{"label_smoothing", c.loss.labelSmoothing}, {"delta", c.loss.delta}};
    if (!c.loss.name.empty()) loss["name"] = c.loss.name; // empty = by task; "" would not parse again
    return {
        {"format", kRunFormatV1},
        {"data", data},
        {"batch_size", c.batchSize},
        {"epochs", c.epochs},
        {"steps", c.steps},
        {"optimizer",
         {{"name", c.optimizer.name},
          {"lr", c.optimizer.lr},
          {"momentum", c.optimizer.momentum},
          {"nesterov", c.optimizer.nesterov},
          {"weight_decay", c.optimizer.weightDecay},
          {"betas", {c.optimizer.beta1, c.optimizer.beta2}},
          {"eps", c.optimizer.eps},
          {"alpha", c.optimizer.alpha}}},
        {"schedule",
         {{"name", c.schedule.name},
          {"warmup_steps", c.schedule.warmupSteps},
          {"step_size", c.schedule.stepSize},
          {"gamma", c.schedule.gamma},
          {"min_lr", c.schedule.minLr},
          {"pct_start", c.schedule.pctStart},
          {"div_factor", c.schedule.divFactor},
          {"final_div_factor", c.schedule.finalDivFactor}}},
        {"loss", loss},
        {"metrics", c.metrics},
        {"seed", c.seed},
        {"threads", c.threads},
        {"device", c.device},
        {"precision", c.precision},
        {"sharding", c.sharding},
        {"recompute", c.recompute},
        {"activation_budget_mb", c.activationBudgetMb},
        {"pipeline",
         {{"stages", c.pipeline.stages},
          {"micro_batches", c.pipeline.microBatches},
          {"cut", c.pipeline.cut.empty() ? json("auto") : json(c.pipeline.cut)}}},
        {"deterministic", c.deterministic},
        {"cudnn_benchmark", c.cudnnBenchmark},
        {"flush_denormals", c.flushDenormals},
        {"checkpoint",
         {{"every_steps", c.checkpoint.everySteps},
          {"every_seconds", c.checkpoint.everySeconds},
          {"keep_last", c.checkpoint.keepLast}}},
        {"early_stopping",
         {{"enabled", c.earlyStopping.enabled},
          {"metric", c.earlyStopping.metric},
          {"mode", c.earlyStopping.mode},
          {"patience", c.earlyStopping.patience},
          {"min_delta", c.earlyStopping.minDelta}}},
        {"grad_clip_norm", c.gradClipNorm},
        {"accumulation_steps", c.accumulationSteps},
        {"log_every_steps", c.logEverySteps},
        {"eval_every_steps", c.evalEverySteps},
    };
}

} // namespace diamond::config
