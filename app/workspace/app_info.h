// Application-wide identity: names used for QSettings, the data directory and --version.
#pragma once

#include <QString>

namespace diamond::app {

inline constexpr const char *kOrganizationName = "Diamond";
inline constexpr const char *kApplicationName = "Diamond";

/// "0.1.0"
QString versionString();
/// Multi-line report of the versions of Diamond and its main libraries.
QString versionReport(const QString &executableName);
/// Sets organisation/application name and version on the running Q(Core)Application.
void setApplicationIdentity();

} // namespace diamond::app
