#include "app/run/run_history.h"

#include "app/workspace/workspace.h"

#include <QCoreApplication>

namespace diamond::app {

RunHistory loadRunHistory(const QString &workspaceFolder, qint64 runId) {
    RunHistory out;
    Workspace ws;
    if (!ws.open(workspaceFolder)) {
        out.error = ws.errorString();
        return out;
    }
    RunStore store(ws);
    out.run = store.run(runId);
    if (!out.run) {
        out.error = store.errorString().isEmpty()
                        ? QCoreApplication::translate("diamond::app", "Run %1 does not exist.").arg(runId)
                        : store.errorString();
        return out;
    }
    for (const auto &key : store.metricSeries(runId))
        out.series.append({key, store.metricPoints(runId, key.first, key.second)});
    out.events = store.events(runId);
    out.messages = store.messages(runId);
    out.job = ClusterJobStore(ws).current(runId);
    return out;
}

} // namespace diamond::app
