#include "app/data/array_files.h"

#include "remote/engine_command.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <algorithm>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::ArrayFiles", text); }

constexpr qint64 kMaxListingBytes = qint64(16) << 20;

qint64 rowsOf(const StoredArray &a) { return a.shape.isEmpty() ? -1 : a.shape.first(); }

double elementsOf(const StoredArray &a) {
    double n = 1;
    for (qint64 d : a.shape)
        n *= double(d);
    return n;
}

bool looksLikeTargetName(const QString &name) {
    const QString last = name.section(QLatin1Char('/'), -1).toLower();
    static const QStringList names = {QStringLiteral("y"),       QStringLiteral("label"),   QStringLiteral("labels"),
                                      QStringLiteral("target"),  QStringLiteral("targets"), QStringLiteral("class"),
                                      QStringLiteral("classes"), QStringLiteral("y_train")};
    return names.contains(last);
}

bool isVector(const StoredArray &a) { return a.shape.size() == 1 || (a.shape.size() == 2 && a.shape[1] == 1); }

} // namespace

QString StoredArray::shapeText() const {
    QStringList parts;
    for (qint64 d : shape)
        parts << QString::number(d);
    return parts.isEmpty() ? tr("scalar") : parts.join(QStringLiteral(" × "));
}

void guessArrayRoles(ArrayListing &listing) {
    listing.inputs.clear();
    listing.targets.clear();
    const StoredArray *targets = nullptr;
    int best = -1;
    for (const StoredArray &a : listing.arrays) {
        if (!a.readable || !isVector(a)) continue;
        // A named target first; among equals, one that some other readable array has as many rows as.
        bool partnered = false;
        for (const StoredArray &b : listing.arrays)
            partnered |= &b != &a && b.readable && rowsOf(b) == rowsOf(a);
        const int score = (looksLikeTargetName(a.name) ? 2 : 0) + (partnered ? 1 : 0);
        if (score > best) best = score, targets = &a;
    }
    const StoredArray *inputs = nullptr;
    for (const StoredArray &a : listing.arrays) {
        if (!a.readable || &a == targets || (targets && rowsOf(a) != rowsOf(*targets))) continue;
        if (!inputs || elementsOf(a) > elementsOf(*inputs)) inputs = &a;
    }
    if (!inputs) // no partner with as many rows: the largest readable array, so that the engine names the mismatch
        for (const StoredArray &a : listing.arrays)
            if (a.readable && &a != targets && (!inputs || elementsOf(a) > elementsOf(*inputs))) inputs = &a;
    if (inputs) listing.inputs = inputs->name;
    if (targets) listing.targets = targets->name;
}

ArrayListing listArrays(const QString &enginePath, const QString &file, int timeoutMs) {
    ArrayListing listing;
    const QString name = QFileInfo(file).fileName();
    if (!QFileInfo(enginePath).isExecutable()) {
        listing.error = tr("Cannot list the arrays of %1: the engine %2 is missing.").arg(name, enginePath);
        return listing;
    }
    remote::EngineCommand command;
    command.mode = remote::EngineCommand::Mode::ListArrays;
    command.inputsFile = file;
    QProcess engine;
    engine.start(enginePath, command.arguments());
    QByteArray out;
    bool finished = engine.waitForStarted();
    if (finished) {
        QDeadlineTimer deadline(timeoutMs);
        while (engine.state() != QProcess::NotRunning && !deadline.hasExpired() && out.size() <= kMaxListingBytes) {
            engine.waitForReadyRead(int(std::min<qint64>(deadline.remainingTime(), 200)));
            out += engine.readAllStandardOutput();
        }
        finished = engine.state() == QProcess::NotRunning;
        if (!finished) {
            engine.kill();
            engine.waitForFinished(3000);
        }
        out += engine.readAllStandardOutput();
    }
    if (out.size() > kMaxListingBytes) {
        listing.error = tr("Cannot list the arrays of %1: the listing is larger than %2 MiB.")
                            .arg(name)
                            .arg(kMaxListingBytes >> 20);
        return listing;
    }
    if (!finished) {
        listing.error =
            tr("Cannot list the arrays of %1: the engine did not answer within %2 s.").arg(name).arg(timeoutMs / 1000);
        return listing;
    }
    const QJsonObject doc = QJsonDocument::fromJson(out.trimmed()).object();
    if (engine.exitStatus() != QProcess::NormalExit || engine.exitCode() != 0 ||
        !doc.contains(QStringLiteral("arrays"))) {
        const QString message = doc.value(QStringLiteral("event")).toString() == QLatin1String("error")
                                    ? doc.value(QStringLiteral("message")).toString()
                                : engine.exitStatus() != QProcess::NormalExit
                                    ? tr("the engine stopped while reading it (damaged file?)")
                                    : QString::fromUtf8(engine.readAllStandardError().trimmed().left(500));
        listing.error = tr("Cannot list the arrays of %1: %2").arg(name, message);
        return listing;
    }
    for (const QJsonValue &v : doc.value(QStringLiteral("arrays")).toArray()) {
        const QJsonObject o = v.toObject();
        StoredArray a;
        a.name = o.value(QStringLiteral("name")).toString();
        for (const QJsonValue &d : o.value(QStringLiteral("shape")).toArray())
            a.shape << qint64(d.toDouble());
        a.dtype = o.value(QStringLiteral("dtype")).toString();
        a.readable = o.value(QStringLiteral("readable")).toBool();
        if (a.name.isEmpty()) continue;
        listing.arrays << a;
    }
    listing.truncated = doc.value(QStringLiteral("truncated")).toBool();
    guessArrayRoles(listing);
    return listing;
}

QJsonArray arraysToJson(const QList<StoredArray> &arrays) {
    QJsonArray out;
    for (const StoredArray &a : arrays) {
        QJsonArray shape;
        for (qint64 d : a.shape)
            shape << double(d);
        out << QJsonObject{{QStringLiteral("name"), a.name},
                           {QStringLiteral("shape"), shape},
                           {QStringLiteral("dtype"), a.dtype},
                           {QStringLiteral("readable"), a.readable}};
    }
    return out;
}

} // namespace diamond::app
