#include "app/rest/client_data.h"

#include "app/run/run_json.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

namespace diamond::app::rest {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::rest", text); }

/// The keys of a data source that name files (engine/train/data: Options::path).
const QStringList &pathKeys() {
    static const QStringList keys{QStringLiteral("path"), QStringLiteral("inputs"), QStringLiteral("targets"),
                                  QStringLiteral("images"), QStringLiteral("labels")};
    return keys;
}

/// The absolute path of `relative` inside `folder`, or empty with *error.
QString confined(const QString &folder, const QString &relative, const QString &option, QString *error) {
    const QString cleaned = QDir::cleanPath(relative);
    if (relative.isEmpty() || QDir::isAbsolutePath(relative) || relative.startsWith(QLatin1Char('~')) ||
        cleaned == QLatin1String("..") || cleaned.startsWith(QLatin1String("../")) ||
        relative.split(QLatin1Char('/')).contains(QStringLiteral(".."))) {
        *error = tr("%1: a REST client names data files relative to the workspace's data folder, without \"..\"")
                     .arg(option);
        return {};
    }
    const QString root = QFileInfo(folder).canonicalFilePath();
    const QFileInfo file(QDir(folder).filePath(cleaned));
    const QString real = file.canonicalFilePath(); // symbolic links resolved; empty when missing
    if (root.isEmpty() || real.isEmpty()) {
        *error = tr("%1: no file \"%2\" in the workspace's data folder").arg(option, cleaned);
        return {};
    }
    if (!real.startsWith(root + QLatin1Char('/'))) {
        *error = tr("%1: \"%2\" leads out of the workspace's data folder").arg(option, cleaned);
        return {};
    }
    // Directories are data too (image folders); devices, pipes and sockets are not.
    const QFileInfo target(real);
    if (!target.isFile() && !target.isDir()) {
        *error = tr("%1: \"%2\" is not a regular file").arg(option, cleaned);
        return {};
    }
    return real;
}

} // namespace

QString clientDataFolder(const Workspace &workspace) { return QDir(workspace.path()).filePath(QStringLiteral("data")); }

bool confineDataPaths(const Workspace &workspace, QJsonObject &config, QJsonObject *execution, QString *error) {
    const QString folder = clientDataFolder(workspace);
    QDir().mkpath(folder);
    QJsonObject data = config.value(QStringLiteral("data")).toObject();
    for (const QString &key : pathKeys()) {
        if (!data.contains(key)) continue;
        const QString option = QStringLiteral("config.data.") + key;
        if (!data.value(key).isString()) {
            *error = tr("%1: expected a file name").arg(option);
            return false;
        }
        const QString path = confined(folder, data.value(key).toString(), option, error);
        if (path.isEmpty()) return false;
        data.insert(key, path);
    }
    if (config.contains(QStringLiteral("data"))) config.insert(QStringLiteral("data"), data);
    if (execution && execution->contains(QStringLiteral("init_weights"))) {
        const QString option = QStringLiteral("execution.init_weights");
        const QString path =
            confined(folder, execution->value(QStringLiteral("init_weights")).toString(), option, error);
        if (path.isEmpty()) return false;
        execution->insert(QStringLiteral("init_weights"), path);
    }
    return true;
}

QString redactMessage(const QString &message, const QString &workspaceFolder) {
    QString out = message;
    const QString root = QDir::cleanPath(workspaceFolder);
    if (!root.isEmpty()) {
        out.replace(root + QStringLiteral("/data/"), QString());
        out.replace(root, QStringLiteral("workspace:"));
    }
    // Other absolute paths: their file name only.
    static const QRegularExpression absolute(QStringLiteral("(?<![\\w.:])/(?:[^\\s'\"/:]+/)*([^\\s'\"/:]+)"));
    out.replace(absolute, QStringLiteral("\\1"));
    // Quoted text may be file content: kept only when it is a config field or a plain file name.
    static const QRegularExpression quoted(QStringLiteral("'([^']*)'|\"([^\"]*)\""));
    static const QRegularExpression safe(
        QStringLiteral("^(?:(?:config\\.)?data\\.[a-z_.]+|[A-Za-z0-9_.-]{1,64}\\.(?:csv|tsv|txt|npy|npz|h5|hdf5|idx|"
                       "gz|json|safetensors|png|jpg|jpeg))$"));
    QString result;
    qsizetype last = 0;
    auto it = quoted.globalMatch(out);
    while (it.hasNext()) {
        const auto m = it.next();
        const QString inner = m.captured(1).isNull() ? m.captured(2) : m.captured(1);
        result += out.mid(last, m.capturedStart() - last);
        const QChar q = out.at(m.capturedStart());
        result += safe.match(inner).hasMatch() ? m.captured(0) : QString(q) + QStringLiteral("…") + q;
        last = m.capturedEnd();
    }
    result += out.mid(last);
    return result.left(2000);
}

QJsonObject clientConfig(const Workspace &workspace, QJsonObject config) {
    const QString folder = clientDataFolder(workspace) + QLatin1Char('/');
    QJsonObject data = config.value(QStringLiteral("data")).toObject();
    for (const QString &key : pathKeys())
        if (data.value(key).isString()) {
            const QString path = data.value(key).toString();
            data.insert(key, path.startsWith(folder) ? path.mid(folder.size()) : QFileInfo(path).fileName());
        }
    if (config.contains(QStringLiteral("data"))) config.insert(QStringLiteral("data"), data);
    return config;
}

QJsonObject clientRunJson(Workspace &workspace, const Run &run) {
    QJsonObject o = runJson(workspace, run);
    o.insert(QStringLiteral("config"), clientConfig(workspace, o.value(QStringLiteral("config")).toObject()));
    QJsonObject execution = o.value(QStringLiteral("execution")).toObject();
    if (execution.contains(QStringLiteral("init_weights")))
        execution.insert(QStringLiteral("init_weights"),
                         QFileInfo(execution.value(QStringLiteral("init_weights")).toString()).fileName());
    o.insert(QStringLiteral("execution"), execution);
    o.insert(QStringLiteral("exit_message"), redactMessage(run.exitMessage, workspace.path()));
    // What executors and the server noted about the run (a quota stop, a staging retry), newest 20.
    QJsonArray messages;
    for (const RunMessage &m : RunStore(workspace).messages(run.id, 20))
        messages.append(QJsonObject{{QStringLiteral("at"), m.at},
                                    {QStringLiteral("text"), redactMessage(m.text, workspace.path())}});
    o.insert(QStringLiteral("messages"), messages);
    return o;
}

} // namespace diamond::app::rest
