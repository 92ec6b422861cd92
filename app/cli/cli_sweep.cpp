// diamondctl sweep start|list|status|best|stop|pause|resume (docs/sweeps.md). Errors go to stderr as
// "diamondctl: ..." with exit code 1, or 2 for bad arguments; --json output is one JSON document on stdout (with
// --follow, one JSON object per line). A sweep needs a live controller process: `sweep start FILE --follow` and
// `sweep resume ID --follow` are that process; without --follow they start it in the background
// (`diamondctl sweep resume ID --follow`, output in <workspace>/sweeps/<id>/controller.log) and return.
#include "cli.h"
#include "terminal_prompter.h"

#include "app/run/run_service.h"
#include "app/run/run_store.h"
#include "app/sweep/sweep_controller.h"
#include "app/sweep/sweep_json.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QThread>

namespace diamond::cli {

namespace {

using app::RunService;
using app::Workspace;
using app::sweep::SweepController;
using app::sweep::SweepDefinition;
using app::sweep::SweepRow;
using app::sweep::SweepStore;
using app::sweep::TrialRow;

QString tr(const char *text) { return QCoreApplication::translate("diamondctl", text); }

QString sweepUsage() {
    return tr("Usage:\n"
              "  diamondctl [--workspace DIR] sweep start FILE [--follow] [--json]\n"
              "  diamondctl [--workspace DIR] sweep list [--json]\n"
              "  diamondctl [--workspace DIR] sweep status ID [--json]\n"
              "  diamondctl [--workspace DIR] sweep best ID [--json]\n"
              "  diamondctl [--workspace DIR] sweep stop ID [--json]\n"
              "  diamondctl [--workspace DIR] sweep pause ID | resume ID [--follow] [--json]\n"
              "FILE is a diamond.sweep/1 document (docs/sweeps.md). With --follow the command is the sweep's\n"
              "controller: it prints trial events and exits when the sweep ends (0 completed, 1 stopped or failed).\n");
}

QString number(const std::optional<double> &v) { return v ? QString::number(*v, 'g', 6) : QStringLiteral("-"); }

QString compactJson(const QJsonObject &o) { return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)); }

/// Prints the trial events of a sweep controlled by this process until the sweep ends. Returns the exit code.
int control(SweepController &c, bool json, Io &io) {
    auto line = [&](const QJsonObject &o, const QString &text) {
        if (json)
            io.out << compactJson(o) << '\n';
        else
            io.out << text << '\n';
        io.out.flush();
    };
    QObject::connect(&c, &SweepController::trialStarted, [&](int index, qint64 runId, int rung, double budget) {
        line({{QStringLiteral("event"), QStringLiteral("trial_started")},
              {QStringLiteral("trial"), index},
              {QStringLiteral("run_id"), runId},
              {QStringLiteral("rung"), rung},
              {QStringLiteral("budget"), budget}},
             tr("trial %1: run %2 training to %3 (rung %4)").arg(index).arg(runId).arg(budget).arg(rung));
    });
    QObject::connect(&c, &SweepController::trialReported, [&](int index, int rung, double value) {
        line({{QStringLiteral("event"), QStringLiteral("trial_reported")},
              {QStringLiteral("trial"), index},
              {QStringLiteral("rung"), rung},
              {QStringLiteral("value"), value}},
             tr("trial %1: %2 = %3 at rung %4")
                 .arg(index)
                 .arg(c.definition().objective.describe())
                 .arg(value)
                 .arg(rung));
    });
    QObject::connect(&c, &SweepController::trialEnded, [&](int index, const QString &state) {
        line({{QStringLiteral("event"), QStringLiteral("trial_ended")},
              {QStringLiteral("trial"), index},
              {QStringLiteral("state"), state}},
             tr("trial %1: %2").arg(index).arg(state));
    });
    QObject::connect(&c, &SweepController::trialMoved,
                     [&](int index, const QString &from, const QString &to, const QString &why) {
                         line({{QStringLiteral("event"), QStringLiteral("trial_moved")},
                               {QStringLiteral("trial"), index},
                               {QStringLiteral("from"), from},
                               {QStringLiteral("to"), to},
                               {QStringLiteral("why"), why}},
                              tr("trial %1: moved from %2 to %3").arg(index).arg(from, to));
                     });
    QObject::connect(&c, &SweepController::targetChanged, [&](const QString &target, bool up, const QString &why) {
        line({{QStringLiteral("event"), up ? QStringLiteral("target_up") : QStringLiteral("target_down")},
              {QStringLiteral("target"), target},
              {QStringLiteral("why"), why}},
             up ? tr("cluster %1 answers again: trials are placed there again").arg(target)
                : tr("cluster %1 taken out (%2): its trials continue on the others").arg(target, why));
    });
    QEventLoop loop;
    QObject::connect(&c, &SweepController::finished, &loop, &QEventLoop::quit);
    if (!c.isFinished()) loop.exec();
    line({{QStringLiteral("event"), QStringLiteral("sweep_ended")},
          {QStringLiteral("sweep"), c.sweepId()},
          {QStringLiteral("state"), c.state()}},
         tr("Sweep %1 %2.").arg(c.sweepId()).arg(c.state()));
    return c.state() == QLatin1String("completed") ? kOk : kFailed;
}

/// Starts `diamondctl sweep resume ID --follow` in the background; returns its pid or 0.
qint64 spawnController(Workspace &ws, qint64 id, Io &io) {
    const QString dir = QDir(ws.path()).filePath(QStringLiteral("sweeps/%1").arg(id));
    QDir().mkpath(dir);
    QProcess p;
    p.setProgram(QCoreApplication::applicationFilePath());
    p.setArguments({QStringLiteral("--workspace"), ws.path(), QStringLiteral("sweep"), QStringLiteral("resume"),
                    QString::number(id), QStringLiteral("--follow")});
    p.setStandardInputFile(QProcess::nullDevice());
    p.setStandardOutputFile(QDir(dir).filePath(QStringLiteral("controller.log")), QIODevice::Append);
    p.setStandardErrorFile(QDir(dir).filePath(QStringLiteral("controller.log")), QIODevice::Append);
    qint64 pid = 0;
    if (!p.startDetached(&pid)) {
        io.err << tr("diamondctl: cannot start the sweep controller: %1\n").arg(p.errorString());
        return 0;
    }
    return pid;
}

bool parseId(const CommandOptions &o, qint64 *id, Io &io) {
    bool ok = false;
    *id = o.positional.size() == 1 ? o.positional.first().toLongLong(&ok) : 0;
    if (!ok || *id <= 0) {
        io.err << tr("diamondctl: expected one sweep ID\n") << sweepUsage();
        return false;
    }
    return true;
}

int background(Workspace &ws, qint64 id, bool json, Io &io) {
    const qint64 pid = spawnController(ws, id, io);
    if (pid == 0) return kFailed;
    if (json)
        printJson(io, {{QStringLiteral("sweep"), id}, {QStringLiteral("controller_pid"), pid}});
    else
        io.out << tr("Sweep %1 is running in the background (controller process %2); see 'diamondctl sweep status "
                     "%1'.\n")
                      .arg(id)
                      .arg(pid);
    return kOk;
}

} // namespace

int runSweep(const QStringList &args, const QString &workspaceOption, Io &io) {
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.contains(QLatin1String("--help"))) {
        (args.isEmpty() ? io.err : io.out) << sweepUsage();
        return args.isEmpty() ? kUsage : kOk;
    }
    const QString sub = args.first();
    static const QStringList known{QStringLiteral("start"), QStringLiteral("list"), QStringLiteral("status"),
                                   QStringLiteral("best"),  QStringLiteral("stop"), QStringLiteral("pause"),
                                   QStringLiteral("resume")};
    if (!known.contains(sub)) {
        io.err << tr("diamondctl: unknown sweep command '%1'\n").arg(sub) << sweepUsage();
        return kUsage;
    }
    CommandOptions o;
    if (!parseOptions(args.mid(1), {}, {QStringLiteral("--follow")}, &o, io)) return kUsage;
    const bool follow = o.flags.contains(QStringLiteral("--follow"));

    if (sub == QLatin1String("start") && o.positional.size() != 1) {
        io.err << tr("diamondctl: sweep start needs one FILE\n") << sweepUsage();
        return kUsage;
    }
    std::optional<SweepDefinition> def;
    if (sub == QLatin1String("start")) {
        QString error;
        def = SweepDefinition::fromFile(o.positional.first(), &error);
        if (!def) {
            io.err << tr("diamondctl: %1: %2\n").arg(o.positional.first(), error);
            return kFailed;
        }
    }
    Workspace ws;
    if (!openWorkspace(ws, workspaceOption, io)) return kFailed;
    SweepStore store(ws);
    TerminalPrompter prompter(io.err);
    RunService service(ws);
    service.clusterLinks()->setPrompter(&prompter);

    if (sub == QLatin1String("start")) {
        if (!follow) {
            const auto id = service.createSweep(*def);
            if (!id) return io.err << tr("diamondctl: %1\n").arg(service.errorString()), kFailed;
            return background(ws, *id, o.json, io);
        }
        SweepController *c = service.startSweep(*def);
        if (!c) return io.err << tr("diamondctl: %1\n").arg(service.errorString()), kFailed;
        if (!o.json)
            io.out << tr("Sweep %1 (\"%2\", %3) started.\n").arg(c->sweepId()).arg(def->name, def->algorithm.name);
        return control(*c, o.json, io);
    }
    if (sub == QLatin1String("list")) {
        const QList<SweepRow> sweeps = store.sweeps();
        if (o.json) {
            QJsonArray array;
            for (const SweepRow &s : sweeps)
                array.append(app::sweep::sweepSummaryJson(s, int(store.trials(s.id).size())));
            printJson(io, {{QStringLiteral("sweeps"), array}});
            return kOk;
        }
        for (const SweepRow &s : sweeps)
            io.out << QString::number(s.id).rightJustified(4) << "  " << s.state.leftJustified(10) << "  "
                   << s.strategy.leftJustified(9) << "  " << s.name << '\n';
        return kOk;
    }

    qint64 id = 0;
    if (!parseId(o, &id, io)) return kUsage;
    auto row = store.sweep(id);
    if (!row) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;

    if (sub == QLatin1String("status")) {
        const QList<TrialRow> trials = store.trials(id);
        if (o.json) {
            printJson(io, app::sweep::sweepJson(*row, trials));
            return kOk;
        }
        const qint64 pid = SweepController::livePid(*row);
        io.out << tr("Sweep %1 \"%2\": %3, %4, objective %5\n")
                      .arg(id)
                      .arg(row->name, row->state, row->strategy, row->objective);
        io.out << (pid > 0 ? tr("Controller: process %1\n").arg(pid) : tr("Controller: none\n"));
        io.out << tr("trial  run   state      rung  budget  objective  params\n");
        for (const TrialRow &t : trials)
            io.out << QString::number(t.index).rightJustified(5) << "  " << QString::number(t.runId).leftJustified(4)
                   << "  " << t.state.leftJustified(9) << "  " << QString::number(t.rung).rightJustified(4) << "  "
                   << QString::number(t.budget).rightJustified(6) << "  " << number(t.objective).rightJustified(9)
                   << "  " << compactJson(t.params)
                   << (t.info.contains(QStringLiteral("target"))
                           ? QStringLiteral("  [%1]").arg(t.info.value(QStringLiteral("target")).toString())
                           : QString())
                   << '\n';
        return kOk;
    }
    if (sub == QLatin1String("best")) {
        SweepController c(ws); // read-only: the algorithm's view of the stored trials
        if (!c.load(id)) return io.err << tr("diamondctl: %1\n").arg(c.errorString()), kFailed;
        const auto best = c.algorithm()->bestTrial();
        if (!best) return io.err << tr("diamondctl: sweep %1 has no trial with a result yet\n").arg(id), kFailed;
        for (const TrialRow &t : store.trials(id)) {
            if (t.index != *best) continue;
            if (o.json) {
                QJsonObject doc = app::sweep::trialJson(t);
                doc.insert(QStringLiteral("sweep"), id);
                doc.insert(QStringLiteral("objective_name"), row->objective);
                printJson(io, doc);
            } else {
                io.out << tr("Best trial of sweep %1: trial %2 (run %3), %4 = %5 at budget %6\nParams: %7\n")
                              .arg(id)
                              .arg(t.index)
                              .arg(t.runId)
                              .arg(row->objective, number(t.objective))
                              .arg(t.budget)
                              .arg(compactJson(t.params));
            }
            return kOk;
        }
        return kFailed;
    }
    if (sub == QLatin1String("pause")) {
        if (!service.pauseSweep(id)) return io.err << tr("diamondctl: %1\n").arg(service.errorString()), kFailed;
        io.out << tr("Sweep %1 paused: running trials finish their rung, nothing new starts.\n").arg(id);
        return kOk;
    }
    if (sub == QLatin1String("stop")) {
        if (!service.stopSweep(id)) return io.err << tr("diamondctl: %1\n").arg(service.errorString()), kFailed;
        // Stopped by its live controller (here or in another process): wait for the state.
        QDeadlineTimer deadline(60000);
        while (!deadline.hasExpired()) {
            row = store.sweep(id);
            if (row && row->state == QLatin1String("stopped")) break;
            QCoreApplication::processEvents(QEventLoop::AllEvents, 100);
            QThread::msleep(50);
        }
        row = store.sweep(id);
        if (!row || row->state != QLatin1String("stopped"))
            return io.err << tr("diamondctl: sweep %1 did not stop in time\n").arg(id), kFailed;
        if (o.json)
            printJson(io, app::sweep::sweepJson(*row, store.trials(id)));
        else
            io.out << tr("Stopped sweep %1.\n").arg(id);
        return kOk;
    }
    // resume
    if (const qint64 pid = SweepController::livePid(*row); pid > 0) {
        if (!service.continueSweep(id)) return io.err << tr("diamondctl: %1\n").arg(service.errorString()), kFailed;
        io.out << tr("Sweep %1 continues (controller process %2).\n").arg(id).arg(pid);
        return kOk;
    }
    if (row->state == QLatin1String("completed") || row->state == QLatin1String("stopped") ||
        row->state == QLatin1String("failed"))
        return io.err << tr("diamondctl: sweep %1 is %2 and cannot be resumed\n").arg(id).arg(row->state), kFailed;
    if (!follow) {
        if (row->state == QLatin1String("paused")) store.setSweepState(id, QStringLiteral("running"));
        return background(ws, id, o.json, io);
    }
    if (!service.continueSweep(id)) return io.err << tr("diamondctl: %1\n").arg(service.errorString()), kFailed;
    return control(*service.sweepController(id), o.json, io);
}

} // namespace diamond::cli
