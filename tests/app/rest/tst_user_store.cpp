// UserStore (app/rest/user_store.h) on a real workspace file: tokens are returned once and stored only as their
// SHA-256, renewing replaces a token, removing revokes it, names and quotas are checked; the runs' owner column
// and the active-run count the quota uses.
#include "app/rest/user_store.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"

#include <QCryptographicHash>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace diamond::app;
using namespace diamond::app::rest;

class TestUserStore : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    Workspace ws_;

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(ws_.create(dir_.filePath(QStringLiteral("ws"))), qPrintable(ws_.errorString()));
    }

    void tokensAreShownOnceAndStoredHashed() {
        UserStore store(ws_);
        UserStore::NewUser n;
        n.name = QStringLiteral("ada");
        n.role = Role::Student;
        const auto token = store.add(n);
        QVERIFY2(token, qPrintable(store.errorString()));
        QCOMPARE(token->size(), 64);
        // The file holds the hash, never the token.
        QSqlQuery q(ws_.database());
        QVERIFY(q.exec(QStringLiteral("SELECT token_sha256 FROM users WHERE name = 'ada'")) && q.next());
        QCOMPARE(q.value(0).toString(),
                 QString::fromLatin1(QCryptographicHash::hash(token->toLatin1(), QCryptographicHash::Sha256).toHex()));
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM users WHERE token_sha256 = '%1'").arg(*token)) && q.next());
        QCOMPARE(q.value(0).toInt(), 0);

        const auto user = store.userForToken(*token);
        QVERIFY(user);
        QCOMPARE(user->name, QStringLiteral("ada"));
        QCOMPARE(user->role, Role::Student);
        QCOMPARE(user->maxActiveRuns, 2); // the documented default
        QVERIFY(!user->canPublish);
        // A second user gets another token; a token of another length or alphabet is no one's.
        n.name = QStringLiteral("grace");
        const auto other = store.add(n);
        QVERIFY(other && *other != *token);
        QVERIFY(!store.userForToken(token->left(63)));
        QVERIFY(!store.userForToken(token->toUpper()));
        QVERIFY(!store.userForToken(QString()));
        QVERIFY(!store.userForToken(QString(64, QLatin1Char('0'))));
    }

    void renewingReplacesTheTokenAndRemovingRevokesIt() {
        UserStore store(ws_);
        UserStore::NewUser n;
        n.name = QStringLiteral("turing");
        n.role = Role::Instructor;
        const auto first = store.add(n);
        QVERIFY(first);
        const auto second = store.renewToken(QStringLiteral("turing"));
        QVERIFY2(second, qPrintable(store.errorString()));
        QVERIFY(*second != *first);
        QVERIFY(!store.userForToken(*first));
        QCOMPARE(store.userForToken(*second)->role, Role::Instructor);
        QVERIFY(store.remove(QStringLiteral("turing")));
        QVERIFY(!store.userForToken(*second));
        QVERIFY(!store.remove(QStringLiteral("turing")));
        QVERIFY(store.errorString().contains(QStringLiteral("turing")));
        QVERIFY(!store.renewToken(QStringLiteral("nobody")));
    }

    void namesRolesAndQuotasAreChecked() {
        UserStore store(ws_);
        UserStore::NewUser n;
        for (const QString &bad : {QString(), QStringLiteral("-dash"), QStringLiteral("a b"), QStringLiteral("../x"),
                                   QString(65, QLatin1Char('a')), QStringLiteral("owner")}) {
            n.name = bad;
            QVERIFY2(!store.add(n), qPrintable(bad));
            QVERIFY(!store.errorString().isEmpty());
        }
        n.name = QStringLiteral("ada"); // taken
        QVERIFY(!store.add(n));
        QVERIFY(store.errorString().contains(QStringLiteral("exists")));
        n.name = QStringLiteral("linus");
        n.maxActiveRuns = -1;
        QVERIFY(!store.add(n));
        n.maxActiveRuns = 0;
        n.canPublish = true;
        QVERIFY(store.add(n));
        QVERIFY(!store.user(QStringLiteral("linus"))->cpuHourQuota); // no limit unless set
        User changed = *store.user(QStringLiteral("linus"));
        changed.role = Role::Admin;
        changed.canPublish = false;
        changed.maxActiveRuns = 5;
        changed.cpuHourQuota = 12.5;
        QVERIFY(store.update(changed));
        const auto u = store.user(QStringLiteral("linus"));
        QCOMPARE(u->role, Role::Admin);
        QCOMPARE(u->maxActiveRuns, 5);
        QVERIFY(!u->canPublish);
        QCOMPARE(u->cpuHourQuota, std::optional<double>(12.5));
        QVERIFY(!u->gpuHourQuota);
        QCOMPARE(userJson(*u).value(QStringLiteral("cpu_hours_quota")).toDouble(), 12.5);
        QVERIFY(userJson(*u).value(QStringLiteral("gpu_hours_quota")).isNull());
        for (double bad : {-1.0, 2e6, std::nan("")}) {
            changed.gpuHourQuota = bad;
            QVERIFY2(!store.update(changed), qPrintable(QString::number(bad)));
            QVERIFY(store.errorString().contains(QStringLiteral("GPU-hour")));
        }
        QVERIFY(!store.user(QStringLiteral("linus"))->gpuHourQuota); // nothing written
        changed.gpuHourQuota.reset();
        changed.name = QStringLiteral("nobody");
        QVERIFY(!store.update(changed));
        QStringList names;
        for (const User &user : store.users())
            names << user.name;
        QCOMPARE(names, (QStringList{QStringLiteral("ada"), QStringLiteral("grace"), QStringLiteral("linus")}));
        QCOMPARE(roleFromName(QStringLiteral("instructor")), std::optional<Role>(Role::Instructor));
        QVERIFY(!roleFromName(QStringLiteral("Admin")));
        QVERIFY(!userJson(*u).contains(QStringLiteral("token")));
    }

    void activeRunsAreCountedPerOwner() {
        RunStore runs(ws_);
        const QJsonObject spec{{QStringLiteral("name"), QStringLiteral("net")}};
        QList<qint64> ids;
        for (int i = 0; i < 3; ++i) {
            const auto r = runs.createRunWithSpec(QStringLiteral("P"), spec, {}, {}, {});
            QVERIFY2(r, qPrintable(runs.errorString()));
            ids << r->id;
        }
        QVERIFY(runs.setOwner(ids[0], QStringLiteral("ada")));
        QVERIFY(runs.setOwner(ids[1], QStringLiteral("ada")));
        QCOMPARE(runs.run(ids[0])->owner, QStringLiteral("ada"));
        QCOMPARE(runs.run(ids[2])->owner, QString());
        QCOMPARE(runs.activeRunCount(QStringLiteral("ada")), 0); // drafts do not count
        QVERIFY(runs.transition(ids[0], RunState::Queued));
        QVERIFY(runs.transition(ids[1], RunState::Queued));
        QVERIFY(runs.transition(ids[1], RunState::Running));
        QVERIFY(runs.transition(ids[2], RunState::Queued)); // the owner's run
        QCOMPARE(runs.activeRunCount(QStringLiteral("ada")), 2);
        QVERIFY(runs.transition(ids[1], RunState::Finished, {}, 0));
        QCOMPARE(runs.activeRunCount(QStringLiteral("ada")), 1);
        QCOMPARE(runs.activeRunCount(QStringLiteral("grace")), 0);
        QVERIFY(!runs.setOwner(99999, QStringLiteral("ada")));
    }
};

QTEST_GUILESS_MAIN(TestUserStore)
#include "tst_user_store.moc"
