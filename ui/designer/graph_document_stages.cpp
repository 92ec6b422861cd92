// GraphDocument's pipeline stages: how the network would be cut into stages, one process each (docs/distributed.md),
// kept in the layout as "designer:pipeline" {"stages": N, "cut": [ids]} so that it is saved with the spec, survives a
// round trip through the engine (which ignores the layout), and is read by the run set-up.
#include "ui/designer/graph_commands.h"
#include "ui/designer/graph_document.h"
#include "ui/designer/json_convert.h"

#include "diamond/spec/pipeline.h"

#include <QUndoStack>

namespace diamond::ui {

namespace {

const char kPipelineKey[] = "designer:pipeline";

} // namespace

int GraphDocument::pipelineStages() const {
    // The layout comes from a file: anything but 2 to kMaxPipelineStages whole stages shows none.
    const auto it = layoutExtra_.find(kPipelineKey);
    if (it == layoutExtra_.end() || !it->is_object()) return 0;
    const auto stages = it->find("stages");
    if (stages == it->end() || !stages->is_number_integer()) return 0;
    const std::int64_t n = stages->get<std::int64_t>();
    return n >= 2 && n <= spec::kMaxPipelineStages ? static_cast<int>(n) : 0;
}

QStringList GraphDocument::pipelineCut() const {
    const int stages = pipelineStages();
    if (stages < 2 || !analysis_.ok()) return {};
    const spec::Spec s = toSpec();
    std::vector<std::string> cut;
    const nlohmann::json saved = layoutExtra_.at(kPipelineKey).value("cut", nlohmann::json::array());
    if (saved.is_array() && static_cast<int>(saved.size()) == stages - 1)
        for (const auto &id : saved)
            if (id.is_string()) cut.push_back(id.get<std::string>());
    if (static_cast<int>(cut.size()) != stages - 1 || !spec::splitIntoStages(s, analysis_, cut).ok())
        cut = spec::flopBalancedCut(s, analysis_, stages);
    QStringList out;
    for (const std::string &id : cut)
        out << qs(id);
    return out;
}

QHash<QString, int> GraphDocument::pipelineStageOfNodes() const {
    QHash<QString, int> out;
    const QStringList cut = pipelineCut();
    if (cut.isEmpty()) return out;
    int stage = 0;
    for (const std::string &id : spec::runOrder(analysis_)) {
        out.insert(qs(id), stage);
        if (stage < cut.size() && qs(id) == cut[stage]) ++stage;
    }
    return out;
}

bool GraphDocument::setPipelineStages(int stages) {
    if (stages > spec::kMaxPipelineStages) return false;
    const auto it = layoutExtra_.find(kPipelineKey);
    const nlohmann::json before = it == layoutExtra_.end() ? nlohmann::json() : *it;
    nlohmann::json after;
    if (stages >= 2) {
        if (!analysis_.ok()) return false;
        const std::vector<std::string> cut = spec::flopBalancedCut(toSpec(), analysis_, stages);
        if (static_cast<int>(cut.size()) != stages - 1) return false;
        after = {{"stages", stages}, {"cut", cut}};
    }
    if (before == after) return false;
    push(new SetPipelineCommand(
        this, stages >= 2 ? tr("Show %1 pipeline stages").arg(stages) : tr("Hide the pipeline stages"), before, after));
    return true;
}

bool GraphDocument::endPipelineStageAt(const QString &id) {
    const QHash<QString, int> stageOf = pipelineStageOfNodes();
    if (!stageOf.contains(id)) return false;
    QStringList cut = pipelineCut();
    const int stage = stageOf.value(id);
    // Its own stage ends here; in the last stage, the stage before grows to end here.
    const int index = stage < cut.size() ? stage : stage - 1;
    if (cut[index] == id) return false;
    cut[index] = id;
    std::vector<std::string> ids;
    for (const QString &c : cut)
        ids.push_back(ss(c));
    if (!spec::splitIntoStages(toSpec(), analysis_, ids).ok()) return false;
    const nlohmann::json before = layoutExtra_.at(kPipelineKey);
    const nlohmann::json after = {{"stages", pipelineStages()}, {"cut", ids}};
    push(new SetPipelineCommand(this, tr("End pipeline stage %1 at %2").arg(index + 1).arg(id), before, after));
    return true;
}

void GraphDocument::setPipelineNow(const nlohmann::json &pipeline) {
    if (pipeline.is_null())
        layoutExtra_.erase(kPipelineKey);
    else
        layoutExtra_[kPipelineKey] = pipeline;
    changed();
    Q_EMIT pipelineChanged();
}

} // namespace diamond::ui
