#include "ui/designer/graph_document.h"

#include "diamond/spec/registry.h"
#include "ui/designer/graph_commands.h"
#include "ui/designer/json_convert.h"

#include <QSet>
#include <QUndoStack>

#include <algorithm>
#include <cmath>

namespace diamond::ui {

namespace {

const char kDirectionKey[] = "designer:direction";
const char kOutputKeyPrefix[] = "output:";

std::string outputName(const GraphNode &n) {
    auto it = n.params.find("name");
    return it != n.params.end() && it->is_string() ? it->get<std::string>() : n.id.toStdString();
}

nlohmann::json coordinate(double v) {
    if (std::abs(v - std::round(v)) < 1e-9) return static_cast<std::int64_t>(std::llround(v));
    return v;
}

bool readPosition(const nlohmann::json &entry, QPointF *pos) {
    if (!entry.is_object()) return false;
    auto x = entry.find("x"), y = entry.find("y");
    if (x == entry.end() || y == entry.end() || !x->is_number() || !y->is_number()) return false;
    *pos = QPointF(x->get<double>(), y->get<double>());
    return true;
}

GraphPortRef fromSpecRef(const spec::PortRef &r) { return {qs(r.node), qs(r.port)}; }
spec::PortRef toSpecRef(const GraphPortRef &r) { return {ss(r.node), ss(r.port)}; }

} // namespace

GraphDocument::GraphDocument(QObject *parent) : QObject(parent), undoStack_(new QUndoStack(this)) { reanalyze(); }

GraphDocument::~GraphDocument() = default;

// --- Loading and saving ---------------------------------------------------------------------

bool GraphDocument::loadJson(const QByteArray &text, QString *error) {
    const spec::ParseResult parsed = spec::parseSpec(std::string_view(text.constData(), std::size_t(text.size())));
    if (!parsed.ok()) {
        if (error) {
            QStringList lines;
            for (const auto &d : parsed.diagnostics) {
                if (d.severity != spec::Severity::Error) continue;
                QString where;
                if (d.line > 0) where = tr("line %1, column %2: ").arg(d.line).arg(d.column);
                lines << where + qs(spec::formatDiagnostic(d));
            }
            *error = lines.join(QLatin1Char('\n'));
        }
        return false;
    }
    return loadSpec(parsed.spec, error);
}

bool GraphDocument::loadSpec(const spec::Spec &s, QString *error) {
    QVector<GraphNode> nodes;
    QSet<QString> ids;
    const nlohmann::json layout = s.layout.is_object() ? s.layout : nlohmann::json::object();
    bool missing = false;
    auto place = [&](GraphNode &n, const std::string &key) {
        auto it = layout.find(key);
        if (it != layout.end() && readPosition(*it, &n.pos)) {
            n.layoutEntry = *it;
        } else {
            missing = true;
        }
    };
    auto claim = [&](const QString &id) -> bool {
        if (ids.contains(id)) {
            if (error) *error = tr("The id \"%1\" is used twice; ids must be unique.").arg(id);
            return false;
        }
        ids.insert(id);
        return true;
    };
    for (const auto &in : s.inputs) {
        GraphNode n;
        n.id = qs(in.name);
        n.type = QLatin1String(kInputType);
        nlohmann::json shape = nlohmann::json::array();
        for (std::int64_t d : in.shape)
            shape.push_back(d == spec::kBatch ? nlohmann::json("N") : nlohmann::json(d));
        n.params["shape"] = shape;
        n.params["dtype"] = spec::dtypeName(in.dtype);
        if (!in.axes.empty()) n.params["axes"] = in.axes;
        n.extensions = in.extensions;
        if (!claim(n.id)) return false;
        place(n, in.name);
        nodes.push_back(std::move(n));
    }
    for (const auto &sn : s.nodes) {
        GraphNode n;
        n.id = qs(sn.id);
        n.type = qs(sn.type);
        n.params = sn.params.is_object() ? sn.params : nlohmann::json::object();
        for (const auto &r : sn.inputs)
            n.inputs.push_back(fromSpecRef(r));
        n.extensions = sn.extensions;
        n.recompute = sn.recompute;
        if (!claim(n.id)) return false;
        place(n, sn.id);
        nodes.push_back(std::move(n));
    }
    const int firstOutput = nodes.size();
    for (const auto &o : s.outputs) {
        GraphNode n;
        QString id = qs(o.name);
        for (int k = 2; ids.contains(id); ++k)
            id = qs(o.name) + QLatin1Char('_') + QString::number(k);
        ids.insert(id);
        n.id = id;
        n.type = QLatin1String(kOutputType);
        n.params["name"] = o.name;
        n.inputs.push_back(fromSpecRef(o.from));
        n.extensions = o.extensions;
        nodes.push_back(std::move(n));
    }

    // Commit: from here on the document changes.
    undoStack_->clear();
    nodes_ = std::move(nodes);
    rebuildIndex();
    name_ = qs(s.name);
    format_ = s.format;
    description_ = s.description;
    metadata_ = s.metadata;
    extensions_ = s.extensions;
    hadLayout_ = !s.layout.is_null();
    layoutExtra_ = nlohmann::json::object();
    direction_ = Direction::TopToBottom;
    for (auto it = layout.begin(); it != layout.end(); ++it) {
        const QString key = qs(it.key());
        if (it.key() == kDirectionKey) {
            direction_ =
                it->is_string() && it->get<std::string>() == "LR" ? Direction::LeftToRight : Direction::TopToBottom;
            if (it->is_string() && (it->get<std::string>() == "LR" || it->get<std::string>() == "TB")) continue;
        }
        if (key.startsWith(QLatin1String(kOutputKeyPrefix))) {
            bool used = false;
            for (int i = firstOutput; i < nodes_.size(); ++i) {
                GraphNode &n = nodes_[i];
                if (n.layoutEntry.is_null() && qs(kOutputKeyPrefix + outputName(n)) == key &&
                    readPosition(*it, &n.pos)) {
                    n.layoutEntry = *it;
                    used = true;
                    break;
                }
            }
            if (used) continue;
        }
        if (!index_.contains(key) || nodes_[index_.value(key)].type == QLatin1String(kOutputType))
            layoutExtra_[it.key()] = *it;
    }
    for (int i = firstOutput; i < nodes_.size(); ++i) {
        if (nodes_[i].layoutEntry.is_null()) nodes_[i].pos = defaultOutputPos(nodes_[i]);
    }
    needsLayout_ = missing;
    mergeSession_ = 0;
    reanalyze(false); // the views rebuild from a consistent analysis
    Q_EMIT documentReset();
    Q_EMIT analysisChanged();
    return true;
}

void GraphDocument::clear() {
    undoStack_->clear();
    nodes_.clear();
    rebuildIndex();
    name_.clear();
    format_ = spec::kFormatV1;
    description_.clear();
    metadata_ = nullptr;
    extensions_ = nullptr;
    layoutExtra_ = nlohmann::json::object();
    hadLayout_ = false;
    needsLayout_ = false;
    direction_ = Direction::TopToBottom;
    reanalyze(false);
    Q_EMIT documentReset();
    Q_EMIT analysisChanged();
}

QPointF GraphDocument::defaultOutputPos(const GraphNode &out) const {
    if (out.inputs.isEmpty() || !index_.contains(out.inputs.first().node)) return out.pos;
    const QPointF p = nodes_[index_.value(out.inputs.first().node)].pos;
    return direction_ == Direction::TopToBottom ? p + QPointF(0, 100) : p + QPointF(240, 0);
}

spec::Spec GraphDocument::toSpec() const {
    spec::Spec s;
    s.format = format_;
    s.name = ss(name_);
    s.description = description_;
    s.metadata = metadata_;
    s.extensions = extensions_;
    nlohmann::json layout = layoutExtra_.is_object() ? layoutExtra_ : nlohmann::json::object();
    for (const GraphNode &n : nodes_) {
        if (n.type == QLatin1String(kInputType)) {
            spec::InputDecl in;
            in.name = ss(n.id);
            auto shape = n.params.find("shape");
            if (shape != n.params.end() && shape->is_array()) {
                for (const auto &d : *shape)
                    in.shape.push_back(d.is_number_integer() ? d.get<std::int64_t>() : spec::kBatch);
            }
            auto dtype = n.params.find("dtype");
            if (dtype != n.params.end() && dtype->is_string()) spec::parseDType(dtype->get<std::string>(), in.dtype);
            auto axes = n.params.find("axes");
            if (axes != n.params.end() && axes->is_array()) {
                for (const auto &a : *axes)
                    if (a.is_string()) in.axes.push_back(a.get<std::string>());
            }
            in.extensions = n.extensions;
            s.inputs.push_back(std::move(in));
        } else if (n.type == QLatin1String(kOutputType)) {
            if (n.inputs.isEmpty()) continue; // an unconnected output is a designer-only draft
            spec::OutputDecl o;
            o.name = outputName(n);
            o.from = toSpecRef(n.inputs.first());
            o.extensions = n.extensions;
            s.outputs.push_back(std::move(o));
        } else {
            spec::Node sn;
            sn.id = ss(n.id);
            sn.type = ss(n.type);
            sn.params = n.params;
            for (const auto &r : n.inputs)
                sn.inputs.push_back(toSpecRef(r));
            sn.extensions = n.extensions;
            sn.recompute = n.recompute;
            s.nodes.push_back(std::move(sn));
        }
        const bool isOutput = n.type == QLatin1String(kOutputType);
        if (isOutput && (n.inputs.isEmpty() || n.pos == defaultOutputPos(n))) continue;
        nlohmann::json entry = n.layoutEntry.is_object() ? n.layoutEntry : nlohmann::json::object();
        entry["x"] = coordinate(n.pos.x());
        entry["y"] = coordinate(n.pos.y());
        layout[isOutput ? kOutputKeyPrefix + outputName(n) : ss(n.id)] = std::move(entry);
    }
    if (direction_ == Direction::LeftToRight) layout[kDirectionKey] = "LR";
    if (hadLayout_ || !layout.empty()) s.layout = std::move(layout);
    return s;
}

QJsonObject GraphDocument::toJsonObject() const {
    return QJsonDocument::fromJson(QByteArray::fromStdString(toJson().dump())).object();
}

void GraphDocument::setPositionsWithoutUndo(const QHash<QString, QPointF> &positions) {
    setPositions(positions);
    needsLayout_ = false;
}

// --- Queries --------------------------------------------------------------------------------

QStringList GraphDocument::nodeIds() const {
    QStringList ids;
    ids.reserve(nodes_.size());
    for (const GraphNode &n : nodes_)
        ids << n.id;
    return ids;
}

const GraphNode *GraphDocument::node(const QString &id) const {
    auto it = index_.constFind(id);
    return it == index_.constEnd() ? nullptr : &nodes_[*it];
}

QString GraphDocument::nodeType(const QString &id) const {
    const GraphNode *n = node(id);
    return n ? n->type : QString();
}

QJsonObject GraphDocument::params(const QString &id) const {
    const GraphNode *n = node(id);
    return n ? toQJson(n->params).toObject() : QJsonObject();
}

QJsonValue GraphDocument::param(const QString &id, const QString &name) const {
    const GraphNode *n = node(id);
    if (!n) return QJsonValue(QJsonValue::Null);
    auto it = n->params.find(ss(name));
    if (it != n->params.end()) return toQJson(*it);
    if (const spec::LayerType *t = spec::Registry::instance().find(ss(n->type))) {
        if (const spec::ParamSpec *p = t->param(ss(name))) return toQJson(p->defaultValue);
    }
    return QJsonValue(QJsonValue::Null);
}

QPointF GraphDocument::position(const QString &id) const {
    const GraphNode *n = node(id);
    return n ? n->pos : QPointF();
}

QVector<GraphPortRef> GraphDocument::inputs(const QString &id) const {
    const GraphNode *n = node(id);
    return n ? n->inputs : QVector<GraphPortRef>();
}

QVector<GraphConnection> GraphDocument::connections() const {
    QVector<GraphConnection> out;
    for (const GraphNode &n : nodes_) {
        for (int i = 0; i < n.inputs.size(); ++i)
            out.push_back({n.inputs[i], n.id, i});
    }
    return out;
}

int GraphDocument::inputSlotCount(const QString &id) const {
    const GraphNode *n = node(id);
    if (!n || n->type == QLatin1String(kInputType)) return 0;
    if (n->type == QLatin1String(kOutputType)) return 1;
    const spec::LayerType *t = spec::Registry::instance().find(ss(n->type));
    if (!t) return std::max(1, int(n->inputs.size()));
    if (t->maxInputs < 0) return std::max(t->minInputs, int(n->inputs.size()) + 1);
    return std::max(t->maxInputs, int(n->inputs.size()));
}

QStringList GraphDocument::outputPorts(const QString &id) const {
    const GraphNode *n = node(id);
    if (!n || n->type == QLatin1String(kOutputType)) return {};
    QStringList ports;
    if (const spec::LayerType *t = spec::Registry::instance().find(ss(n->type))) {
        for (const auto &p : t->outputPorts)
            ports << qs(p);
    }
    if (ports.isEmpty()) ports << QStringLiteral("out");
    return ports;
}

QString GraphDocument::uniqueId(const QString &base) const {
    QString clean = base;
    clean.replace(QLatin1Char(':'), QLatin1Char('_'));
    clean.replace(QLatin1Char(' '), QLatin1Char('_'));
    if (clean.isEmpty()) clean = QStringLiteral("node");
    if (!index_.contains(clean)) return clean;
    QString stem = clean;
    int k = 2;
    const int underscore = clean.lastIndexOf(QLatin1Char('_'));
    bool numeric = false;
    if (underscore > 0) {
        const int n = clean.mid(underscore + 1).toInt(&numeric);
        if (numeric) {
            stem = clean.left(underscore);
            k = n + 1;
        }
    }
    QString id;
    do {
        id = stem + QLatin1Char('_') + QString::number(k++);
    } while (index_.contains(id));
    return id;
}

bool GraphDocument::wouldCreateCycle(const QString &from, const QString &to) const {
    if (from == to) return true;
    // A cycle appears when `to` already feeds `from`: walk upstream from `from`.
    QVector<QString> stack{from};
    QSet<QString> seen{from};
    while (!stack.isEmpty()) {
        const GraphNode *n = node(stack.takeLast());
        if (!n) continue;
        for (const GraphPortRef &r : n->inputs) {
            if (r.node == to) return true;
            if (!seen.contains(r.node)) {
                seen.insert(r.node);
                stack.push_back(r.node);
            }
        }
    }
    return false;
}

// --- Analysis -------------------------------------------------------------------------------

QString GraphDocument::shapeText(const GraphPortRef &port) const {
    const spec::TensorType *t = analysis_.portType(toSpecRef(port));
    if (!t) return {};
    QString text = qs(spec::formatShape(t->shape));
    if (t->dtype != spec::DType::Float32) text += QLatin1Char(' ') + qs(spec::dtypeName(t->dtype));
    return text;
}

qint64 GraphDocument::paramCount(const QString &id) const {
    const spec::NodeInfo *info = analysis_.node(ss(id));
    return info ? info->paramCount : 0;
}

qint64 GraphDocument::flops(const QString &id) const {
    const spec::NodeInfo *info = analysis_.node(ss(id));
    return info ? info->flops : 0;
}

QVector<spec::Diagnostic> GraphDocument::diagnostics(const QString &id) const { return nodeDiagnostics_.value(id); }

QVector<spec::Diagnostic> GraphDocument::connectionDiagnostics(const GraphConnection &c) const {
    QVector<spec::Diagnostic> out;
    const GraphNode *consumer = node(c.to);
    if (!consumer) return out;
    const std::string slot = "input " + std::to_string(c.toIndex + 1);
    for (const spec::Diagnostic &d : nodeDiagnostics_.value(c.to)) {
        if (d.severity != spec::Severity::Error) continue;
        const bool shapeProblem = d.code.rfind("shape.", 0) == 0 || d.code == "dtype.invalid";
        if (d.field == slot || (d.field.empty() && shapeProblem) ||
            (consumer->type == QLatin1String(kOutputType) && d.code.rfind("output.", 0) == 0))
            out.push_back(d);
    }
    return out;
}

QVector<spec::Diagnostic> GraphDocument::documentDiagnostics() const { return documentDiagnostics_; }

int GraphDocument::errorCount() const {
    int n = 0;
    for (const auto &d : analysis_.diagnostics)
        n += d.severity == spec::Severity::Error;
    for (const GraphNode &node : nodes_)
        n += node.type == QLatin1String(kOutputType) && node.inputs.isEmpty();
    return n;
}

int GraphDocument::warningCount() const {
    int n = 0;
    for (const auto &d : analysis_.diagnostics)
        n += d.severity == spec::Severity::Warning;
    return n;
}

spec::MemoryEstimate GraphDocument::memoryEstimate(qint64 batch, spec::Optimizer optimizer) const {
    spec::MemoryOptions options;
    options.batch = std::max<qint64>(1, batch);
    options.optimizer = optimizer;
    for (const GraphNode &n : nodes_)
        if (n.recompute) options.recomputed.push_back(ss(n.id));
    return spec::estimateMemory(analysis_, options);
}

void GraphDocument::reanalyze(bool notify) {
    analysis_ = spec::analyze(toSpec());
    nodeDiagnostics_.clear();
    documentDiagnostics_.clear();
    for (const spec::Diagnostic &d : analysis_.diagnostics) {
        const QString id = qs(d.node);
        if (!id.isEmpty() && index_.contains(id) && nodes_[index_.value(id)].type != QLatin1String(kOutputType))
            nodeDiagnostics_[id].push_back(d);
        else
            documentDiagnostics_.push_back(d);
    }
    for (const GraphNode &n : nodes_) {
        if (n.type != QLatin1String(kOutputType) || !n.inputs.isEmpty()) continue;
        spec::Diagnostic d;
        d.code = "output.unconnected";
        d.node = ss(n.id);
        d.message = ss(tr("The output \"%1\" is not connected.").arg(qs(outputName(n))));
        d.hint = ss(tr("Drag from a layer's output port to this output."));
        nodeDiagnostics_[n.id].push_back(d);
    }
    for (auto &list : nodeDiagnostics_) {
        std::stable_partition(list.begin(), list.end(),
                              [](const spec::Diagnostic &d) { return d.severity == spec::Severity::Error; });
    }
    dirty_ = false;
    if (notify) Q_EMIT analysisChanged();
}

void GraphDocument::changed() {
    if (batch_ > 0)
        dirty_ = true;
    else
        reanalyze();
}

void GraphDocument::endBatch() {
    if (--batch_ == 0 && dirty_) reanalyze();
}

// --- Primitive mutations (called by the commands) -------------------------------------------

void GraphDocument::rebuildIndex() {
    index_.clear();
    index_.reserve(nodes_.size());
    for (int i = 0; i < nodes_.size(); ++i)
        index_.insert(nodes_[i].id, i);
}

void GraphDocument::insertNode(int index, const GraphNode &node) {
    index = std::clamp(index, 0, int(nodes_.size()));
    nodes_.insert(index, node);
    if (index == nodes_.size() - 1)
        index_.insert(node.id, index);
    else
        rebuildIndex();
    Q_EMIT nodeAdded(node.id);
    changed();
}

GraphNode GraphDocument::takeNode(const QString &id, int *index) {
    const int i = index_.value(id, -1);
    *index = i;
    if (i < 0) return {};
    Q_EMIT nodeAboutToBeRemoved(id);
    GraphNode n = nodes_.takeAt(i);
    if (i == nodes_.size())
        index_.remove(id);
    else
        rebuildIndex();
    Q_EMIT nodeRemoved(id);
    changed();
    return n;
}

void GraphDocument::setInputs(const QString &id, const QVector<GraphPortRef> &inputs) {
    auto it = index_.constFind(id);
    if (it == index_.constEnd()) return;
    nodes_[*it].inputs = inputs;
    Q_EMIT inputsChanged(id);
    changed();
}

void GraphDocument::setParamValue(const QString &id, const std::string &name, const nlohmann::json &value) {
    auto it = index_.constFind(id);
    if (it == index_.constEnd()) return;
    nlohmann::json &params = nodes_[*it].params;
    if (value.is_null())
        params.erase(name);
    else
        params[name] = value;
    Q_EMIT nodeParamsChanged(id);
    changed();
}

void GraphDocument::setRecomputeValue(const QString &id, bool on) {
    auto it = index_.constFind(id);
    if (it == index_.constEnd() || nodes_[*it].recompute == on) return;
    nodes_[*it].recompute = on;
    Q_EMIT nodeParamsChanged(id);
    changed();
}

void GraphDocument::setPositions(const QHash<QString, QPointF> &positions) {
    for (auto p = positions.begin(); p != positions.end(); ++p) {
        auto it = index_.constFind(p.key());
        if (it == index_.constEnd() || nodes_[*it].pos == p.value()) continue;
        nodes_[*it].pos = p.value();
        Q_EMIT nodeMoved(p.key());
    }
}

void GraphDocument::renameNodeNow(const QString &oldId, const QString &newId) {
    auto it = index_.constFind(oldId);
    if (it == index_.constEnd()) return;
    const int i = *it;
    nodes_[i].id = newId;
    index_.remove(oldId);
    index_.insert(newId, i);
    Q_EMIT nodeRenamed(oldId, newId);
    for (GraphNode &n : nodes_) {
        bool touched = false;
        for (GraphPortRef &r : n.inputs) {
            if (r.node == oldId) {
                r.node = newId;
                touched = true;
            }
        }
        if (touched) Q_EMIT inputsChanged(n.id);
    }
    changed();
}

void GraphDocument::setDirectionNow(Direction direction) {
    if (direction_ == direction) return;
    direction_ = direction;
    Q_EMIT directionChanged(direction);
}

void GraphDocument::push(QUndoCommand *command) { undoStack_->push(command); }

} // namespace diamond::ui
