#include "app/data/content_manifest.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <openssl/evp.h>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::ContentManifest", text); }

constexpr char kManifestFormat[] = "diamond.manifest/1";

} // namespace

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) { EVP_DigestInit_ex(static_cast<EVP_MD_CTX *>(ctx_), EVP_sha256(), nullptr); }

Sha256::~Sha256() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX *>(ctx_)); }

void Sha256::add(const char *data, qint64 size) {
    if (size > 0) EVP_DigestUpdate(static_cast<EVP_MD_CTX *>(ctx_), data, static_cast<size_t>(size));
}

QByteArray Sha256::hexResult() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(static_cast<EVP_MD_CTX *>(ctx_), digest, &length);
    EVP_DigestInit_ex(static_cast<EVP_MD_CTX *>(ctx_), EVP_sha256(), nullptr);
    return QByteArray(reinterpret_cast<const char *>(digest), int(length)).toHex();
}

QByteArray Sha256::hex(const QByteArray &data) {
    Sha256 h;
    h.add(data);
    return h.hexResult();
}

bool isSha256Hex(const QByteArray &text) {
    if (text.size() != 64) return false;
    for (const char c : text)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

bool isSafeManifestPath(const QString &path) {
    if (path.isEmpty() || path.size() > 4096 || path.startsWith(QLatin1Char('/'))) return false;
    for (const QChar c : path)
        if (c.unicode() < 0x20 || c == QLatin1Char('\\') || c.unicode() == 0x7f) return false;
    for (const QStringView part : QStringView(path).split(QLatin1Char('/')))
        if (part.isEmpty() || part == u"." || part == u"..") return false;
    return true;
}

qint64 ContentManifest::totalBytes() const {
    qint64 total = 0;
    for (const ManifestFile &f : files)
        total += f.size;
    return total;
}

qint64 ContentManifest::chunkSize(const ManifestFile &file, int index) const {
    return std::min(chunkBytes, file.size - qint64(index) * chunkBytes);
}

QList<QPair<QByteArray, qint64>> ContentManifest::distinctChunks() const {
    QList<QPair<QByteArray, qint64>> out;
    QSet<QByteArray> seen;
    for (const ManifestFile &f : files)
        for (int i = 0; i < f.chunks.size(); ++i)
            if (!seen.contains(f.chunks[i])) {
                seen.insert(f.chunks[i]);
                out.append({f.chunks[i], chunkSize(f, i)});
            }
    return out;
}

QJsonObject ContentManifest::toJson() const {
    QJsonArray list;
    for (const ManifestFile &f : files) {
        QJsonArray chunks;
        for (const QByteArray &c : f.chunks)
            chunks.append(QString::fromLatin1(c));
        list.append(QJsonObject{{QStringLiteral("path"), f.path},
                                {QStringLiteral("size"), f.size},
                                {QStringLiteral("sha256"), QString::fromLatin1(f.sha256)},
                                {QStringLiteral("chunks"), chunks}});
    }
    return {{QStringLiteral("format"), QString::fromLatin1(kManifestFormat)},
            {QStringLiteral("chunk_size"), chunkBytes},
            {QStringLiteral("files"), list}};
}

QByteArray ContentManifest::hash() const { return Sha256::hex(QJsonDocument(toJson()).toJson(QJsonDocument::Compact)); }

std::optional<ContentManifest> ContentManifest::fromJson(const QJsonObject &json, QString *error) {
    if (json.value(QStringLiteral("format")).toString() != QLatin1String(kManifestFormat)) {
        *error = tr("The manifest's format is not %1.").arg(QLatin1String(kManifestFormat));
        return std::nullopt;
    }
    ContentManifest m;
    m.chunkBytes = json.value(QStringLiteral("chunk_size")).toInteger();
    if (m.chunkBytes < 4096 || m.chunkBytes > (qint64(1) << 30)) {
        *error = tr("The manifest's chunk_size %1 is outside 4096 … 1073741824.").arg(m.chunkBytes);
        return std::nullopt;
    }
    QString previous;
    for (const QJsonValue &v : json.value(QStringLiteral("files")).toArray()) {
        const QJsonObject o = v.toObject();
        ManifestFile f;
        f.path = o.value(QStringLiteral("path")).toString();
        f.size = o.value(QStringLiteral("size")).toInteger(-1);
        f.sha256 = o.value(QStringLiteral("sha256")).toString().toLatin1();
        for (const QJsonValue &c : o.value(QStringLiteral("chunks")).toArray())
            f.chunks.append(c.toString().toLatin1());
        const qint64 expectedChunks = f.size <= 0 ? 1 : (f.size + m.chunkBytes - 1) / m.chunkBytes;
        QString problem;
        if (!isSafeManifestPath(f.path))
            problem = tr("unsafe path");
        else if (f.path <= previous)
            problem = tr("paths not sorted or repeated");
        else if (f.size < 0 || f.size > (qint64(1) << 50))
            problem = tr("bad size");
        else if (!isSha256Hex(f.sha256))
            problem = tr("bad sha256");
        else if (f.chunks.size() != expectedChunks)
            problem = tr("%1 chunks where its size needs %2").arg(f.chunks.size()).arg(expectedChunks);
        else if (f.chunks.size() == 1 && f.chunks[0] != f.sha256)
            problem = tr("its only chunk's hash differs from the file's");
        for (const QByteArray &c : f.chunks)
            if (problem.isEmpty() && !isSha256Hex(c)) problem = tr("bad chunk hash");
        if (!problem.isEmpty()) {
            *error = tr("The manifest's file \"%1\" is invalid: %2.").arg(f.path.left(200), problem);
            return std::nullopt;
        }
        previous = f.path;
        m.files.append(std::move(f));
    }
    return m;
}

} // namespace diamond::app
