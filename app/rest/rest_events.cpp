// GET /api/v1/runs/{id}/events?offset=N: the run's events.jsonl (docs/events-protocol.md) from byte N, for clients
// that mirror a run (the desktop app's class-server target, app/run/server_executor.h).
//
// Contract: whole lines only, at most kMaxEventBytes of the file per answer (a longer line is replaced by a
// `warning` event once it is complete); the header X-Diamond-Next-Offset is the
// file offset after the last line read, X-Diamond-Run-State the run's state. A line is passed as a client may see
// it: paths ("path", "checkpoint", "resumed_from", "init_weights") are reduced to file names and texts ("message",
// "hint", "data") go through redactMessage(); a line that is not a JSON object is left out (its bytes still count).
#include "rest_server.h"

#include "app/rest/client_data.h"
#include "app/run/run_service.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QUrlQuery>

namespace diamond::app::rest {

namespace {

constexpr qint64 kMaxEventBytes = 1024 * 1024;

QByteArray clientEventLine(const QByteArray &line, const QString &workspaceFolder) {
    QJsonParseError error;
    QJsonObject event = QJsonDocument::fromJson(line, &error).object();
    if (error.error != QJsonParseError::NoError || event.isEmpty()) return {};
    for (const char *key : {"path", "checkpoint", "resumed_from", "init_weights"}) {
        const QJsonValue v = event.value(QLatin1String(key));
        if (v.isString()) event.insert(QLatin1String(key), QFileInfo(v.toString()).fileName());
    }
    for (const char *key : {"message", "hint", "data"}) {
        const QJsonValue v = event.value(QLatin1String(key));
        if (v.isString()) event.insert(QLatin1String(key), redactMessage(v.toString(), workspaceFolder));
    }
    return QJsonDocument(event).toJson(QJsonDocument::Compact) + '\n';
}

} // namespace

RestServer::Reply RestServer::runEvents(const Request &req) {
    const qint64 id = req.ids.value(0);
    if (const auto refused = refuseRunAccess(req, id)) return *refused;
    const auto run = RunStore(ws_).run(id);
    if (!run) return errorReply(404, QStringLiteral("not_found"), tr("no run %1").arg(id));
    bool ok = true;
    const QString offsetText = QUrlQuery(req.http.url).queryItemValue(QStringLiteral("offset"));
    const qint64 offset = offsetText.isEmpty() ? 0 : offsetText.toLongLong(&ok);
    if (!ok || offset < 0)
        return errorReply(400, QStringLiteral("bad_request"), tr("offset must be a whole number >= 0"));
    // A running run nobody here follows (the server restarted) is adopted, so that its end is recorded.
    if (run->state == RunState::Running && !service_->isActive(id)) service_->adopt(id);

    QByteArray body;
    qint64 next = offset;
    QFile file(QDir(ws_.runDirectory(id)).filePath(QStringLiteral("events.jsonl")));
    if (file.open(QIODevice::ReadOnly) && offset < file.size() && file.seek(offset)) {
        const QByteArray chunk = file.read(kMaxEventBytes);
        const qsizetype end = chunk.lastIndexOf('\n');
        if (end >= 0) {
            next = offset + end + 1;
            for (const QByteArray &line : chunk.left(end).split('\n'))
                body += clientEventLine(line, ws_.path());
        } else if (chunk.size() == kMaxEventBytes) {
            // One line longer than an answer (a huge confusion matrix): left out once it is complete, with a warning
            // in its place, so that the client never waits on it.
            qint64 scanned = offset + chunk.size();
            while (!file.atEnd()) {
                const QByteArray more = file.read(64 * 1024);
                const qsizetype newline = more.indexOf('\n');
                if (newline >= 0) {
                    next = scanned + newline + 1;
                    body = QJsonDocument(QJsonObject{{QStringLiteral("event"), QStringLiteral("warning")},
                                                     {QStringLiteral("message"),
                                                      tr("An event of %1 bytes was left out: an answer holds at most "
                                                         "%2 bytes.")
                                                          .arg(next - offset)
                                                          .arg(kMaxEventBytes)}})
                               .toJson(QJsonDocument::Compact) +
                           '\n';
                    break;
                }
                scanned += more.size();
            }
        }
    }
    Reply r;
    r.body = body;
    r.contentType = "application/x-ndjson";
    r.headers.append(qMakePair(QByteArray("X-Diamond-Next-Offset"), QByteArray::number(next)));
    r.headers.append(qMakePair(QByteArray("X-Diamond-Run-State"), runStateName(run->state).toLatin1()));
    return r;
}

} // namespace diamond::app::rest
