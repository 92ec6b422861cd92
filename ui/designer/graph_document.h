// The designer's headless graph model: layers (nodes with parameters and a position) and the
// connections between their ports, converted to and from a diamond.spec/1 document. No widgets:
// the canvas, inspector and summary are projections of this model and edit it only through its
// edit functions, each of which pushes one QUndoCommand on the document's undo stack.
#pragma once

#include "diamond/spec/analysis.h"

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>
#include <QPointF>
#include <QStringList>
#include <QVector>

#include <nlohmann/json.hpp>

class QUndoCommand;
class QUndoStack;

namespace diamond::ui {

/// MIME type of a palette drag: the payload is the layer type name in UTF-8.
inline constexpr char kLayerMimeType[] = "application/x-diamond-layer";
/// MIME type of copied nodes: a JSON fragment (see GraphDocument::copy()).
inline constexpr char kGraphMimeType[] = "application/x-diamond-graph";
/// Designer-only node type standing for one entry of the spec's `outputs`.
inline constexpr char kOutputType[] = "Output";
/// Designer-only node type name of graph inputs (also a registry type).
inline constexpr char kInputType[] = "Input";

/// One output port of a node: `port` empty = the node's first output.
struct GraphPortRef {
    QString node;
    QString port;
    bool operator==(const GraphPortRef &o) const { return node == o.node && port == o.port; }
};

/// A connection: output port `from` feeds input slot `toIndex` (0-based) of node `to`.
struct GraphConnection {
    GraphPortRef from;
    QString to;
    int toIndex = 0;
};

/// One node of the document. Input nodes carry the spec input's `shape`, `dtype`, `axes` as
/// params; Output nodes carry `name` (the output's name) and have exactly one input.
struct GraphNode {
    QString id;
    QString type;
    nlohmann::json params = nlohmann::json::object(); ///< as written; absent = default
    QVector<GraphPortRef> inputs;                     ///< in order, without holes
    QPointF pos;                                      ///< top-left corner in scene coordinates
    nlohmann::json extensions;                        ///< unknown spec keys of the node, kept verbatim
    nlohmann::json layoutEntry;                       ///< the node's layout entry (extra keys kept)
    bool recompute = false;                           ///< the spec's "recompute" (layers only)
};

class GraphDocument : public QObject {
    Q_OBJECT
public:
    enum class Direction { TopToBottom, LeftToRight };
    Q_ENUM(Direction)

    explicit GraphDocument(QObject *parent = nullptr);
    ~GraphDocument() override;

    // --- Loading and saving (not undoable: they clear the undo stack) ----------------------
    /// Replaces the document by `spec`. Returns false (document unchanged) when the spec cannot
    /// be represented, with the reason in `error`.
    bool loadSpec(const spec::Spec &spec, QString *error = nullptr);
    /// Parses diamond.spec/1 JSON text; errors carry line/column or the node id.
    bool loadJson(const QByteArray &text, QString *error = nullptr);
    void clear();
    spec::Spec toSpec() const;
    nlohmann::json toJson() const { return spec::toJson(toSpec()); }
    QJsonObject toJsonObject() const;
    /// True when the last loaded spec lacked a position for some node (auto-layout wanted).
    bool needsLayout() const { return needsLayout_; }
    /// Sets positions without an undo step (used right after loading).
    void setPositionsWithoutUndo(const QHash<QString, QPointF> &positions);

    QString name() const { return name_; }
    Direction direction() const { return direction_; }

    // --- Queries -----------------------------------------------------------------------------
    int nodeCount() const { return nodes_.size(); }
    QStringList nodeIds() const;
    bool hasNode(const QString &id) const { return index_.contains(id); }
    const GraphNode *node(const QString &id) const;
    QString nodeType(const QString &id) const;
    QJsonObject params(const QString &id) const;
    /// The written value, or the registry default when absent (null when neither).
    QJsonValue param(const QString &id, const QString &name) const;
    QPointF position(const QString &id) const;
    QVector<GraphPortRef> inputs(const QString &id) const;
    QVector<GraphConnection> connections() const;
    /// Input slots shown for the node: fixed for most layers, connected + 1 for open-ended ones.
    int inputSlotCount(const QString &id) const;
    QStringList outputPorts(const QString &id) const;
    /// `base` when free, else base_2, base_3, ...
    QString uniqueId(const QString &base) const;
    /// True when an edge from `from` to `to` would close a cycle.
    bool wouldCreateCycle(const QString &from, const QString &to) const;

    // --- Analysis (refreshed after every edit) -----------------------------------------------
    const spec::Analysis &analysis() const { return analysis_; }
    /// "[N,32,26,26]" of a node's output port (dtype appended when not float32); empty when unknown.
    QString shapeText(const GraphPortRef &port) const;
    qint64 paramCount(const QString &id) const;
    qint64 flops(const QString &id) const;
    /// Diagnostics about this node (errors first).
    QVector<spec::Diagnostic> diagnostics(const QString &id) const;
    /// Error diagnostics that concern the given connection (the consumer's input slot).
    QVector<spec::Diagnostic> connectionDiagnostics(const GraphConnection &c) const;
    /// Diagnostics not tied to a node on the canvas (e.g. "no outputs").
    QVector<spec::Diagnostic> documentDiagnostics() const;
    qint64 totalParams() const { return analysis_.totalParams; }
    qint64 totalFlops() const { return analysis_.totalFlops; }
    int errorCount() const;
    int warningCount() const;
    /// The training memory at `batch`, with what the nodes marked to recompute do not keep.
    spec::MemoryEstimate memoryEstimate(qint64 batch, spec::Optimizer optimizer = spec::Optimizer::Adam) const;

    // --- Edits (one undo step each) ----------------------------------------------------------
    QUndoStack *undoStack() const { return undoStack_; }
    /// Adds a node of a registry type (or Input/Output) at `pos`; returns its id, empty when the
    /// type is unknown.
    QString addNode(const QString &type, const QPointF &pos, const QString &preferredId = {});
    /// Removes the nodes and every connection touching them; returns false when none exist.
    bool removeNodes(const QStringList &ids);
    /// Connects `from` to input slot `toIndex` of `to` (appends when past the last connected
    /// slot, replaces an occupied one). Refuses cycles, self-loops, unknown ports and slots.
    bool connectPorts(const GraphPortRef &from, const QString &to, int toIndex, QString *reason = nullptr);
    bool disconnectInput(const QString &to, int toIndex);
    /// Sets (or with an undefined/null value removes, i.e. back to default) a parameter.
    /// Consecutive changes of the same node and parameter merge into one undo step.
    bool setParam(const QString &id, const QString &name, const QJsonValue &value);
    /// Marks the layers among `ids` to recompute their activations in backward (the spec's "recompute"), or unmarks
    /// them: one undo step. Inputs and outputs are skipped; false when no layer changes.
    bool setRecompute(const QStringList &ids, bool on);
    /// Marks exactly the layers among `ids` and unmarks every other layer: one undo step; false when nothing changes.
    bool setRecomputedLayers(const QStringList &ids);
    /// Whether node `id` is marked to recompute; false for unknown ids.
    bool recomputes(const QString &id) const;
    /// Whether node `id` is a layer (not an input or output), which can be marked to recompute.
    bool canRecompute(const QString &id) const;
    // --- Pipeline stages shown on the canvas (saved in the layout as "designer:pipeline"; the run set-up cuts a
    // pipeline run of as many processes there) -------------------------------------------------
    /// The stages shown (0: none).
    int pipelineStages() const;
    /// The layer after which each stage but the last ends, in run order: the saved cut while it still fits the graph,
    /// else where the forward FLOPs balance (spec::flopBalancedCut); empty without stages or when the graph has errors.
    QStringList pipelineCut() const;
    /// Per layer id: its stage, from 0; empty when no stages are shown or the graph has errors.
    QHash<QString, int> pipelineStageOfNodes() const;
    /// Shows `stages` stages (below 2: none) cut where the forward FLOPs balance: one undo step; false when nothing
    /// changes or the network has too few layers.
    bool setPipelineStages(int stages);
    /// Ends the stage that holds layer `id` at it (a layer of the last stage: the stage before ends there instead):
    /// one undo step; false when nothing changes or no stages are shown.
    bool endPipelineStageAt(const QString &id);

    /// Moves nodes; calls with the same non-zero `mergeSession` merge into one undo step.
    void moveNodes(const QHash<QString, QPointF> &positions, int mergeSession = 0);
    int newMergeSession() { return ++mergeSession_; }
    bool renameNode(const QString &id, const QString &newId, QString *reason = nullptr);
    /// The nodes with their internal connections as a JSON fragment for the clipboard.
    QByteArray copy(const QStringList &ids) const;
    /// Adds a copied fragment with fresh ids, shifted by `offset`; returns the new ids (one step).
    QStringList paste(const QByteArray &fragment, const QPointF &offset);
    /// Moves every node and sets the flow direction in one undo step.
    void applyLayout(const QHash<QString, QPointF> &positions, Direction direction);

Q_SIGNALS:
    void nodeAdded(const QString &id);
    void nodeAboutToBeRemoved(const QString &id);
    void nodeRemoved(const QString &id);
    void nodeRenamed(const QString &oldId, const QString &newId);
    void nodeParamsChanged(const QString &id);
    void nodeMoved(const QString &id);
    /// The input list of `id` changed (edges into it must be rebuilt).
    void inputsChanged(const QString &id);
    void directionChanged(GraphDocument::Direction direction);
    /// The whole document was replaced (load, clear).
    void documentReset();
    void analysisChanged();
    /// The pipeline stages shown changed (their number or cut).
    void pipelineChanged();

private:
    friend class DocumentCommand;
    friend class AddNodeCommand;
    friend class RemoveNodeCommand;
    friend class SetInputsCommand;
    friend class SetParamCommand;
    friend class SetRecomputeCommand;
    friend class SetPipelineCommand;
    friend class MoveNodesCommand;
    friend class RenameCommand;
    friend class SetDirectionCommand;
    friend class CompoundCommand;

    // Primitive mutations used by the commands; each emits its signal and re-analyses unless
    // inside a batch.
    void insertNode(int index, const GraphNode &node);
    GraphNode takeNode(const QString &id, int *index);
    void setInputs(const QString &id, const QVector<GraphPortRef> &inputs);
    void setParamValue(const QString &id, const std::string &name, const nlohmann::json &value);
    void setRecomputeValue(const QString &id, bool on);
    /// The layout's "designer:pipeline" ({"stages", "cut"}; null: none).
    void setPipelineNow(const nlohmann::json &pipeline);
    void setPositions(const QHash<QString, QPointF> &positions);
    void renameNodeNow(const QString &oldId, const QString &newId);
    void setDirectionNow(Direction direction);
    void beginBatch() { ++batch_; }
    void endBatch();
    void changed();
    void reanalyze(bool notify = true);
    void rebuildIndex();
    void push(QUndoCommand *command);
    QPointF defaultOutputPos(const GraphNode &out) const;

    QVector<GraphNode> nodes_;
    QHash<QString, int> index_;
    QUndoStack *undoStack_ = nullptr;
    spec::Analysis analysis_;
    QHash<QString, QVector<spec::Diagnostic>> nodeDiagnostics_;
    QVector<spec::Diagnostic> documentDiagnostics_;
    int batch_ = 0;
    bool dirty_ = false;
    int mergeSession_ = 0;
    bool needsLayout_ = false;
    Direction direction_ = Direction::TopToBottom;

    // Spec fields the designer does not edit, kept for a lossless round trip.
    QString name_;
    std::string format_ = spec::kFormatV1;
    std::string description_;
    nlohmann::json metadata_;
    nlohmann::json extensions_;
    nlohmann::json layoutExtra_; ///< layout keys that are not node positions
    bool hadLayout_ = false;
};

} // namespace diamond::ui
