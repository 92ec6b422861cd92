#include "app/workspace/app_info.h"

#include "diamond/version.h"
#include "remote/remote_info.h"

#include <QCoreApplication>
#include <QSqlDatabase>
#include <QtGlobal>

#include <sqlite3.h>

namespace diamond::app {

QString versionString() { return QStringLiteral(DIAMOND_VERSION); }

QString versionReport(const QString &executableName) {
    return QStringLiteral("%1 %2\nQt %3, libssh %4, SQLite %5\n")
        .arg(executableName, versionString(), QString::fromLatin1(qVersion()), remote::libsshVersion(),
             QString::fromLatin1(sqlite3_libversion()));
}

void setApplicationIdentity() {
    QCoreApplication::setOrganizationName(QString::fromLatin1(kOrganizationName));
    QCoreApplication::setApplicationName(QString::fromLatin1(kApplicationName));
    QCoreApplication::setApplicationVersion(versionString());
}

} // namespace diamond::app
