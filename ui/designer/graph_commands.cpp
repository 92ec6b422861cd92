#include "ui/designer/graph_commands.h"

#include <QCoreApplication>

namespace diamond::ui {

void CompoundCommand::redo() {
    doc_->beginBatch();
    QUndoCommand::redo();
    doc_->endBatch();
}

void CompoundCommand::undo() {
    doc_->beginBatch();
    QUndoCommand::undo();
    doc_->endBatch();
}

AddNodeCommand::AddNodeCommand(GraphDocument *doc, const GraphNode &node, QUndoCommand *parent)
    : DocumentCommand(doc, QCoreApplication::translate("diamond::ui::GraphDocument", "Add %1").arg(node.id), parent),
      node_(node), index_(doc->nodeCount()) {}

void AddNodeCommand::redo() {
    index_ = doc_->nodeCount();
    doc_->insertNode(index_, node_);
}

void AddNodeCommand::undo() {
    int index = -1;
    node_ = doc_->takeNode(node_.id, &index);
}

RemoveNodeCommand::RemoveNodeCommand(GraphDocument *doc, const QString &id, QUndoCommand *parent)
    : DocumentCommand(doc, QCoreApplication::translate("diamond::ui::GraphDocument", "Delete %1").arg(id), parent),
      id_(id) {}

void RemoveNodeCommand::redo() { node_ = doc_->takeNode(id_, &index_); }

void RemoveNodeCommand::undo() { doc_->insertNode(index_, node_); }

SetInputsCommand::SetInputsCommand(GraphDocument *doc, const QString &text, const QString &id,
                                   const QVector<GraphPortRef> &before, const QVector<GraphPortRef> &after,
                                   QUndoCommand *parent)
    : DocumentCommand(doc, text, parent), id_(id), before_(before), after_(after) {}

void SetInputsCommand::redo() { doc_->setInputs(id_, after_); }

void SetInputsCommand::undo() { doc_->setInputs(id_, before_); }

SetParamCommand::SetParamCommand(GraphDocument *doc, const QString &id, const std::string &name,
                                 const nlohmann::json &before, const nlohmann::json &after)
    : DocumentCommand(doc, QCoreApplication::translate("diamond::ui::GraphDocument", "Set %1 of %2")
                               .arg(QString::fromStdString(name), id)),
      id_(id), name_(name), before_(before), after_(after) {}

void SetParamCommand::redo() { doc_->setParamValue(id_, name_, after_); }

void SetParamCommand::undo() { doc_->setParamValue(id_, name_, before_); }

bool SetParamCommand::mergeWith(const QUndoCommand *other) {
    const auto *o = static_cast<const SetParamCommand *>(other);
    if (o->id_ != id_ || o->name_ != name_) return false;
    after_ = o->after_;
    setObsolete(after_ == before_);
    return true;
}

SetRecomputeCommand::SetRecomputeCommand(GraphDocument *doc, const QStringList &ids, bool on, QUndoCommand *parent)
    : DocumentCommand(doc,
                      on ? QCoreApplication::translate("diamond::ui::GraphDocument", "Recompute %n node(s) in backward",
                                                       nullptr, int(ids.size()))
                         : QCoreApplication::translate("diamond::ui::GraphDocument",
                                                       "Keep the activations of %n node(s)", nullptr, int(ids.size())),
                      parent),
      ids_(ids), on_(on) {}

void SetRecomputeCommand::redo() {
    for (const QString &id : ids_)
        doc_->setRecomputeValue(id, on_);
}

void SetRecomputeCommand::undo() {
    for (const QString &id : ids_)
        doc_->setRecomputeValue(id, !on_);
}

MoveNodesCommand::MoveNodesCommand(GraphDocument *doc, const QHash<QString, QPointF> &before,
                                   const QHash<QString, QPointF> &after, int session, QUndoCommand *parent)
    : DocumentCommand(
          doc, QCoreApplication::translate("diamond::ui::GraphDocument", "Move %n node(s)", nullptr, int(after.size())),
          parent),
      before_(before), after_(after), session_(session) {}

void MoveNodesCommand::redo() { doc_->setPositions(after_); }

void MoveNodesCommand::undo() { doc_->setPositions(before_); }

bool MoveNodesCommand::mergeWith(const QUndoCommand *other) {
    const auto *o = static_cast<const MoveNodesCommand *>(other);
    if (o->session_ != session_ || session_ == 0) return false;
    for (auto it = o->after_.begin(); it != o->after_.end(); ++it) {
        if (!before_.contains(it.key())) before_.insert(it.key(), o->before_.value(it.key()));
        after_.insert(it.key(), it.value());
    }
    bool same = true;
    for (auto it = after_.begin(); it != after_.end() && same; ++it)
        same = before_.value(it.key()) == it.value();
    setObsolete(same);
    return true;
}

RenameCommand::RenameCommand(GraphDocument *doc, const QString &oldId, const QString &newId)
    : DocumentCommand(doc,
                      QCoreApplication::translate("diamond::ui::GraphDocument", "Rename %1 to %2").arg(oldId, newId)),
      old_(oldId), new_(newId) {}

void RenameCommand::redo() { doc_->renameNodeNow(old_, new_); }

void RenameCommand::undo() { doc_->renameNodeNow(new_, old_); }

SetDirectionCommand::SetDirectionCommand(GraphDocument *doc, GraphDocument::Direction before,
                                         GraphDocument::Direction after, QUndoCommand *parent)
    : DocumentCommand(doc, QString(), parent), before_(before), after_(after) {}

void SetDirectionCommand::redo() { doc_->setDirectionNow(after_); }

void SetDirectionCommand::undo() { doc_->setDirectionNow(before_); }

} // namespace diamond::ui
