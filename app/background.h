// runInBackground(): runs `work` on the global thread pool and calls `done(result)` on `context`'s thread when
// it is finished, unless `context` was destroyed first. `work` must not capture `context` or anything it owns.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent>

#include <type_traits>

namespace diamond::app {

template <typename Work, typename Done> void runInBackground(QObject *context, Work work, Done done) {
    using Result = std::invoke_result_t<Work>;
    auto *watcher = new QFutureWatcher<Result>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, done = std::move(done)]() mutable {
        watcher->deleteLater();
        done(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(std::move(work)));
}

} // namespace diamond::app
