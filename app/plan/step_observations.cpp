#include "app/plan/step_observations.h"

#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>

#include <algorithm>
#include <cmath>

namespace diamond::app {

namespace {

QString tr(const char *text, const char *disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("StepObservations", text, disambiguation, n);
}

constexpr qint64 kMaxFileBytes = 4 << 20;
const char *const kShareKeys[] = {"conv2d", "linear", "elementwise", "optimizer", "allreduce", "overhead"};

bool positive(double v) { return std::isfinite(v) && v > 0; }

QList<QByteArray> readLines(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    if (f.size() > kMaxFileBytes) f.seek(f.size() - kMaxFileBytes); // the newest part; the first line may be cut
    QList<QByteArray> lines = f.readAll().split('\n');
    lines.removeAll(QByteArray());
    return lines;
}

} // namespace

QJsonObject StepObservation::toJson() const {
    QJsonObject s;
    for (auto it = shares.begin(); it != shares.end(); ++it)
        s.insert(it.key(), it.value());
    return {{QStringLiteral("run"), runId},
            {QStringLiteral("profile_measured_at"), profileMeasuredAt},
            {QStringLiteral("ranks"), ranks},
            {QStringLiteral("batch"), batch},
            {QStringLiteral("predicted_step_s"), predictedSeconds},
            {QStringLiteral("measured_step_s"), measuredSeconds},
            {QStringLiteral("shares"), s},
            {QStringLiteral("at"), at}};
}

std::optional<StepObservation> StepObservation::fromJson(const QJsonObject &json) {
    StepObservation o;
    o.runId = json.value(QStringLiteral("run")).toInteger();
    o.profileMeasuredAt = json.value(QStringLiteral("profile_measured_at")).toString();
    o.ranks = json.value(QStringLiteral("ranks")).toInt();
    o.batch = json.value(QStringLiteral("batch")).toInteger();
    o.predictedSeconds = json.value(QStringLiteral("predicted_step_s")).toDouble();
    o.measuredSeconds = json.value(QStringLiteral("measured_step_s")).toDouble();
    o.at = json.value(QStringLiteral("at")).toString();
    const QJsonObject s = json.value(QStringLiteral("shares")).toObject();
    for (const char *key : kShareKeys) {
        const double v = s.value(QLatin1String(key)).toDouble();
        if (!std::isfinite(v) || v < 0 || v > 1) return std::nullopt;
        o.shares.insert(QLatin1String(key), v);
    }
    if (o.ranks < 1 || o.ranks > 4096 || o.batch < 1 || !positive(o.predictedSeconds) || !positive(o.measuredSeconds))
        return std::nullopt;
    return o;
}

QMap<QString, double> predictionShares(const StepPrediction &p) {
    QMap<QString, double> s;
    for (const char *key : kShareKeys)
        s.insert(QLatin1String(key), 0);
    for (const NodeCost &n : p.nodes)
        if (n.basis != QLatin1String("free")) s[n.basis] += n.seconds;
    s[QStringLiteral("optimizer")] += p.optimizerSeconds;
    s[QStringLiteral("allreduce")] += p.allReduceSeconds;
    s[QStringLiteral("overhead")] += p.stepOverheadSeconds;
    double total = 0;
    for (double v : std::as_const(s))
        total += v;
    if (total > 0)
        for (double &v : s)
            v /= total;
    return s;
}

LearnedCorrection learnedCorrection(const StepPrediction &prediction, int ranks, qint64 batch,
                                    const QList<StepObservation> &observations) {
    const QMap<QString, double> mine = predictionShares(prediction);
    struct Near {
        double distance, logRatio;
    };
    QList<Near> near;
    for (const StepObservation &o : observations) {
        if ((o.ranks > 1) != (ranks > 1)) continue;
        double d = 0;
        for (const char *key : kShareKeys)
            d += std::abs(mine.value(QLatin1String(key)) - o.shares.value(QLatin1String(key)));
        d += 0.1 * std::abs(std::log2(double(std::max<qint64>(1, batch)) / double(o.batch)));
        if (d <= kMaxDistance) near.append({d, std::log(o.measuredSeconds / o.predictedSeconds)});
    }
    std::sort(near.begin(), near.end(), [](const Near &a, const Near &b) { return a.distance < b.distance; });
    if (near.size() > 8) near.resize(8);
    LearnedCorrection c;
    if (near.size() < kMinRuns) return c;
    double sum = 0, weights = 0, lo = near.first().logRatio, hi = lo;
    for (const Near &n : std::as_const(near)) {
        const double w = 1.0 / (n.distance + 0.05);
        sum += w * n.logRatio;
        weights += w;
        lo = std::min(lo, n.logRatio);
        hi = std::max(hi, n.logRatio);
    }
    c.factor = std::exp(sum / weights);
    c.runs = int(near.size());
    c.spread = std::exp(hi - lo);
    return c;
}

void applyLearnedCorrection(StepPrediction *p, const LearnedCorrection &c) {
    if (c.runs < kMinRuns || !p->ok) return;
    p->stepSeconds *= c.factor;
    p->samplesPerSecond = p->stepSeconds > 0 ? p->samplesPerSecond / c.factor : 0;
    p->learnedFactor = c.factor;
    p->learnedRuns = c.runs;
    p->confidence = c.spread <= 1.25 ? QStringLiteral("high") : QStringLiteral("medium");
    p->notes
        << tr("Corrected ×%1 from %n similar finished run(s) on this device.", "", c.runs).arg(c.factor, 0, 'f', 2);
}

QString StepObservationStore::pathOf(const QString &profileName) const {
    return QDir(ws_.path()).filePath(QStringLiteral("device-profiles/%1.observations.jsonl").arg(profileName));
}

bool StepObservationStore::append(const QString &profileName, const StepObservation &o, QString *error) {
    const QString path = pathOf(profileName);
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) return *error = tr("Cannot create %1.").arg(path), false;
    QList<QByteArray> lines = readLines(path);
    if (o.runId > 0) // a run observed again (its events read once more after a restart) replaces its line
        lines.removeIf([&](const QByteArray &line) {
            return QJsonDocument::fromJson(line).object().value(QStringLiteral("run")).toInteger() == o.runId;
        });
    lines.append(QJsonDocument(o.toJson()).toJson(QJsonDocument::Compact));
    if (lines.size() > kMaxObservations) lines = lines.mid(lines.size() - kMaxObservations);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(lines.join('\n') + '\n') < 0 || !f.commit())
        return *error = tr("Cannot write %1: %2").arg(path, f.errorString()), false;
    return true;
}

QList<StepObservation> StepObservationStore::load(const QString &profileName, const QString &measuredAt) const {
    QList<StepObservation> out;
    QList<QByteArray> lines = readLines(pathOf(profileName));
    if (lines.size() > kMaxObservations) lines = lines.mid(lines.size() - kMaxObservations);
    for (const QByteArray &line : std::as_const(lines)) {
        const auto o = StepObservation::fromJson(QJsonDocument::fromJson(line).object());
        if (o && o->profileMeasuredAt == measuredAt) out.append(*o);
    }
    return out;
}

} // namespace diamond::app
