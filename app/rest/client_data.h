// What a REST client may name and what it is shown (docs/security.md, "REST clients").
//
// - A client names data files only inside <workspace>/data: every path option of a run config's "data" object
//   (path, inputs, targets, images, labels) and execution.init_weights must be a relative path without "..", and the
//   file it reaches (symbolic links resolved) must be a regular file inside that folder. confineDataPaths() checks
//   and rewrites them to absolute paths there, so the engine reads exactly what was checked.
// - What goes back carries no paths of the server and no quoted file content: clientRunJson() is runJson() with the
//   data paths relative to <workspace>/data again and the run's messages passed through redactMessage().
#pragma once

#include "app/run/run_store.h"

#include <QJsonObject>
#include <QString>

namespace diamond::app::rest {

/// <workspace>/data, the folder REST clients may read data from.
QString clientDataFolder(const Workspace &workspace);

/// Checks and rewrites the data paths of `config` (and of `execution` when given) as the file comment says.
/// False with *error (naming the option, never the server's paths) when one is not allowed.
bool confineDataPaths(const Workspace &workspace, QJsonObject &config, QJsonObject *execution, QString *error);

/// A message of the engine or an executor as a client may see it: the workspace's folder shortened to
/// "workspace:", other absolute paths to their file name, quoted text (file content such as a CSV cell or column
/// name) replaced by '…' unless it is a run-config field ("data.target") or a plain file name.
QString redactMessage(const QString &message, const QString &workspaceFolder);

/// A run config with its data paths shown relative to <workspace>/data (file names when outside).
QJsonObject clientConfig(const Workspace &workspace, QJsonObject config);
/// runJson() for a REST client (see the file comment).
QJsonObject clientRunJson(Workspace &workspace, const Run &run);

} // namespace diamond::app::rest
