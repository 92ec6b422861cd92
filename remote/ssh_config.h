// The subset of the OpenSSH client configuration (ssh_config(5)) Diamond honours, so that the host aliases
// users already have in ~/.ssh/config work: Host patterns (* ? and !negation, several per line), HostName, User,
// Port, IdentityFile (~ and %h %u %r %p %n %d %% expanded), ProxyJump, IdentitiesOnly, ServerAliveInterval,
// UserKnownHostsFile. As in OpenSSH the first value obtained for an option wins; every matching IdentityFile is
// kept, in order. `Match` blocks and `Include` are not supported: their lines are skipped and reported in
// warnings(), never guessed.
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace diamond::remote {

/// The settings for one host as OpenSSH would apply them.
struct SshHostConfig {
    QString alias;                  ///< the name asked for (what `ssh NAME` was given)
    QString hostName;               ///< HostName (with %h expanded), or the alias
    QString user;                   ///< User; empty when neither the config nor the caller set one
    int port = 22;                  ///< Port
    QStringList identityFiles;      ///< IdentityFile entries, expanded, in file order
    bool identitiesOnly = false;    ///< IdentitiesOnly yes: offer only identityFiles, not every agent key
    QString proxyJump;              ///< ProxyJump as written ("[user@]host[:port][,...]"); empty for none
    int serverAliveIntervalSec = 0; ///< ServerAliveInterval; 0: off
    QString userKnownHostsFile;     ///< UserKnownHostsFile (first entry, expanded); empty when not set
};

class SshConfig {
public:
    /// ~/.ssh/config
    static QString defaultPath();

    /// Reads `path`. A missing file is no error (an empty config); unreadable or malformed ones are, with the
    /// file name and line number in *error.
    bool load(const QString &path, QString *error);
    /// Parses config text; `sourceName` names it in error messages.
    bool parse(const QByteArray &text, const QString &sourceName, QString *error);

    /// The settings for `alias`. `localUser` is the %u / default User; empty: the current user.
    SshHostConfig resolve(const QString &alias, const QString &localUser = {}) const;

    /// Host names written without wildcards or negation, in file order (suggestions for a host field).
    QStringList hostAliases() const;
    /// Lines that were skipped (unsupported keywords such as Match or Include), "file:line: text".
    QStringList warnings() const { return m_warnings; }

    /// Whether `host` matches one OpenSSH pattern (* and ?, no negation), case-insensitively.
    static bool matchPattern(const QString &host, const QString &pattern);
    /// Whether `host` matches a Host line's pattern list: some positive pattern matches and no !pattern does.
    static bool matchPatternList(const QString &host, const QStringList &patterns);

private:
    struct Option {
        QString key;      ///< lower-case keyword
        QString value;    ///< the arguments joined by one space
        QString firstArg; ///< the first argument (quotes removed)
    };
    struct Block {
        QStringList patterns; ///< empty: options before the first Host line (apply to every host)
        std::vector<Option> options;
    };
    std::vector<Block> m_blocks;
    QStringList m_warnings;
};

} // namespace diamond::remote
