// diamondctl serve: the REST API (app/rest, docs/rest-api.md) on 127.0.0.1 unless --listen ADDR is given.
// Prints one line "Listening on http://ADDR:PORT/api/v1/" (flushed) once it accepts connections; runs until
// killed. --print-token prints the workspace's bearer token (creating it) and exits; --openapi prints the
// OpenAPI document and exits.
#include "cli.h"
#include "terminal_prompter.h"

#include "app/run/run_service.h"

#include "app/rest/rest_server.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QJsonDocument>

namespace diamond::cli {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamondctl", text); }

QString serveUsage() {
    return tr("Usage:\n"
              "  diamondctl [--workspace DIR] serve [--listen ADDR] [--port N] [--max-upload BYTES]\n"
              "                                     [--max-body BYTES] [--header-timeout S] [--idle-timeout S]\n"
              "                                     [--quota-check S]\n"
              "  diamondctl [--workspace DIR] serve --print-token\n"
              "  diamondctl serve --openapi\n"
              "Serves the REST API on ADDR (default 127.0.0.1), port N (default 8765; 0 = any free port).\n"
              "Every request needs \"Authorization: Bearer TOKEN\"; the token is in <workspace>/rest-token.\n"
              "A request's headers must arrive within --header-timeout seconds (default 10); a kept-alive\n"
              "connection without a request closes after --idle-timeout seconds (default 60).\n"
              "Every --quota-check seconds (default 60) students' queued and running runs are stopped once\n"
              "their CPU or GPU hours reach the quota (diamondctl user update NAME --cpu-hours H).\n");
}

} // namespace

int runServe(const QStringList &args, const QString &workspaceOption, Io &io) {
    CommandOptions o;
    if (args.contains(QStringLiteral("--help"))) return io.out << serveUsage(), kOk;
    if (!parseOptions(args,
                      {QStringLiteral("--listen"), QStringLiteral("--port"), QStringLiteral("--max-upload"),
                       QStringLiteral("--max-body"), QStringLiteral("--header-timeout"),
                       QStringLiteral("--idle-timeout"), QStringLiteral("--quota-check")},
                      {QStringLiteral("--print-token"), QStringLiteral("--openapi")}, &o, io))
        return kUsage;
    if (!o.positional.isEmpty()) return io.err << serveUsage(), kUsage;
    if (o.flags.contains(QStringLiteral("--openapi"))) {
        io.out << QString::fromUtf8(QJsonDocument(app::rest::openApiDocument()).toJson(QJsonDocument::Indented));
        return kOk;
    }
    app::Workspace ws;
    if (!openWorkspace(ws, workspaceOption, io)) return kFailed;
    QString error;
    const QString token = app::rest::ensureToken(ws.path(), &error);
    if (token.isEmpty()) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    if (o.flags.contains(QStringLiteral("--print-token"))) return io.out << token << '\n', kOk;

    app::rest::RestServer::Options options;
    options.token = token;
    if (o.values.contains(QStringLiteral("--listen"))) {
        const QString listen = o.values.value(QStringLiteral("--listen"));
        if (!options.address.setAddress(listen))
            return io.err << tr("diamondctl: --listen needs an IP address, not '%1'\n").arg(listen), kUsage;
    }
    bool ok = true;
    const int port = o.values.value(QStringLiteral("--port"), QStringLiteral("8765")).toInt(&ok);
    if (!ok || port < 0 || port > 65535) return io.err << tr("diamondctl: --port needs 0-65535\n"), kUsage;
    options.port = static_cast<quint16>(port);
    for (const auto &[option, target] :
         {std::pair{"--max-upload", &options.maxUploadBytes}, std::pair{"--max-body", &options.maxBodyBytes}}) {
        if (!o.values.contains(QLatin1String(option))) continue;
        *target = o.values.value(QLatin1String(option)).toLongLong(&ok);
        if (!ok || *target < 1)
            return io.err << tr("diamondctl: %1 needs a byte count\n").arg(QLatin1String(option)), kUsage;
    }
    for (const auto &[option, target] :
         {std::pair{"--header-timeout", &options.headerTimeoutMs}, std::pair{"--idle-timeout", &options.idleTimeoutMs},
          std::pair{"--quota-check", &options.quotaCheckMs}}) {
        if (!o.values.contains(QLatin1String(option))) continue;
        const int seconds = o.values.value(QLatin1String(option)).toInt(&ok);
        if (!ok || seconds < 1 || seconds > 86400)
            return io.err << tr("diamondctl: %1 needs seconds from 1 to 86400\n").arg(QLatin1String(option)), kUsage;
        *target = seconds * 1000;
    }
    app::rest::RestServer server(ws, options);
    // Clusters that ask for a password or a one-time code ask on the terminal that runs the server.
    TerminalPrompter prompter(io.err);
    server.service()->clusterLinks()->setPrompter(&prompter);
    if (!server.start()) return io.err << tr("diamondctl: %1\n").arg(server.errorString()), kFailed;
    const QString host = options.address.protocol() == QAbstractSocket::IPv6Protocol
                             ? QLatin1Char('[') + options.address.toString() + QLatin1Char(']')
                             : options.address.toString();
    io.out << tr("Listening on http://%1:%2/api/v1/\n").arg(host).arg(server.port());
    io.out.flush();
    return QCoreApplication::exec() == 0 ? kOk : kFailed;
}

} // namespace diamond::cli
