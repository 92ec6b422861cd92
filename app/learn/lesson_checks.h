// The checks of lesson steps, evaluated against the real state of a workspace (and the network being designed).
//
// Kinds and their parameters (docs/lessons.md):
//   manual            the student marks the step done ("Next").
//   design            the network: "name_contains" (text), "input_features" (the last dimension of the first input),
//                     "layer" {"type", "param", "min", "max", "count"}: at least `count` (1) nodes of the type whose
//                     param lies in [min, max] (either bound optional).
//   run_finished      finished runs since the lesson started: "count" (1), "metric" with "min"/"max" (on the final
//                     value), "dataset" (registered dataset name), "target" ("local", "cluster" = any cluster,
//                     "server" = a class server, or a target name), "distinct" (a run-config path such as
//                     "optimizer.lr": the counted runs must have `count` different values of it).
//   compared          runs compared since the lesson started: "count" (2) runs in one comparison.
//   sweep_finished    a sweep finished since the lesson started, with at least "min_trials" (1) finished trials.
//   gallery_model     a model published from a run of this workspace since the lesson started.
//   cluster_configured  at least one cluster profile exists.
//   dataset_used      a run since the lesson started trains on a registered dataset ("dataset": name, optional).
// Times compare as the database's UTC timestamps; "since the lesson started" is LessonProgressStore::startedAt.
#pragma once

#include "app/learn/lesson.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace diamond::app {

class Workspace;

/// The kinds above.
QStringList lessonCheckKinds();

/// Checks a check's kind and parameter types; *error names the parameter.
bool validateLessonCheck(const LessonCheck &check, QString *error);

struct LessonCheckContext {
    Workspace *workspace = nullptr;
    std::optional<QJsonObject> design; ///< the network being designed (diamond.spec/1); none: "design" fails
    QString since;                     ///< database timestamp the lesson started at; empty: all time
};

struct LessonCheckResult {
    bool passed = false;
    bool manual = false; ///< the check is "manual": passed only when the student marks it
    QString status;      ///< translated, what was found ("best val_accuracy 0.82, needs 0.90")
};

/// Evaluates `check`. Database problems give passed = false with the problem as status.
LessonCheckResult evaluateLessonCheck(const LessonCheck &check, const LessonCheckContext &context);

} // namespace diamond::app
