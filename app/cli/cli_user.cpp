// diamondctl user add|list|update|token|remove: the users of a class server (`diamondctl serve`; app/rest/user_store.h,
// docs/rest-api.md "Users and roles"). Errors: "diamondctl: ..." on stderr, exit 1; 2 for bad usage; --json prints
// one JSON document. A token is printed once, by add and token; only its SHA-256 is stored.
#include "cli.h"

#include "app/rest/user_store.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace diamond::cli {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamondctl", text); }

using app::rest::Role;
using app::rest::User;
using app::rest::UserStore;

QString userUsage() {
    return tr("Usage:\n"
              "  diamondctl user add NAME --role student|instructor|admin [--publish] [--max-runs N] [--json]\n"
              "                               add a user of the class server; prints its token once\n"
              "                               (students: --publish lets them publish to the gallery, --max-runs\n"
              "                               is how many runs they may have queued or running, default 2)\n"
              "  diamondctl user list [--json]\n"
              "  diamondctl user update NAME [--role R] [--publish|--no-publish] [--max-runs N] [--json]\n"
              "  diamondctl user token NAME [--json]   a new token; the old one stops working at once\n"
              "  diamondctl user remove NAME [--json]  the user's token stops working; its runs stay\n");
}

/// --role and --max-runs of `o` over *role and *runs; false with a message on a bad value.
bool readLimits(const CommandOptions &o, Role *role, int *runs, Io &io) {
    if (o.values.contains(QStringLiteral("--role"))) {
        const auto r = app::rest::roleFromName(o.values.value(QStringLiteral("--role")));
        if (!r) {
            io.err << tr("diamondctl: --role must be student, instructor or admin\n");
            return false;
        }
        *role = *r;
    }
    if (o.values.contains(QStringLiteral("--max-runs"))) {
        bool ok = false;
        const int n = o.values.value(QStringLiteral("--max-runs")).toInt(&ok);
        if (!ok || n < 0 || n > 10000) {
            io.err << tr("diamondctl: --max-runs must be a whole number from 0 to 10000\n");
            return false;
        }
        *runs = n;
    }
    return true;
}

void printUser(Io &io, const User &u) {
    io.out << tr("%1  %2, %3, at most %4 runs at once; token issued %5\n")
                  .arg(u.name, app::rest::roleName(u.role), u.canPublish ? tr("may publish") : tr("does not publish"))
                  .arg(u.maxActiveRuns)
                  .arg(u.tokenIssuedAt);
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
    if (!parseOptions(args.mid(1), {QStringLiteral("--role"), QStringLiteral("--max-runs")},
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
        if (!readLimits(o, &n.role, &n.maxActiveRuns, io)) return kUsage;
        const auto token = users.add(n);
        if (!token) return failed();
        return printToken(io, o, *users.user(name), *token);
    }
    if (sub == QLatin1String("list")) {
        const QList<User> all = users.users();
        if (!users.errorString().isEmpty()) return failed();
        if (o.json) {
            QJsonArray a;
            for (const User &u : all)
                a.append(app::rest::userJson(u));
            printJson(io, {{QStringLiteral("users"), a}});
        } else if (all.isEmpty()) {
            io.out << tr("No users; only the workspace's own token opens the server. Add one with: diamondctl user "
                         "add NAME --role student\n");
        } else {
            for (const User &u : all)
                printUser(io, u);
        }
        return kOk;
    }
    if (sub == QLatin1String("update")) {
        auto u = users.user(name);
        if (!u) return failed();
        if (!readLimits(o, &u->role, &u->maxActiveRuns, io)) return kUsage;
        if (o.flags.contains(QStringLiteral("--publish"))) u->canPublish = true;
        if (o.flags.contains(QStringLiteral("--no-publish"))) u->canPublish = false;
        if (!users.update(name, u->role, u->canPublish, u->maxActiveRuns)) return failed();
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
