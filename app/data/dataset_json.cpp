#include "app/data/dataset_json.h"

#include <QJsonArray>

namespace diamond::app {

QJsonObject datasetVersionJson(const DatasetVersion &v, bool withFiles) {
    QJsonObject o{{QStringLiteral("name"), v.name},
                  {QStringLiteral("version"), v.version},
                  {QStringLiteral("ref"), v.ref()},
                  {QStringLiteral("manifest_sha256"), QString::fromLatin1(v.manifestHash)},
                  {QStringLiteral("format"), v.format},
                  {QStringLiteral("schema"), v.schema},
                  {QStringLiteral("rows"), v.rows},
                  {QStringLiteral("size_bytes"), v.sizeBytes},
                  {QStringLiteral("files"), v.fileCount},
                  {QStringLiteral("new_bytes"), v.newBytes},
                  {QStringLiteral("source"), v.source},
                  {QStringLiteral("created_by"), v.createdBy},
                  {QStringLiteral("created_at"), v.createdAt}};
    if (withFiles) {
        QJsonArray files;
        for (const ManifestFile &f : v.manifest.files)
            files.append(QJsonObject{{QStringLiteral("path"), f.path},
                                     {QStringLiteral("size"), f.size},
                                     {QStringLiteral("sha256"), QString::fromLatin1(f.sha256)},
                                     {QStringLiteral("chunks"), int(f.chunks.size())}});
        o.insert(QStringLiteral("manifest"), files);
        o.insert(QStringLiteral("chunk_size"), v.manifest.chunkBytes);
    }
    return o;
}

QJsonObject datasetSummaryJson(const DatasetSummary &s) {
    return {{QStringLiteral("name"), s.name},
            {QStringLiteral("versions"), s.versions},
            {QStringLiteral("latest"), datasetVersionJson(s.latest)}};
}

} // namespace diamond::app
