// The sample contents of a new workspace: the examples from resources/examples, embedded as
// :/examples/<name>/spec.json and :/examples/<name>/run.json, so a newcomer can press Train at once.
#pragma once

#include "app/workspace/workspace.h"

#include <QString>
#include <QStringList>

namespace diamond::app {

/// Name of the project that holds the examples.
QString sampleProjectName();

/// Folder names under :/examples, sorted (spirals, shapes_mlp, shapes_cnn, sine_regression in this build).
QStringList sampleExampleNames();

/// Creates the project sampleProjectName() with, for every example, one architecture (named after the
/// spec's "name", else the folder) holding its spec as version 1 and one draft run (named after the folder)
/// with its run config. Does nothing and returns true when that project already exists. On failure returns
/// false with a translated reason in *error (when given); what was already created stays.
bool populateSampleWorkspace(Workspace &workspace, QString *error = nullptr);

/// First start of a front end: opens `folder` (default workspace when empty), creating it when missing, and
/// adds the examples when this call created it. On failure returns false with workspace.errorString() set.
bool openWorkspaceWithExamples(Workspace &workspace, const QString &folder = {});

} // namespace diamond::app
