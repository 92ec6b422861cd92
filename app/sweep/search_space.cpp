#include "app/sweep/search_space.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace diamond::app::sweep {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::sweep", text); }

std::uint64_t splitMix(std::uint64_t &x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

QString num(double v) { return QString::number(v, 'g', 10); }

/// Sets `value` at `path` in `obj`. Missing objects on the way are created when `create`; a non-object on the
/// way is an error (*bad = the prefix that is not an object).
bool setPath(QJsonObject &obj, const QStringList &path, int at, const QJsonValue &value, bool create, QString *bad) {
    const QString &key = path.at(at);
    if (at + 1 == path.size()) {
        if (!create && !obj.contains(key)) {
            *bad = path.mid(0, at + 1).join(QLatin1Char('.'));
            return false;
        }
        obj.insert(key, value);
        return true;
    }
    QJsonValue child = obj.value(key);
    if (child.isUndefined() && create) child = QJsonObject();
    if (!child.isObject()) {
        *bad = path.mid(0, at + 1).join(QLatin1Char('.'));
        return false;
    }
    QJsonObject o = child.toObject();
    if (!setPath(o, path, at + 1, value, create, bad)) return false;
    obj.insert(key, o);
    return true;
}

/// Replaces every string "${name}" in v by value; returns the number of replacements.
int substitute(QJsonValue &v, const QString &placeholder, const QJsonValue &value) {
    int n = 0;
    if (v.isString() && v.toString() == placeholder) {
        v = value;
        return 1;
    }
    if (v.isObject()) {
        QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            QJsonValue c = it.value();
            const int k = substitute(c, placeholder, value);
            if (k) it.value() = c;
            n += k;
        }
        if (n) v = o;
    } else if (v.isArray()) {
        QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            QJsonValue c = a.at(i);
            const int k = substitute(c, placeholder, value);
            if (k) a.replace(i, c);
            n += k;
        }
        if (n) v = a;
    }
    return n;
}

bool applyOne(const SearchParameter &p, const QJsonValue &value, QJsonObject *spec, QJsonObject *config,
              QString *error) {
    QString bad;
    switch (p.targetKind) {
    case TargetKind::Config:
        if (!setPath(*config, p.path, 0, value, true, &bad)) {
            *error = tr("parameter '%1': run-config field '%2' is not an object, so '%3' cannot be set")
                         .arg(p.name, bad, p.target);
            return false;
        }
        return true;
    case TargetKind::Spec: {
        QJsonArray nodes = spec->value(QStringLiteral("nodes")).toArray();
        for (qsizetype i = 0; i < nodes.size(); ++i) {
            QJsonObject node = nodes.at(i).toObject();
            if (node.value(QStringLiteral("id")).toString() != p.node) continue;
            QJsonObject params = node.value(QStringLiteral("params")).toObject();
            if (!setPath(params, p.path, 0, value, true, &bad)) {
                *error = tr("parameter '%1': '%2' of node '%3' is not an object").arg(p.name, bad, p.node);
                return false;
            }
            node.insert(QStringLiteral("params"), params);
            nodes.replace(i, node);
            spec->insert(QStringLiteral("nodes"), nodes);
            return true;
        }
        *error = tr("parameter '%1': the spec has no node '%2' (target '%3')").arg(p.name, p.node, p.target);
        return false;
    }
    case TargetKind::Template: {
        const QString placeholder = QStringLiteral("${%1}").arg(p.path.value(0));
        QJsonValue s(*spec), c(*config);
        const int n = substitute(s, placeholder, value) + substitute(c, placeholder, value);
        if (n == 0) {
            *error = tr("parameter '%1': neither the spec nor the run config contains the placeholder \"%2\"")
                         .arg(p.name, placeholder);
            return false;
        }
        *spec = s.toObject();
        *config = c.toObject();
        return true;
    }
    }
    return false;
}

} // namespace

// --- Rng ---

Rng::Rng(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto &s : s_)
        s = splitMix(x);
}

Rng Rng::forIndex(std::uint64_t seed, std::uint64_t index) {
    std::uint64_t x = seed ^ 0x5DEECE66Dull;
    const std::uint64_t a = splitMix(x);
    std::uint64_t y = index + 0x632BE59BD9B4E019ull;
    return Rng(a ^ splitMix(y));
}

std::uint64_t Rng::next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

double Rng::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double Rng::normal() {
    double u = uniform();
    while (u <= 0.0)
        u = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * uniform());
}

std::uint64_t Rng::below(std::uint64_t n) { return n == 0 ? 0 : static_cast<std::uint64_t>(uniform() * double(n)); }

// --- SearchParameter ---

QJsonValue SearchParameter::sample(Rng &rng) const {
    switch (kind) {
    case ParamKind::Choice: return values.at(static_cast<qsizetype>(rng.below(values.size())));
    case ParamKind::Uniform: return low + (high - low) * rng.uniform();
    case ParamKind::LogUniform: return std::exp(std::log(low) + (std::log(high) - std::log(low)) * rng.uniform());
    case ParamKind::Integer:
        if (log) {
            // Log-uniform over [low - 0.5, high + 0.5), rounded: every integer is reachable.
            const double a = std::log(low - 0.5), b = std::log(high + 0.5);
            const double v = std::exp(a + (b - a) * rng.uniform());
            return static_cast<qint64>(std::clamp(std::llround(v), qint64(low), qint64(high)));
        }
        return static_cast<qint64>(low) + static_cast<qint64>(rng.below(static_cast<std::uint64_t>(high - low + 1)));
    }
    return {};
}

QList<QJsonValue> SearchParameter::gridValues(int defaultPoints) const {
    const int points = std::max(1, gridPoints > 0 ? gridPoints : defaultPoints);
    QList<QJsonValue> out;
    if (kind == ParamKind::Choice) {
        for (const QJsonValue &v : values)
            out.append(v);
        return out;
    }
    if (kind == ParamKind::Integer && high - low + 1 <= points) {
        for (qint64 v = qint64(low); v <= qint64(high); ++v)
            out.append(v);
        return out;
    }
    const bool lg = isLogScale();
    const double a = lg ? std::log(low) : low, b = lg ? std::log(high) : high;
    QSet<qint64> seen;
    for (int i = 0; i < points; ++i) {
        const double t = points == 1 ? 0.5 : double(i) / double(points - 1);
        const double x = lg ? std::exp(a + (b - a) * t) : a + (b - a) * t;
        if (kind == ParamKind::Integer) {
            const qint64 v = std::clamp(std::llround(x), qint64(low), qint64(high));
            if (!seen.contains(v)) out.append(v);
            seen.insert(v);
        } else {
            out.append(x);
        }
    }
    return out;
}

double SearchParameter::modelLow() const {
    if (kind == ParamKind::Choice) return 0;
    if (kind == ParamKind::Integer) return log ? std::log(low - 0.5) : low - 0.5;
    return isLogScale() ? std::log(low) : low;
}

double SearchParameter::modelHigh() const {
    if (kind == ParamKind::Choice) return double(values.size() - 1);
    if (kind == ParamKind::Integer) return log ? std::log(high + 0.5) : high + 0.5;
    return isLogScale() ? std::log(high) : high;
}

double SearchParameter::toModel(const QJsonValue &value) const {
    if (kind == ParamKind::Choice) {
        for (qsizetype i = 0; i < values.size(); ++i)
            if (values.at(i) == value) return double(i);
        return 0;
    }
    const double v = value.toDouble();
    return isLogScale() ? std::log(std::max(v, 1e-300)) : v;
}

QJsonValue SearchParameter::fromModel(double x) const {
    if (kind == ParamKind::Choice)
        return values.at(std::clamp<qsizetype>(qsizetype(std::llround(x)), 0, values.size() - 1));
    const double v = isLogScale() ? std::exp(x) : x;
    if (kind == ParamKind::Integer) return std::clamp(std::llround(v), qint64(low), qint64(high));
    return std::clamp(v, low, high);
}

QJsonObject SearchParameter::toJson() const {
    static const char *kNames[] = {"choice", "uniform", "log_uniform", "int"};
    QJsonObject o{{QStringLiteral("name"), name},
                  {QStringLiteral("target"), target},
                  {QStringLiteral("type"), QString::fromLatin1(kNames[int(kind)])}};
    if (kind == ParamKind::Choice) {
        o.insert(QStringLiteral("values"), values);
    } else {
        o.insert(QStringLiteral("low"), low);
        o.insert(QStringLiteral("high"), high);
    }
    if (kind == ParamKind::Integer && log) o.insert(QStringLiteral("log"), true);
    if (gridPoints > 0) o.insert(QStringLiteral("grid_points"), gridPoints);
    return o;
}

// --- SearchSpace ---

const QStringList &runConfigFields() {
    static const QStringList fields{QStringLiteral("data"),
                                    QStringLiteral("batch_size"),
                                    QStringLiteral("epochs"),
                                    QStringLiteral("steps"),
                                    QStringLiteral("accumulation_steps"),
                                    QStringLiteral("optimizer"),
                                    QStringLiteral("schedule"),
                                    QStringLiteral("loss"),
                                    QStringLiteral("metrics"),
                                    QStringLiteral("seed"),
                                    QStringLiteral("threads"),
                                    QStringLiteral("device"),
                                    QStringLiteral("flush_denormals"),
                                    QStringLiteral("checkpoint"),
                                    QStringLiteral("early_stopping"),
                                    QStringLiteral("grad_clip_norm"),
                                    QStringLiteral("log_every_steps"),
                                    QStringLiteral("eval_every_steps")};
    return fields;
}

std::optional<SearchSpace> SearchSpace::fromJson(const QJsonValue &space, QString *error) {
    if (!space.isArray() || space.toArray().isEmpty()) {
        *error = tr("space: must be a non-empty array of parameters");
        return std::nullopt;
    }
    SearchSpace out;
    QSet<QString> names;
    const QJsonArray array = space.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString field = QStringLiteral("space[%1]").arg(i);
        auto fail = [&](const QString &what, const QString &message) {
            *error =
                QStringLiteral("%1%2: %3").arg(field, what.isEmpty() ? QString() : QLatin1Char('.') + what, message);
            return std::nullopt;
        };
        if (!array.at(i).isObject()) return fail({}, tr("must be an object"));
        const QJsonObject o = array.at(i).toObject();
        static const QStringList known{QStringLiteral("name"),   QStringLiteral("target"),     QStringLiteral("type"),
                                       QStringLiteral("low"),    QStringLiteral("high"),       QStringLiteral("log"),
                                       QStringLiteral("values"), QStringLiteral("grid_points")};
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!known.contains(it.key()))
                return fail(it.key(), tr("unknown field (known: %1)").arg(known.join(QStringLiteral(", "))));
        SearchParameter p;
        p.target = o.value(QStringLiteral("target")).toString();
        if (p.target.isEmpty())
            return fail(QStringLiteral("target"), tr("required (a run-config path such as "
                                                     "\"optimizer.lr\", \"spec:<node>.<param>\" "
                                                     "or \"template:<name>\")"));
        p.name = o.value(QStringLiteral("name")).toString(p.target);
        if (names.contains(p.name)) return fail(QStringLiteral("name"), tr("\"%1\" is used twice").arg(p.name));
        names.insert(p.name);
        QString rest = p.target;
        if (rest.startsWith(QLatin1String("spec:"))) {
            p.targetKind = TargetKind::Spec;
            rest = rest.mid(5);
            const QStringList parts = rest.split(QLatin1Char('.'));
            if (parts.size() < 2 || parts.contains(QString()))
                return fail(QStringLiteral("target"), tr("\"%1\" must be spec:<node id>.<param>").arg(p.target));
            p.node = parts.first();
            p.path = parts.mid(1);
        } else if (rest.startsWith(QLatin1String("template:"))) {
            p.targetKind = TargetKind::Template;
            rest = rest.mid(9);
            if (rest.isEmpty()) return fail(QStringLiteral("target"), tr("\"%1\" needs a name").arg(p.target));
            p.path = {rest};
        } else {
            p.path = rest.split(QLatin1Char('.'));
            if (p.path.contains(QString()))
                return fail(QStringLiteral("target"), tr("\"%1\" is not a valid field path").arg(p.target));
            if (!runConfigFields().contains(p.path.first()))
                return fail(QStringLiteral("target"),
                            tr("\"%1\" is not a run-config field (known: %2)")
                                .arg(p.path.first(), runConfigFields().join(QStringLiteral(", "))));
        }
        const QString type = o.value(QStringLiteral("type")).toString();
        if (type == QLatin1String("choice")) {
            p.kind = ParamKind::Choice;
            p.values = o.value(QStringLiteral("values")).toArray();
            if (p.values.isEmpty()) return fail(QStringLiteral("values"), tr("a choice needs a non-empty array"));
        } else if (type == QLatin1String("uniform") || type == QLatin1String("log_uniform") ||
                   type == QLatin1String("int")) {
            p.kind = type == QLatin1String("uniform")       ? ParamKind::Uniform
                     : type == QLatin1String("log_uniform") ? ParamKind::LogUniform
                                                            : ParamKind::Integer;
            if (!o.value(QStringLiteral("low")).isDouble()) return fail(QStringLiteral("low"), tr("required number"));
            if (!o.value(QStringLiteral("high")).isDouble()) return fail(QStringLiteral("high"), tr("required number"));
            p.low = o.value(QStringLiteral("low")).toDouble();
            p.high = o.value(QStringLiteral("high")).toDouble();
            p.log = o.value(QStringLiteral("log")).toBool(false);
            if (p.kind == ParamKind::Integer && (p.low != std::floor(p.low) || p.high != std::floor(p.high)))
                return fail(QStringLiteral("low"), tr("an int parameter needs integer bounds"));
            if (!(p.high > p.low) && !(p.kind == ParamKind::Integer && p.high == p.low))
                return fail(QStringLiteral("high"), tr("must be greater than low (%1)").arg(num(p.low)));
            if (p.isLogScale() && p.low <= 0)
                return fail(QStringLiteral("low"), tr("must be > 0 for a log-scale parameter"));
            if (o.contains(QStringLiteral("log")) && p.kind != ParamKind::Integer)
                return fail(QStringLiteral("log"), tr("only int parameters take \"log\" (use type log_uniform)"));
        } else {
            return fail(QStringLiteral("type"), tr("\"%1\" is not one of choice, uniform, log_uniform, int").arg(type));
        }
        if (o.contains(QStringLiteral("grid_points"))) {
            p.gridPoints = o.value(QStringLiteral("grid_points")).toInt(0);
            if (p.gridPoints < 1) return fail(QStringLiteral("grid_points"), tr("must be a positive integer"));
        }
        out.params_.append(p);
    }
    return out;
}

QJsonArray SearchSpace::toJson() const {
    QJsonArray a;
    for (const auto &p : params_)
        a.append(p.toJson());
    return a;
}

int SearchSpace::indexOf(const QString &name) const {
    for (int i = 0; i < size(); ++i)
        if (params_.at(i).name == name) return i;
    return -1;
}

QJsonObject SearchSpace::sample(Rng &rng) const {
    QJsonObject o;
    for (const auto &p : params_)
        o.insert(p.name, p.sample(rng));
    return o;
}

qint64 SearchSpace::gridSize(int defaultPoints) const {
    qint64 n = 1;
    for (const auto &p : params_) {
        n *= std::max<qint64>(1, p.gridValues(defaultPoints).size());
        if (n > (qint64(1) << 62)) return qint64(1) << 62;
    }
    return n;
}

QJsonObject SearchSpace::gridPoint(qint64 index, int defaultPoints) const {
    QJsonObject o;
    for (int i = size() - 1; i >= 0; --i) {
        const QList<QJsonValue> values = params_.at(i).gridValues(defaultPoints);
        const qint64 n = values.size();
        o.insert(params_.at(i).name, values.at(index % n));
        index /= n;
    }
    return o;
}

bool SearchSpace::validateTargets(const QJsonObject &spec, const QJsonObject &config, QString *error) const {
    QJsonObject s = spec, c = config;
    for (const auto &p : params_) {
        const QJsonValue v = p.kind == ParamKind::Choice ? p.values.first() : p.fromModel(p.modelLow());
        if (!applyOne(p, v, &s, &c, error)) return false;
        s = spec; // template placeholders must be found in the original documents
        c = config;
    }
    return true;
}

bool SearchSpace::apply(const QJsonObject &sample, QJsonObject *spec, QJsonObject *config, QString *error) const {
    for (const auto &p : params_) {
        if (!sample.contains(p.name)) {
            *error = tr("parameter '%1': missing from the sample").arg(p.name);
            return false;
        }
        if (!applyOne(p, sample.value(p.name), spec, config, error)) return false;
    }
    return true;
}

} // namespace diamond::app::sweep
