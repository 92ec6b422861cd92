// The sample contents of a new workspace: the examples from resources/examples, embedded as
// :/examples/<name>/spec.json and :/examples/<name>/run.json, so a newcomer can press Train at once, and the real
// datasets of resources/datasets (:/datasets/catalogue.json), registered with their origin and licence.
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
/// with its run config, then registerSampleDatasets(). Does nothing and returns true when that project already
/// exists. On failure returns
/// false with a translated reason in *error (when given); what was already created stays.
bool populateSampleWorkspace(Workspace &workspace, QString *error = nullptr);

/// Registers every dataset of :/datasets/catalogue.json that the workspace has no dataset of that name for, as
/// version 1 whose source names its title, origin and licence. False with *error when one cannot be imported
/// (those registered before stay).
bool registerSampleDatasets(Workspace &workspace, QString *error = nullptr);
/// The names in :/datasets/catalogue.json (iris, wine, breast_cancer, digits in this build).
QStringList sampleDatasetNames();

/// First start of a front end: opens `folder` (default workspace when empty), creating it when missing, and
/// adds the examples when this call created it. On failure returns false with workspace.errorString() set.
bool openWorkspaceWithExamples(Workspace &workspace, const QString &folder = {});

} // namespace diamond::app
