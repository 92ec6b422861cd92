#include "app/cluster/cluster_job_record.h"

#include "remote/job_script.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace diamond::app {

QString ClusterJobRecord::path(const QString &runDir) { return QDir(runDir).filePath(QLatin1String(kFileName)); }

std::optional<ClusterJobRecord> ClusterJobRecord::read(const QString &runDir) {
    QFile file(path(runDir));
    if (!file.open(QIODevice::ReadOnly) || file.size() > (1 << 20)) return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    ClusterJobRecord r;
    r.profile = o.value(QStringLiteral("profile")).toString();
    r.jobId = o.value(QStringLiteral("job_id")).toString();
    r.remoteDir = o.value(QStringLiteral("remote_dir")).toString();
    r.attempt = std::max(1, o.value(QStringLiteral("attempt")).toInt(1));
    r.cancelRequested = o.value(QStringLiteral("cancel_requested")).toBool();
    r.dataPath = o.value(QStringLiteral("data_path")).toString();
    for (const QJsonValue &id : o.value(QStringLiteral("chain")).toArray())
        if (id.isString() && r.queuedLinks.size() < remote::kMaxChainJobs) r.queuedLinks << id.toString();
    if (r.jobId.isEmpty() || r.remoteDir.isEmpty()) return std::nullopt;
    return r;
}

bool ClusterJobRecord::write(const QString &runDir) const {
    QSaveFile file(path(runDir));
    if (!file.open(QIODevice::WriteOnly)) return false;
    file.write(QJsonDocument(QJsonObject{{QStringLiteral("profile"), profile},
                                         {QStringLiteral("job_id"), jobId},
                                         {QStringLiteral("remote_dir"), remoteDir},
                                         {QStringLiteral("attempt"), attempt},
                                         {QStringLiteral("cancel_requested"), cancelRequested},
                                         {QStringLiteral("data_path"), dataPath},
                                         {QStringLiteral("chain"), QJsonArray::fromStringList(queuedLinks)}})
                   .toJson());
    return file.commit();
}

} // namespace diamond::app
