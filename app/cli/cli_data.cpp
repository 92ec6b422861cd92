// diamondctl data add|list|show|versions|remove|stage|unstage|clean: the workspace's registered datasets (app/data,
// docs/datasets.md). Errors: "diamondctl: ..." on stderr, exit 1; 2 for bad usage; --json prints one JSON document.
#include "cli.h"
#include "terminal_prompter.h"

#include "app/cluster/cluster_link.h"
#include "app/cluster/cluster_store.h"
#include "app/data/dataset_cache_cleaner.h"
#include "app/data/dataset_json.h"
#include "app/data/dataset_stager.h"
#include "app/data/dataset_store.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QSet>

#include <functional>

namespace diamond::cli {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamondctl", text); }

QString dataUsage() {
    return tr("Usage:\n"
              "  diamondctl data add PATH [--name NAME] [--json]      register a file or folder (a new version when\n"
              "                                                        the name exists and the content changed)\n"
              "  diamondctl data list [--json]\n"
              "  diamondctl data show NAME[@VERSION] [--json]         schema, problems and files of a version\n"
              "  diamondctl data versions NAME [--json]\n"
              "  diamondctl data remove NAME [--json]                 the dataset, its versions and unshared content\n"
              "  diamondctl data stage NAME[@VERSION] --target CLUSTER [--verify] [--json]\n"
              "                                                        put a version into the cluster's dataset cache\n"
              "                                                        (only missing chunks travel)\n"
              "  diamondctl data unstage NAME[@VERSION] --target CLUSTER [--json]\n"
              "                                                        remove staged copies from the cluster's cache\n"
              "                                                        (NAME alone: every version) and free what no\n"
              "                                                        other staged version uses\n"
              "  diamondctl data clean --target CLUSTER [--unregistered] [--json]\n"
              "                                                        free cache entries no staged version uses;\n"
              "                                                        --unregistered also removes staged versions\n"
              "                                                        this workspace has no record of\n");
}

QString mib(qint64 bytes) { return QString::number(double(bytes) / 1048576.0, 'f', bytes < 10485760 ? 2 : 1); }

/// Progress on stderr at most once a second (interactive use only).
class ProgressLine {
public:
    ProgressLine(Io &io, bool quiet) : io_(io), quiet_(quiet) { timer_.start(); }
    void show(const QString &text) {
        if (quiet_ || timer_.elapsed() < 1000) return;
        timer_.restart();
        io_.err << text << '\n';
        io_.err.flush();
    }

private:
    Io &io_;
    bool quiet_;
    QElapsedTimer timer_;
};

void printVersion(Io &io, const app::DatasetVersion &v) {
    io.out << tr("%1  %2, %3 files, %4 MiB (%5 MiB new when added), %6 rows\n")
                  .arg(v.ref(), v.format)
                  .arg(v.fileCount)
                  .arg(mib(v.sizeBytes), mib(v.newBytes))
                  .arg(v.rows);
    io.out << tr("  from %1 by %2 at %3\n").arg(v.source, v.createdBy, v.createdAt);
    for (const QString &p : v.problems)
        io.out << tr("  problem: %1\n").arg(p);
}

/// Runs `work` on the link's thread with a runner connected to cluster `target` (sign-in prompts on the terminal)
/// and the cluster's dataset cache folder; kOk, or the exit code after a message on io.err (an unknown cluster, or
/// no connection: *error).
int onCluster(app::Workspace &ws, const QString &target, Io &io, QString *error,
              const std::function<void(remote::CommandRunner &runner, const QString &cacheRoot)> &work) {
    if (target.isEmpty()) return io.err << dataUsage(), kUsage;
    app::ClusterStore clusters(ws);
    const auto profile = clusters.profile(target);
    if (!profile) return io.err << tr("diamondctl: %1\n").arg(clusters.errorString()), kFailed;
    TerminalPrompter prompter(io.err);
    app::ClusterLinks links;
    links.setPrompter(&prompter);
    app::ClusterLink *link = links.link(*profile);
    app::runAndWait(*link, [&] {
        if (remote::CommandRunner *runner = link->runner(error))
            work(*runner, profile->scratchDir + QStringLiteral("/datasets"));
    });
    return kOk;
}

int stage(app::Workspace &ws, const app::DatasetVersion &version, const CommandOptions &o, Io &io) {
    const QString target = o.values.value(QStringLiteral("--target"));
    app::DatasetStore datasets(ws);
    const app::ChunkStore store(datasets.chunks().root());
    std::optional<app::StageResult> result;
    QString error;
    ProgressLine line(io, o.json);
    const int code = onCluster(ws, target, io, &error, [&](remote::CommandRunner &runner, const QString &cacheRoot) {
        app::DatasetStager stager(runner, cacheRoot);
        stager.setVerifyAlways(o.flags.contains(QStringLiteral("--verify")));
        result = stager.stage(
            version, store,
            [&](qint64 sent, qint64 toSend, const QString &phase) {
                // Called on the link's thread: only the time check and a line on stderr.
                line.show(tr("%1: %2 of %3 MiB %4").arg(version.ref(), mib(sent), mib(toSend), phase));
                return true;
            },
            &error);
    });
    if (code != kOk) return code;
    if (!result) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    QJsonObject json = result->toJson();
    json.insert(QStringLiteral("dataset"), version.ref());
    json.insert(QStringLiteral("target"), target);
    if (o.json) {
        printJson(io, json);
    } else if (result->alreadyStaged) {
        io.out << tr("%1 is already on %2 in %3 (verified); nothing sent.\n")
                      .arg(version.ref(), target, result->remoteDir);
    } else {
        io.out << tr("%1 staged to %2 in %3: %4 of %5 MiB sent in %6 s (%7 chunks in %8 shards, %9 retries); "
                     "every file verified by SHA-256.\n")
                      .arg(version.ref(), target, result->remoteDir, mib(result->payloadBytes), mib(result->bytesTotal))
                      .arg(result->seconds, 0, 'f', 2)
                      .arg(result->chunksSent)
                      .arg(result->shards)
                      .arg(result->retries);
    }
    return kOk;
}

/// Cleans the cluster's dataset cache: removes the staged versions `selection` picks, then frees what no remaining
/// version uses. `asked` names what a Dataset selection asked for, in the message when it is not staged.
int cleanCache(app::Workspace &ws, const QString &target, const CommandOptions &o, Io &io,
               const app::CacheSelection &selection, const QString &asked = {}) {
    std::optional<app::CacheCleanResult> result;
    QString error;
    bool notStaged = false;
    const int code = onCluster(ws, target, io, &error, [&](remote::CommandRunner &runner, const QString &cacheRoot) {
        result = app::DatasetCacheCleaner(runner, cacheRoot).clean(selection, &error, &notStaged);
    });
    if (notStaged) error = tr("%1 is not staged on %2.").arg(asked, target);
    if (code != kOk) return code;
    if (!result) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    if (o.json) {
        QJsonObject json = result->toJson();
        json.insert(QStringLiteral("target"), target);
        printJson(io, json);
        return kOk;
    }
    for (const QString &v : result->removedVersions)
        io.out << tr("Removed %1 from %2.\n").arg(v, target);
    io.out << tr("Freed %1 MiB on %2: %3 cached files, %4 packs, %5 partial transfers. The cache keeps %6 staged "
                 "versions in %7 MiB.\n")
                  .arg(mib(result->bytesFreed()), target)
                  .arg(result->filesFreed)
                  .arg(result->packsFreed)
                  .arg(result->partialsFreed)
                  .arg(result->versionsLeft)
                  .arg(mib(result->bytesLeft));
    return kOk;
}

} // namespace

int runData(const QStringList &args, const QString &workspaceOption, Io &io) {
    if (args.isEmpty() || args.first() == QLatin1String("--help")) {
        (args.isEmpty() ? io.err : io.out) << dataUsage();
        return args.isEmpty() ? kUsage : kOk;
    }
    const QString sub = args.first();
    CommandOptions o;
    if (!parseOptions(args.mid(1), {QStringLiteral("--name"), QStringLiteral("--target")},
                      {QStringLiteral("--verify"), QStringLiteral("--unregistered")}, &o, io))
        return kUsage;
    const bool needsArgument = sub != QLatin1String("list") && sub != QLatin1String("clean");
    if (needsArgument != (o.positional.size() == 1)) return io.err << dataUsage(), kUsage;
    app::Workspace ws;
    if (!openWorkspace(ws, workspaceOption, io)) return kFailed;
    app::DatasetStore datasets(ws);
    const QString target = o.values.value(QStringLiteral("--target"));
    if (sub == QLatin1String("clean")) {
        app::CacheSelection selection;
        if (o.flags.contains(QStringLiteral("--unregistered"))) {
            selection.kind = app::CacheSelection::Kind::Unregistered;
            selection.registered = app::DatasetCacheCleaner::registeredEntries(datasets);
        }
        return cleanCache(ws, target, o, io, selection);
    }
    if (sub == QLatin1String("unstage")) {
        app::CacheSelection selection;
        selection.kind = app::CacheSelection::Kind::Dataset;
        int number = 0;
        if (!app::DatasetStore::parseRef(o.positional.first(), &selection.name, &number))
            return io.err << dataUsage(), kUsage;
        if (number > 0) { // only that version
            const auto v = datasets.resolve(o.positional.first());
            if (!v) return io.err << tr("diamondctl: %1\n").arg(datasets.errorString()), kFailed;
            selection.entry = app::DatasetCacheCleaner::entryOf(*v);
        }
        return cleanCache(ws, target, o, io, selection, o.positional.first());
    }
    if (sub == QLatin1String("add")) {
        const QString path = o.positional.first();
        const QString name = o.values.value(QStringLiteral("--name"), app::DatasetStore::nameForPath(path));
        ProgressLine line(io, o.json);
        bool unchanged = false;
        const auto v = datasets.addVersion(
            name, path,
            [&](qint64 done, qint64 total) {
                line.show(tr("%1: hashed %2 of %3 MiB").arg(path, mib(done), mib(total)));
                return true;
            },
            &unchanged);
        if (!v) return io.err << tr("diamondctl: %1\n").arg(datasets.errorString()), kFailed;
        if (o.json) {
            QJsonObject json = app::datasetVersionJson(*v);
            json.insert(QStringLiteral("unchanged"), unchanged);
            printJson(io, json);
        } else {
            if (unchanged) io.out << tr("Unchanged since %1; no new version.\n").arg(v->ref());
            printVersion(io, *v);
        }
        return kOk;
    }
    if (sub == QLatin1String("list")) {
        const QList<app::DatasetSummary> all = datasets.list();
        if (!datasets.errorString().isEmpty())
            return io.err << tr("diamondctl: %1\n").arg(datasets.errorString()), kFailed;
        if (o.json) {
            QJsonArray a;
            for (const auto &s : all)
                a.append(app::datasetSummaryJson(s));
            printJson(io, {{QStringLiteral("datasets"), a}});
        } else if (all.isEmpty()) {
            io.out << tr("No datasets. Add one with: diamondctl data add PATH\n");
        } else {
            for (const auto &s : all)
                io.out << tr("%1  %2 versions, newest %3: %4, %5 MiB, %6 files\n")
                              .arg(s.name)
                              .arg(s.versions)
                              .arg(s.latest.ref(), s.latest.format, mib(s.latest.sizeBytes))
                              .arg(s.latest.fileCount);
        }
        return kOk;
    }
    if (sub == QLatin1String("versions")) {
        const QList<app::DatasetVersion> all = datasets.versions(o.positional.first());
        if (all.isEmpty())
            return io.err
                       << tr("diamondctl: There is no dataset \"%1\" in this workspace.\n").arg(o.positional.first()),
                   kFailed;
        QJsonArray a;
        for (const auto &v : all) {
            if (o.json)
                a.append(app::datasetVersionJson(v));
            else
                printVersion(io, v);
        }
        if (o.json) printJson(io, {{QStringLiteral("name"), o.positional.first()}, {QStringLiteral("versions"), a}});
        return kOk;
    }
    if (sub == QLatin1String("remove")) {
        qint64 freed = 0;
        if (!datasets.remove(o.positional.first(), &freed))
            return io.err << tr("diamondctl: %1\n").arg(datasets.errorString()), kFailed;
        if (o.json)
            printJson(io, {{QStringLiteral("removed"), o.positional.first()}, {QStringLiteral("freed_bytes"), freed}});
        else
            io.out << tr("Removed %1; %2 MiB freed.\n").arg(o.positional.first(), mib(freed));
        return kOk;
    }
    if (sub != QLatin1String("show") && sub != QLatin1String("stage")) return io.err << dataUsage(), kUsage;
    const auto v = datasets.resolve(o.positional.first());
    if (!v) return io.err << tr("diamondctl: %1\n").arg(datasets.errorString()), kFailed;
    if (sub == QLatin1String("stage")) return stage(ws, *v, o, io);
    if (o.json) {
        printJson(io, app::datasetVersionJson(*v, true));
    } else {
        printVersion(io, *v);
        for (const app::ManifestFile &f : v->manifest.files.mid(0, 20))
            io.out << QStringLiteral("  %1  %2\n").arg(f.path).arg(f.size);
        if (v->manifest.files.size() > 20) io.out << tr("  … and %1 more files\n").arg(v->manifest.files.size() - 20);
    }
    return kOk;
}

} // namespace diamond::cli
