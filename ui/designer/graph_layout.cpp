#include "ui/designer/graph_layout.h"

#include "ui/designer/graph_style.h"

#include <QCoreApplication>

#include <graphviz/gvc.h>

#include <cmath>
#include <string>
#include <vector>

namespace diamond::ui {

namespace {

/// Graphviz 2.x takes `char *` for strings it never modifies.
char *cs(const char *s) { return const_cast<char *>(s); }

std::string inches(qreal points) { return std::to_string(points / 72.0); }

} // namespace

QHash<QString, QPointF> computeLayout(const GraphDocument &document, GraphDocument::Direction direction,
                                      QString *error) {
    QHash<QString, QPointF> result;
    const QStringList ids = document.nodeIds();
    if (ids.isEmpty()) return result;
    const bool vertical = direction == GraphDocument::Direction::TopToBottom;

    agseterr(AGERR);
    GVC_t *gvc = gvContext();
    Agraph_t *g = agopen(cs("designer"), Agdirected, nullptr);
    agsafeset(g, cs("rankdir"), cs(vertical ? "TB" : "LR"), cs(""));
    // Room between ranks for the shape labels: beside the edge (vertical) or above it.
    agsafeset(g, cs("ranksep"), cs(vertical ? "0.55" : "1.5"), cs(""));
    agsafeset(g, cs("nodesep"), cs(vertical ? "1.1" : "0.45"), cs(""));
    agsafeset(g, cs("ordering"), cs("in"), cs(""));
    const std::string width = inches(style::kNodeWidth), height = inches(style::kNodeHeight);
    agattr(g, AGNODE, cs("shape"), cs("box"));
    agattr(g, AGNODE, cs("fixedsize"), cs("true"));
    agattr(g, AGNODE, cs("width"), cs(width.c_str()));
    agattr(g, AGNODE, cs("height"), cs(height.c_str()));

    std::vector<Agnode_t *> nodes;
    QHash<QString, int> index;
    for (int i = 0; i < ids.size(); ++i) {
        const std::string name = "n" + std::to_string(i);
        nodes.push_back(agnode(g, cs(name.c_str()), 1));
        index.insert(ids[i], i);
    }
    for (const GraphConnection &c : document.connections()) {
        const int from = index.value(c.from.node, -1), to = index.value(c.to, -1);
        if (from >= 0 && to >= 0) agedge(g, nodes[from], nodes[to], nullptr, 1);
    }
    if (gvLayout(gvc, g, "dot") != 0) {
        if (error)
            *error = QCoreApplication::translate("diamond::ui::GraphLayout", "Graphviz could not lay out the graph.");
        agclose(g);
        gvFreeContext(gvc);
        return result;
    }
    // Graphviz: centres in points with y up. Canvas: top-left corners with y down.
    qreal minX = 1e18, minY = 1e18;
    std::vector<QPointF> corners;
    for (Agnode_t *n : nodes) {
        const pointf c = ND_coord(n);
        const QPointF corner(c.x - style::kNodeWidth / 2, -c.y - style::kNodeHeight / 2);
        corners.push_back(corner);
        minX = std::min(minX, corner.x());
        minY = std::min(minY, corner.y());
    }
    for (int i = 0; i < ids.size(); ++i) {
        const QPointF p = corners[i] - QPointF(minX, minY);
        result.insert(ids[i], QPointF(std::round(p.x() / style::kGrid) * style::kGrid,
                                      std::round(p.y() / style::kGrid) * style::kGrid));
    }
    gvFreeLayout(gvc, g);
    agclose(g);
    gvFreeContext(gvc);
    return result;
}

} // namespace diamond::ui
