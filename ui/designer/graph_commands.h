// The undo commands of GraphDocument. Each command is a small, reversible change applied through
// the document's primitive mutations; compound edits (delete several, paste, auto-layout) are a
// CompoundCommand whose children run inside one analysis batch.
#pragma once

#include "ui/designer/graph_document.h"

#include <QUndoCommand>

namespace diamond::ui {

class DocumentCommand : public QUndoCommand {
public:
    DocumentCommand(GraphDocument *doc, const QString &text, QUndoCommand *parent = nullptr)
        : QUndoCommand(text, parent), doc_(doc) {}

protected:
    GraphDocument *doc_;
};

/// Runs its children in one analysis batch (one analysisChanged per redo/undo).
class CompoundCommand : public DocumentCommand {
public:
    using DocumentCommand::DocumentCommand;
    void redo() override;
    void undo() override;
};

class AddNodeCommand : public DocumentCommand {
public:
    AddNodeCommand(GraphDocument *doc, const GraphNode &node, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    GraphNode node_;
    int index_;
};

class RemoveNodeCommand : public DocumentCommand {
public:
    RemoveNodeCommand(GraphDocument *doc, const QString &id, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    QString id_;
    GraphNode node_;
    int index_ = -1;
};

class SetInputsCommand : public DocumentCommand {
public:
    SetInputsCommand(GraphDocument *doc, const QString &text, const QString &id, const QVector<GraphPortRef> &before,
                     const QVector<GraphPortRef> &after, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    QString id_;
    QVector<GraphPortRef> before_, after_;
};

class SetParamCommand : public DocumentCommand {
public:
    enum { Id = 0x5e7a };
    SetParamCommand(GraphDocument *doc, const QString &id, const std::string &name, const nlohmann::json &before,
                    const nlohmann::json &after);
    void redo() override;
    void undo() override;
    int id() const override { return Id; }
    bool mergeWith(const QUndoCommand *other) override;

private:
    QString id_;
    std::string name_;
    nlohmann::json before_, after_; ///< null = absent
};

/// Marks or unmarks nodes to recompute in backward (all of `ids` had the other value).
class SetRecomputeCommand : public DocumentCommand {
public:
    SetRecomputeCommand(GraphDocument *doc, const QStringList &ids, bool on, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    QStringList ids_;
    bool on_;
};

class MoveNodesCommand : public DocumentCommand {
public:
    enum { Id = 0x30fe };
    MoveNodesCommand(GraphDocument *doc, const QHash<QString, QPointF> &before, const QHash<QString, QPointF> &after,
                     int session, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;
    int id() const override { return session_ ? int(Id) : -1; }
    bool mergeWith(const QUndoCommand *other) override;

private:
    QHash<QString, QPointF> before_, after_;
    int session_;
};

class RenameCommand : public DocumentCommand {
public:
    RenameCommand(GraphDocument *doc, const QString &oldId, const QString &newId);
    void redo() override;
    void undo() override;

private:
    QString old_, new_;
};

class SetDirectionCommand : public DocumentCommand {
public:
    SetDirectionCommand(GraphDocument *doc, GraphDocument::Direction before, GraphDocument::Direction after,
                        QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    GraphDocument::Direction before_, after_;
};

/// Sets the pipeline stages shown ({"stages", "cut"} or null).
class SetPipelineCommand : public DocumentCommand {
public:
    SetPipelineCommand(GraphDocument *doc, const QString &text, nlohmann::json before, nlohmann::json after)
        : DocumentCommand(doc, text), before_(std::move(before)), after_(std::move(after)) {}
    void redo() override { doc_->setPipelineNow(after_); }
    void undo() override { doc_->setPipelineNow(before_); }

private:
    nlohmann::json before_, after_;
};

} // namespace diamond::ui
