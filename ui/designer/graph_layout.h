// Automatic layout of a designer graph with Graphviz (libgvc, the "dot" engine).
#pragma once

#include "ui/designer/graph_document.h"

#include <QHash>
#include <QPointF>

namespace diamond::ui {

/// Top-left positions for every node of `document`, layered along `direction`, snapped to the
/// designer grid with the top-left node at (0, 0). Empty with `error` set when Graphviz fails.
QHash<QString, QPointF> computeLayout(const GraphDocument &document, GraphDocument::Direction direction,
                                      QString *error = nullptr);

} // namespace diamond::ui
