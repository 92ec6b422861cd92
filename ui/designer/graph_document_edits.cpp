// GraphDocument's user edits: each builds one undo command (or a compound) and pushes it.
#include "ui/designer/graph_commands.h"
#include "ui/designer/graph_document.h"
#include "ui/designer/json_convert.h"

#include "diamond/spec/registry.h"

#include <QSet>
#include <QUndoStack>

#include <map>

namespace diamond::ui {

namespace {

const char kFragmentFormat[] = "diamond.fragment/1";

/// Default id stem for a new node of `type`: "conv2d", "linear", "input", ...
QString idStem(const QString &type) {
    QString stem = type.toLower();
    stem.remove(QLatin1Char(' '));
    return stem.isEmpty() ? QStringLiteral("node") : stem;
}

} // namespace

QString GraphDocument::addNode(const QString &type, const QPointF &pos, const QString &preferredId) {
    const bool isOutput = type == QLatin1String(kOutputType);
    const spec::LayerType *t = spec::Registry::instance().find(ss(type));
    if (!isOutput && !t) return {};
    GraphNode n;
    n.type = type;
    n.pos = pos;
    n.id = uniqueId(preferredId.isEmpty() ? idStem(type) : preferredId);
    if (isOutput) {
        QSet<QString> names;
        for (const GraphNode &o : nodes_) {
            if (o.type == QLatin1String(kOutputType)) names.insert(qs(stringAt(o.params, "name")));
        }
        QString name = QStringLiteral("output");
        for (int k = 2; names.contains(name); ++k)
            name = QStringLiteral("output_") + QString::number(k);
        n.params["name"] = ss(name);
    } else if (type == QLatin1String(kInputType)) {
        n.params["shape"] = nlohmann::json::array({"N", 2});
        n.params["dtype"] = "float32";
    } else {
        // Required parameters get a usable starting value so a dropped layer works at once.
        static const std::map<std::string, nlohmann::json> starts = {
            {"out_features", 64},  {"out_channels", 32}, {"kernel_size", 3}, {"output_size", 1},
            {"num_groups", 1},     {"shape", {-1}},      {"dims", {0, 1}},   {"num_embeddings", 1000},
            {"embedding_dim", 64}, {"hidden_size", 64},  {"num_heads", 1},   {"nhead", 1}};
        for (const spec::ParamSpec &p : t->params) {
            if (!p.required()) continue;
            auto it = starts.find(p.name);
            if (it != starts.end()) {
                n.params[p.name] = it->second;
            } else if (p.kind == spec::ParamKind::Enum && !p.choices.empty()) {
                n.params[p.name] = p.choices.front();
            } else if (p.kind == spec::ParamKind::Bool) {
                n.params[p.name] = false;
            } else {
                n.params[p.name] = p.minimum ? nlohmann::json(*p.minimum) : nlohmann::json(1);
            }
        }
    }
    push(new AddNodeCommand(this, n));
    return n.id;
}

bool GraphDocument::removeNodes(const QStringList &ids) {
    QStringList existing;
    for (const QString &id : ids) {
        if (hasNode(id) && !existing.contains(id)) existing << id;
    }
    if (existing.isEmpty()) return false;
    const QSet<QString> gone(existing.begin(), existing.end());
    auto *macro = new CompoundCommand(this, existing.size() == 1 ? tr("Delete %1").arg(existing.first())
                                                                 : tr("Delete %n node(s)", nullptr, existing.size()));
    // First detach the consumers that stay, then remove the nodes (their own inputs go with them).
    for (const GraphNode &n : nodes_) {
        if (gone.contains(n.id)) continue;
        QVector<GraphPortRef> kept;
        for (const GraphPortRef &r : n.inputs) {
            if (!gone.contains(r.node)) kept.push_back(r);
        }
        if (kept.size() != n.inputs.size()) new SetInputsCommand(this, QString(), n.id, n.inputs, kept, macro);
    }
    for (const QString &id : existing)
        new RemoveNodeCommand(this, id, macro);
    push(macro);
    return true;
}

bool GraphDocument::connectPorts(const GraphPortRef &from, const QString &to, int toIndex, QString *reason) {
    auto fail = [&](const QString &why) {
        if (reason) *reason = why;
        return false;
    };
    const GraphNode *src = node(from.node);
    const GraphNode *dst = node(to);
    if (!src) return fail(tr("There is no node \"%1\".").arg(from.node));
    if (!dst) return fail(tr("There is no node \"%1\".").arg(to));
    if (!from.port.isEmpty() && !outputPorts(from.node).contains(from.port))
        return fail(tr("%1 has no output port \"%2\".").arg(from.node, from.port));
    if (outputPorts(from.node).isEmpty()) return fail(tr("%1 has no outputs.").arg(from.node));
    const int slots = inputSlotCount(to);
    if (slots == 0) return fail(tr("%1 takes no inputs.").arg(to));
    if (toIndex < 0 || toIndex >= slots) return fail(tr("%1 has no input %2.").arg(to).arg(toIndex + 1));
    if (wouldCreateCycle(from.node, to))
        return fail(from.node == to
                        ? tr("A layer cannot feed itself.")
                        : tr("Connecting %1 to %2 would create a cycle; networks must be acyclic.").arg(from.node, to));
    GraphPortRef ref = from;
    const QStringList ports = outputPorts(from.node);
    if (!ports.isEmpty() && ref.port == ports.first()) ref.port.clear(); // the first port is written as the plain id
    QVector<GraphPortRef> after = dst->inputs;
    if (toIndex < after.size()) {
        if (after[toIndex] == ref) return fail(tr("These ports are already connected."));
        after[toIndex] = ref;
    } else {
        after.push_back(ref);
    }
    push(new SetInputsCommand(this, tr("Connect %1 to %2").arg(from.node, to), to, dst->inputs, after));
    return true;
}

bool GraphDocument::disconnectInput(const QString &to, int toIndex) {
    const GraphNode *dst = node(to);
    if (!dst || toIndex < 0 || toIndex >= dst->inputs.size()) return false;
    QVector<GraphPortRef> after = dst->inputs;
    const GraphPortRef gone = after.takeAt(toIndex);
    push(new SetInputsCommand(this, tr("Disconnect %1 from %2").arg(gone.node, to), to, dst->inputs, after));
    return true;
}

bool GraphDocument::setParam(const QString &id, const QString &name, const QJsonValue &value) {
    const GraphNode *n = node(id);
    if (!n) return false;
    const std::string key = ss(name);
    nlohmann::json after = value.isUndefined() ? nlohmann::json() : fromQJson(value);
    // A value equal to the registry default is written as "absent", keeping specs minimal.
    if (const spec::LayerType *t = spec::Registry::instance().find(ss(n->type))) {
        if (const spec::ParamSpec *p = t->param(key)) {
            if (!p->defaultValue.is_null() && after == p->defaultValue && n->type != QLatin1String(kInputType))
                after = nullptr;
        }
    }
    auto it = n->params.find(key);
    const nlohmann::json before = it == n->params.end() ? nlohmann::json() : *it;
    if (before == after) return true;
    push(new SetParamCommand(this, id, key, before, after));
    return true;
}

bool GraphDocument::canRecompute(const QString &id) const {
    const GraphNode *n = node(id);
    return n && n->type != QLatin1String(kInputType) && n->type != QLatin1String(kOutputType);
}

bool GraphDocument::recomputes(const QString &id) const {
    const GraphNode *n = node(id);
    return n && n->recompute;
}

bool GraphDocument::setRecompute(const QStringList &ids, bool on) {
    QStringList changing;
    for (const QString &id : ids) {
        if (canRecompute(id) && recomputes(id) != on && !changing.contains(id)) changing << id;
    }
    if (changing.isEmpty()) return false;
    push(new SetRecomputeCommand(this, changing, on));
    return true;
}

bool GraphDocument::setRecomputedLayers(const QStringList &ids) {
    QStringList marking, unmarking;
    for (const GraphNode &n : nodes_) {
        if (!canRecompute(n.id)) continue;
        const bool on = ids.contains(n.id);
        if (on != n.recompute) (on ? marking : unmarking) << n.id;
    }
    if (marking.isEmpty() && unmarking.isEmpty()) return false;
    auto *macro = new CompoundCommand(this, tr("Recompute %n layer(s) in backward", nullptr, int(ids.size())));
    if (!marking.isEmpty()) new SetRecomputeCommand(this, marking, true, macro);
    if (!unmarking.isEmpty()) new SetRecomputeCommand(this, unmarking, false, macro);
    push(macro);
    return true;
}

void GraphDocument::moveNodes(const QHash<QString, QPointF> &positions, int mergeSession) {
    QHash<QString, QPointF> before, after;
    for (auto it = positions.begin(); it != positions.end(); ++it) {
        const GraphNode *n = node(it.key());
        if (!n || n->pos == it.value()) continue;
        before.insert(it.key(), n->pos);
        after.insert(it.key(), it.value());
    }
    if (after.isEmpty()) return;
    push(new MoveNodesCommand(this, before, after, mergeSession));
}

bool GraphDocument::renameNode(const QString &id, const QString &newId, QString *reason) {
    auto fail = [&](const QString &why) {
        if (reason) *reason = why;
        return false;
    };
    if (!hasNode(id)) return fail(tr("There is no node \"%1\".").arg(id));
    if (id == newId) return true;
    if (!spec::isValidId(ss(newId)))
        return fail(tr("\"%1\" is not a valid id: use 1 to 128 characters without spaces or ':'.").arg(newId));
    if (hasNode(newId)) return fail(tr("The id \"%1\" is already used.").arg(newId));
    push(new RenameCommand(this, id, newId));
    return true;
}

QByteArray GraphDocument::copy(const QStringList &ids) const {
    nlohmann::json nodes = nlohmann::json::array();
    const QSet<QString> chosen(ids.begin(), ids.end());
    for (const GraphNode &n : nodes_) {
        if (!chosen.contains(n.id)) continue;
        nlohmann::json j = {
            {"id", ss(n.id)}, {"type", ss(n.type)}, {"params", n.params}, {"x", n.pos.x()}, {"y", n.pos.y()}};
        if (n.recompute) j["recompute"] = true;
        nlohmann::json inputs = nlohmann::json::array();
        for (const GraphPortRef &r : n.inputs) {
            if (chosen.contains(r.node))
                inputs.push_back(r.port.isEmpty() ? ss(r.node) : ss(r.node + QLatin1Char(':') + r.port));
        }
        j["inputs"] = std::move(inputs);
        nodes.push_back(std::move(j));
    }
    return QByteArray::fromStdString(nlohmann::json{{"format", kFragmentFormat}, {"nodes", nodes}}.dump(2));
}

QStringList GraphDocument::paste(const QByteArray &fragment, const QPointF &offset) {
    const nlohmann::json doc =
        nlohmann::json::parse(fragment.constData(), fragment.constData() + fragment.size(), nullptr, false);
    if (!doc.is_object() || stringAt(doc, "format") != kFragmentFormat) return {};
    const auto nodesIt = doc.find("nodes");
    if (nodesIt == doc.end() || !nodesIt->is_array()) return {};
    // Fresh ids first (so internal references can be remapped), then the nodes.
    QHash<QString, QString> rename;
    QSet<QString> taken;
    QVector<GraphNode> added;
    for (const auto &j : *nodesIt) {
        if (!j.is_object() || !j.value("id", nlohmann::json()).is_string() ||
            !j.value("type", nlohmann::json()).is_string())
            continue;
        GraphNode n;
        n.type = qs(j["type"].get<std::string>());
        if (n.type != QLatin1String(kOutputType) && !spec::Registry::instance().find(ss(n.type))) continue;
        const QString old = qs(j["id"].get<std::string>());
        QString fresh = uniqueId(old);
        for (int k = 2; taken.contains(fresh); ++k)
            fresh = uniqueId(old + QLatin1Char('_') + QString::number(k));
        taken.insert(fresh);
        rename.insert(old, fresh);
        n.id = fresh;
        n.params = j.value("params", nlohmann::json::object());
        if (!n.params.is_object()) n.params = nlohmann::json::object();
        n.recompute = j.value("recompute", nlohmann::json()).is_boolean() && j["recompute"].get<bool>() &&
                      n.type != QLatin1String(kInputType) && n.type != QLatin1String(kOutputType);
        n.pos = QPointF(numberAt(j, "x"), numberAt(j, "y")) + offset;
        if (j.contains("inputs") && j["inputs"].is_array()) {
            for (const auto &r : j["inputs"]) {
                if (r.is_string()) n.inputs.push_back(GraphPortRef{qs(r.get<std::string>()), QString()});
            }
        }
        added.push_back(std::move(n));
    }
    if (added.isEmpty()) return {};
    auto *macro = new CompoundCommand(this, tr("Paste %n node(s)", nullptr, added.size()));
    QStringList ids;
    for (GraphNode &n : added) {
        QVector<GraphPortRef> remapped;
        for (const GraphPortRef &r : n.inputs) {
            const spec::PortRef parsed = spec::PortRef::parse(ss(r.node));
            const QString src = qs(parsed.node);
            if (rename.contains(src)) remapped.push_back({rename.value(src), qs(parsed.port)});
        }
        n.inputs = remapped;
        ids << n.id;
        new AddNodeCommand(this, n, macro);
    }
    push(macro);
    return ids;
}

void GraphDocument::applyLayout(const QHash<QString, QPointF> &positions, Direction direction) {
    auto *macro = new CompoundCommand(this, tr("Auto layout"));
    QHash<QString, QPointF> before, after;
    for (auto it = positions.begin(); it != positions.end(); ++it) {
        const GraphNode *n = node(it.key());
        if (!n || n->pos == it.value()) continue;
        before.insert(it.key(), n->pos);
        after.insert(it.key(), it.value());
    }
    if (direction != direction_) new SetDirectionCommand(this, direction_, direction, macro);
    if (!after.isEmpty()) new MoveNodesCommand(this, before, after, 0, macro);
    if (macro->childCount() == 0) {
        delete macro;
        return;
    }
    push(macro);
}

} // namespace diamond::ui
