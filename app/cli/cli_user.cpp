// diamondctl user add|list|update|token|remove: the users of a class server (`diamondctl serve`; app/rest/user_store.h,
// docs/rest-api.md "Users and roles"). Errors: "diamondctl: ..." on stderr, exit 1; 2 for bad usage; --json prints
// one JSON document. A token is printed once, by add and token; only its SHA-256 is stored.
#include "cli.h"

#include "app/rest/user_store.h"
#include "app/run/compute_usage.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>

namespace diamond::cli {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamondctl", text); }

using app::rest::Role;
using app::rest::User;
using app::rest::UserStore;

QString userUsage() {
    return tr("Usage:\n"
              "  diamondctl user add NAME --role student|instructor|admin [--publish] [--max-runs N]\n"
              "                      [--cpu-hours H] [--gpu-hours H] [--json]\n"
              "                               add a user of the class server; prints its token once\n"
              "                               (students: --publish lets them publish to the gallery, --max-runs\n"
              "                               is how many runs they may have queued or running, default 2;\n"
              "                               --cpu-hours/--gpu-hours cap the compute their runs use in all,\n"
              "                               default: no limit, 'none' removes a limit)\n"
              "  diamondctl user list [--json]   every user with the compute its runs used\n"
              "  diamondctl user update NAME [--role R] [--publish|--no-publish] [--max-runs N]\n"
              "                      [--cpu-hours H|none] [--gpu-hours H|none] [--json]\n"
              "  diamondctl user token NAME [--json]   a new token; the old one stops working at once\n"
              "  diamondctl user remove NAME [--json]  the user's token stops working; its runs stay\n");
}

/// --role, --max-runs, --cpu-hours and --gpu-hours of `o` over *u; false with a message on a bad value.
bool readLimits(const CommandOptions &o, User *u, Io &io) {
    if (o.values.contains(QStringLiteral("--role"))) {
        const auto r = app::rest::roleFromName(o.values.value(QStringLiteral("--role")));
        if (!r) {
            io.err << tr("diamondctl: --role must be student, instructor or admin\n");
            return false;
        }
        u->role = *r;
    }
    if (o.values.contains(QStringLiteral("--max-runs"))) {
        bool ok = false;
        const int n = o.values.value(QStringLiteral("--max-runs")).toInt(&ok);
        if (!ok || n < 0 || n > 10000) {
            io.err << tr("diamondctl: --max-runs must be a whole number from 0 to 10000\n");
            return false;
        }
        u->maxActiveRuns = n;
    }
    for (const auto &[option, quota] : {std::pair(QStringLiteral("--cpu-hours"), &u->cpuHourQuota),
                                        std::pair(QStringLiteral("--gpu-hours"), &u->gpuHourQuota)}) {
        if (!o.values.contains(option)) continue;
        const QString text = o.values.value(option);
        if (text == QLatin1String("none")) {
            *quota = std::nullopt;
            continue;
        }
        bool ok = false;
        const double hours = text.toDouble(&ok);
        if (!ok || !(hours >= 0 && hours <= 1e6)) {
            io.err << tr("diamondctl: %1 must be a number of hours from 0 to 1000000, or none\n").arg(option);
            return false;
        }
        *quota = hours;
    }
    return true;
}

QString hoursText(double used, std::optional<double> quota, const char *kind) {
    return quota ? tr("%1 of %2 %3 hours").arg(used, 0, 'f', 2).arg(*quota, 0, 'g', 6).arg(QLatin1String(kind))
                 : tr("%1 %2 hours").arg(used, 0, 'f', 2).arg(QLatin1String(kind));
}

void printUser(Io &io, const User &u, const app::ComputeUsage *usage = nullptr) {
    io.out << tr("%1  %2, %3, at most %4 runs at once; token issued %5\n")
                  .arg(u.name, app::rest::roleName(u.role), u.canPublish ? tr("may publish") : tr("does not publish"))
                  .arg(u.maxActiveRuns)
                  .arg(u.tokenIssuedAt);
    if (usage)
        io.out << tr("    used %1, %2\n")
                      .arg(hoursText(usage->cpuHours, u.cpuHourQuota, "CPU"),
                           hoursText(usage->gpuHours, u.gpuHourQuota, "GPU"));
    else if (u.cpuHourQuota || u.gpuHourQuota)
        io.out << tr("    quotas: %1 CPU hours, %2 GPU hours\n")
                      .arg(u.cpuHourQuota ? QString::number(*u.cpuHourQuota) : tr("no limit"),
                           u.gpuHourQuota ? QString::number(*u.gpuHourQuota) : tr("no limit"));
}

int printToken(Io &io, const CommandOptions &o, const User &u, const QString &token) {
    if (o.json) {
        QJsonObject json = app::rest::userJson(u);
        json.insert(QStringLiteral("token"), token);
        printJson(io, json);
        return kOk;
    }
    printUser(io, u);
    io.out << tr("Token (shown only now; give it to %1 and keep it secret):\n%2\n").arg(u.name, token);
    return kOk;
}

} // namespace

int runUser(const QStringList &args, const QString &workspaceOption, Io &io) {
    if (args.isEmpty() || args.first() == QLatin1String("--help")) {
        (args.isEmpty() ? io.err : io.out) << userUsage();
        return args.isEmpty() ? kUsage : kOk;
    }
    const QString sub = args.first();
    CommandOptions o;
    if (!parseOptions(args.mid(1),
                      {QStringLiteral("--role"), QStringLiteral("--max-runs"), QStringLiteral("--cpu-hours"),
                       QStringLiteral("--gpu-hours")},
                      {QStringLiteral("--publish"), QStringLiteral("--no-publish")}, &o, io))
        return kUsage;
    const QStringList known{QStringLiteral("add"), QStringLiteral("list"), QStringLiteral("update"),
                            QStringLiteral("token"), QStringLiteral("remove")};
    const bool needsName = sub != QLatin1String("list");
    if (!known.contains(sub) || needsName != (o.positional.size() == 1) || (!needsName && !o.positional.isEmpty()))
        return io.err << userUsage(), kUsage;
    app::Workspace ws;
    if (!openWorkspace(ws, workspaceOption, io)) return kFailed;
    UserStore users(ws);
    const QString name = o.positional.value(0);
    auto failed = [&] { return io.err << tr("diamondctl: %1\n").arg(users.errorString()), kFailed; };

    if (sub == QLatin1String("add")) {
        if (!o.values.contains(QStringLiteral("--role")))
            return io.err << tr("diamondctl: user add needs --role student|instructor|admin\n"), kUsage;
        UserStore::NewUser n;
        n.name = name;
        n.canPublish = o.flags.contains(QStringLiteral("--publish"));
        User limits;
        if (!readLimits(o, &limits, io)) return kUsage;
        n.role = limits.role;
        n.maxActiveRuns = limits.maxActiveRuns;
        n.cpuHourQuota = limits.cpuHourQuota;
        n.gpuHourQuota = limits.gpuHourQuota;
        const auto token = users.add(n);
        if (!token) return failed();
        return printToken(io, o, *users.user(name), *token);
    }
    if (sub == QLatin1String("list")) {
        const QList<User> all = users.users();
        if (!users.errorString().isEmpty()) return failed();
        app::RunStore runs(ws);
        const QDateTime now = QDateTime::currentDateTimeUtc();
        if (o.json) {
            QJsonArray a;
            for (const User &u : all) {
                QJsonObject json = app::rest::userJson(u);
                json.insert(QStringLiteral("usage"), app::computeUsageJson(app::ownerComputeUsage(runs, u.name, now)));
                a.append(json);
            }
            printJson(io, {{QStringLiteral("users"), a}});
        } else if (all.isEmpty()) {
            io.out << tr("No users; only the workspace's own token opens the server. Add one with: diamondctl user "
                         "add NAME --role student\n");
        } else {
            for (const User &u : all) {
                const app::ComputeUsage usage = app::ownerComputeUsage(runs, u.name, now);
                printUser(io, u, &usage);
            }
        }
        return kOk;
    }
    if (sub == QLatin1String("update")) {
        auto u = users.user(name);
        if (!u) return failed();
        if (!readLimits(o, &*u, io)) return kUsage;
        if (o.flags.contains(QStringLiteral("--publish"))) u->canPublish = true;
        if (o.flags.contains(QStringLiteral("--no-publish"))) u->canPublish = false;
        if (!users.update(*u)) return failed();
        if (o.json)
            printJson(io, app::rest::userJson(*users.user(name)));
        else
            printUser(io, *users.user(name));
        return kOk;
    }
    if (sub == QLatin1String("token")) {
        const auto token = users.renewToken(name);
        if (!token) return failed();
        return printToken(io, o, *users.user(name), *token);
    }
    if (!users.remove(name)) return failed();
    if (o.json)
        printJson(io, {{QStringLiteral("removed"), name}});
    else
        io.out << tr("Removed user %1; its token no longer opens the server.\n").arg(name);
    return kOk;
}

} // namespace diamond::cli
