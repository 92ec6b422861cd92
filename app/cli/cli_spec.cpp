#include "cli.h"

#include "diamond/spec/analysis.h"
#include "diamond/spec/recompute.h"
#include "diamond/spec/registry.h"
#include "diamond/spec/spec.h"

#include <QFile>
#include <QSaveFile>

#include <nlohmann/json.hpp>

#include <set>

namespace diamond::cli {

using nlohmann::json;
namespace spec = diamond::spec;

namespace {

QString q(const std::string &s) { return QString::fromStdString(s); }

QString specUsage() {
    return QStringLiteral(
        "Usage:\n"
        "  diamondctl spec check FILE\n"
        "  diamondctl spec info FILE [--batch N] [--optimizer sgd|sgd_momentum|adam|adamw|rmsprop] [--json]\n"
        "  diamondctl spec recompute FILE --activations-mb M [--batch N] [--output OUT] [--json]\n"
        "  diamondctl spec schema\n");
}

/// "FILE:LINE:COL: error: ..." (compiler style, so editors can jump to it).
void printDiagnostics(QTextStream &err, const QString &file, const std::vector<spec::Diagnostic> &diagnostics) {
    for (const auto &d : diagnostics) {
        err << file;
        if (d.line > 0) err << ':' << d.line << ':' << d.column;
        err << ": " << q(spec::formatDiagnostic(d)) << '\n';
    }
}

/// 11689512 -> "11,689,512", independent of the user's locale (scripts parse this output).
QString grouped(std::int64_t v) {
    QString digits = QString::number(v < 0 ? -static_cast<qulonglong>(v) : static_cast<qulonglong>(v));
    for (int i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return v < 0 ? QLatin1Char('-') + digits : digits;
}

QString humanBytes(std::int64_t bytes) {
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 5) {
        v /= 1024.0;
        ++u;
    }
    return QStringLiteral("%1 %2").arg(v, 0, 'f', u == 0 ? 0 : 1).arg(QString::fromLatin1(units[u]));
}

QString shapesText(const spec::NodeInfo &n) {
    QStringList parts;
    for (const auto &t : n.outputs)
        parts << q(spec::formatShape(t.shape));
    return parts.join(QLatin1Char(' '));
}

struct Loaded {
    spec::ParseResult parsed;
    spec::Analysis analysis;
    bool ok = false;
};

/// Loads and analyses `file`, printing its diagnostics to `err`.
Loaded load(const QString &file, QTextStream &err) {
    Loaded l;
    l.parsed = spec::loadSpecFile(file.toStdString());
    if (l.parsed.ok()) {
        l.analysis = spec::analyze(l.parsed.spec);
        l.ok = l.analysis.ok();
    }
    printDiagnostics(err, file, l.parsed.diagnostics);
    printDiagnostics(err, file, l.analysis.diagnostics);
    return l;
}

int check(const QStringList &args, Io &io) {
    if (args.size() != 1) {
        io.err << specUsage();
        return kUsage;
    }
    const Loaded l = load(args.first(), io.err);
    if (!l.ok) return kFailed;
    io.out << QStringLiteral("%1: valid (%2 layers, %3 parameters)\n")
                  .arg(args.first())
                  .arg(l.parsed.spec.nodes.size())
                  .arg(grouped(l.analysis.totalParams));
    return kOk;
}

int info(const QStringList &args, Io &io) {
    QString file;
    bool asJson = false;
    spec::MemoryOptions memory;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a == QLatin1String("--json")) {
            asJson = true;
        } else if (a == QLatin1String("--batch") && i + 1 < args.size()) {
            bool ok = false;
            memory.batch = args[++i].toLongLong(&ok);
            if (!ok || memory.batch < 1) {
                io.err << QStringLiteral("diamondctl: --batch needs a whole number of at least 1, got '%1'\n")
                              .arg(args[i]);
                return kUsage;
            }
        } else if (a == QLatin1String("--optimizer") && i + 1 < args.size()) {
            if (!spec::parseOptimizer(args[++i].toStdString(), memory.optimizer)) {
                io.err << QStringLiteral(
                              "diamondctl: unknown optimizer '%1' (sgd, sgd_momentum, adam, adamw, rmsprop)\n")
                              .arg(args[i]);
                return kUsage;
            }
        } else if (a.startsWith(QLatin1String("--")) || !file.isEmpty()) {
            io.err << QStringLiteral("diamondctl: unexpected argument '%1'\n").arg(a) << specUsage();
            return kUsage;
        } else {
            file = a;
        }
    }
    if (file.isEmpty()) {
        io.err << specUsage();
        return kUsage;
    }
    const Loaded l = load(file, io.err);
    if (!l.ok) return kFailed;
    const spec::MemoryEstimate mem = spec::estimateMemory(l.analysis, memory);

    if (asJson) {
        json layers = json::array();
        for (std::size_t i = 0; i < l.analysis.nodes.size(); ++i) {
            const auto &n = l.analysis.nodes[i];
            json shapes = json::array();
            for (const auto &t : n.outputs) {
                json s = json::array();
                for (auto d : t.shape)
                    s.push_back(d == spec::kBatch ? json("N") : json(d));
                shapes.push_back(s);
            }
            layers.push_back({{"id", n.id},
                              {"type", n.type},
                              {"output_shape", shapes.empty() ? json() : shapes[0]},
                              {"output_shapes", shapes},
                              {"params", n.paramCount},
                              {"flops", n.flops},
                              {"memory_bytes", mem.nodes[i].total()}});
        }
        json doc = {{"name", l.parsed.spec.name},
                    {"params", l.analysis.totalParams},
                    {"buffers", l.analysis.totalBuffers},
                    {"flops", l.analysis.totalFlops},
                    {"memory_bytes", mem.total()},
                    {"memory",
                     {{"batch", memory.batch},
                      {"weights", mem.weights},
                      {"gradients", mem.gradients},
                      {"optimizer_state", mem.optimizerState},
                      {"activations", mem.activations}}},
                    {"layers", layers}};
        io.out << q(doc.dump(2)) << '\n';
        return kOk;
    }

    int idWidth = 2, typeWidth = 4, shapeWidth = 12;
    for (const auto &n : l.analysis.nodes) {
        idWidth = std::max(idWidth, static_cast<int>(n.id.size()));
        typeWidth = std::max(typeWidth, static_cast<int>(n.type.size()));
        shapeWidth = std::max(shapeWidth, static_cast<int>(shapesText(n).size()));
    }
    auto row = [&](const QString &id, const QString &type, const QString &shape, const QString &params,
                   const QString &flops, const QString &memoryText) {
        io.out << id.leftJustified(idWidth) << "  " << type.leftJustified(typeWidth) << "  "
               << shape.leftJustified(shapeWidth) << "  " << params.rightJustified(12) << "  "
               << flops.rightJustified(15) << "  " << memoryText.rightJustified(10) << '\n';
    };
    row(QStringLiteral("id"), QStringLiteral("type"), QStringLiteral("output shape"), QStringLiteral("params"),
        QStringLiteral("FLOPs/sample"), QStringLiteral("memory"));
    for (std::size_t i = 0; i < l.analysis.nodes.size(); ++i) {
        const auto &n = l.analysis.nodes[i];
        row(q(n.id), q(n.type), shapesText(n), grouped(n.paramCount), grouped(n.flops),
            humanBytes(mem.nodes[i].total()));
    }
    io.out
        << '\n'
        << QStringLiteral("Parameters:   %1\n").arg(grouped(l.analysis.totalParams))
        << QStringLiteral("FLOPs/sample: %1 (forward; a multiply-add counts 2)\n").arg(grouped(l.analysis.totalFlops))
        << QStringLiteral("Memory:       %1 at batch %2 (weights %3, gradients %4, optimizer %5, activations %6)\n")
               .arg(humanBytes(mem.total()))
               .arg(memory.batch)
               .arg(humanBytes(mem.weights), humanBytes(mem.gradients), humanBytes(mem.optimizerState),
                    humanBytes(mem.activations));
    return kOk;
}

/// `spec recompute`: the layers to recompute so that the activations at the batch stay within the budget
/// (spec::chooseRecomputed, what the designer's Edit ▸ Recompute to fit a memory budget and the engine's "recompute":
/// "auto" choose); with --output, the spec marked with exactly those layers is written there.
int recompute(const QStringList &args, Io &io) {
    QString file, output;
    bool asJson = false;
    double budgetMb = -1;
    spec::MemoryOptions memory;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        bool ok = true;
        if (a == QLatin1String("--json"))
            asJson = true;
        else if (a == QLatin1String("--activations-mb") && i + 1 < args.size())
            budgetMb = args[++i].toDouble(&ok), ok = ok && budgetMb > 0 && budgetMb < 1e12;
        else if (a == QLatin1String("--batch") && i + 1 < args.size())
            memory.batch = args[++i].toLongLong(&ok), ok = ok && memory.batch >= 1 && memory.batch <= (1 << 24);
        else if (a == QLatin1String("--output") && i + 1 < args.size())
            output = args[++i];
        else if (a.startsWith(QLatin1String("--")) || !file.isEmpty())
            ok = false;
        else
            file = a;
        if (!ok) {
            io.err << QStringLiteral("diamondctl: bad argument '%1'\n").arg(i < args.size() ? args[i] : a)
                   << specUsage();
            return kUsage;
        }
    }
    if (file.isEmpty() || budgetMb <= 0) {
        io.err << specUsage();
        return kUsage;
    }
    const Loaded l = load(file, io.err);
    if (!l.ok) return kFailed;
    const auto budget = static_cast<std::int64_t>(budgetMb * 1048576.0);
    const spec::RecomputeChoice choice = spec::chooseRecomputed(l.analysis, memory, budget);
    if (!output.isEmpty()) {
        spec::Spec marked = l.parsed.spec;
        const std::set<std::string> chosen(choice.nodes.begin(), choice.nodes.end());
        for (spec::Node &n : marked.nodes)
            n.recompute = chosen.count(n.id) > 0;
        QSaveFile out(output);
        if (!out.open(QIODevice::WriteOnly) ||
            out.write(QByteArray::fromStdString(spec::toJson(marked).dump(2) + "\n")) < 0 || !out.commit()) {
            io.err << QStringLiteral("diamondctl: cannot write %1: %2\n").arg(output, out.errorString());
            return kFailed;
        }
    }
    if (asJson) {
        json doc = {{"batch", memory.batch},         {"budget_bytes", budget},
                    {"fits", choice.fits},           {"activation_bytes", choice.activationBytes},
                    {"recomputed", choice.nodes},    {"recomputed_flops", choice.flops},
                    {"flops", l.analysis.totalFlops}};
        if (!output.isEmpty()) doc["output"] = output.toStdString();
        io.out << q(doc.dump(2)) << '\n';
    } else {
        io.out << QStringLiteral("%1 of %2 layers recompute at batch %3: activations %4 (budget %5), %6 % of the "
                                 "forward FLOPs computed again\n")
                      .arg(choice.nodes.size())
                      .arg(l.parsed.spec.nodes.size())
                      .arg(memory.batch)
                      .arg(humanBytes(choice.activationBytes), humanBytes(budget))
                      .arg(100.0 * double(choice.flops) / double(std::max<std::int64_t>(1, l.analysis.totalFlops)), 0,
                           'f', 0);
        if (!choice.fits)
            io.out << QStringLiteral("Even with every layer recomputed the activations exceed the budget.\n");
        for (const std::string &id : choice.nodes)
            io.out << "  " << q(id) << '\n';
        if (!output.isEmpty()) io.out << QStringLiteral("Marked spec written to %1\n").arg(output);
    }
    return choice.fits ? kOk : kFailed;
}

} // namespace

int runSpec(const QStringList &args, Io &io) {
    if (args.isEmpty() || args.first() == QLatin1String("--help")) {
        (args.isEmpty() ? io.err : io.out) << specUsage();
        return args.isEmpty() ? kUsage : kOk;
    }
    const QString sub = args.first();
    if (sub == QLatin1String("check")) return check(args.mid(1), io);
    if (sub == QLatin1String("info")) return info(args.mid(1), io);
    if (sub == QLatin1String("recompute")) return recompute(args.mid(1), io);
    if (sub == QLatin1String("schema")) {
        io.out << q(spec::specJsonSchema().dump(2)) << '\n';
        return kOk;
    }
    io.err << QStringLiteral("diamondctl: unknown spec command '%1'\n").arg(sub) << specUsage();
    return kUsage;
}

} // namespace diamond::cli
