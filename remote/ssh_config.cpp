#include "remote/ssh_config.h"

#include <QDir>
#include <QFile>

#include <pwd.h>
#include <unistd.h>

namespace diamond::remote {

namespace {

QString currentUserName() {
    if (const passwd *pw = getpwuid(getuid())) return QString::fromLocal8Bit(pw->pw_name);
    return qEnvironmentVariable("USER");
}

/// Splits a config line into the keyword and its arguments: "Key value", "Key=value" or "Key = value";
/// arguments are separated by whitespace, "double quotes" group.
bool splitLine(const QString &line, QString *key, QStringList *args, QString *error) {
    int i = 0;
    while (i < line.size() && !line.at(i).isSpace() && line.at(i) != QLatin1Char('='))
        ++i;
    *key = line.left(i).toLower();
    while (i < line.size() && line.at(i).isSpace())
        ++i;
    if (i < line.size() && line.at(i) == QLatin1Char('=')) ++i;
    args->clear();
    QString current;
    bool inQuotes = false, hasWord = false;
    for (; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (inQuotes) {
            if (c == QLatin1Char('"'))
                inQuotes = false;
            else
                current += c;
        } else if (c == QLatin1Char('"')) {
            inQuotes = true;
            hasWord = true;
        } else if (c.isSpace()) {
            if (hasWord) args->append(current);
            current.clear();
            hasWord = false;
        } else {
            current += c;
            hasWord = true;
        }
    }
    if (inQuotes) {
        *error = QStringLiteral("unterminated quote");
        return false;
    }
    if (hasWord) args->append(current);
    return true;
}

/// OpenSSH's match_pattern(): '*' any run of characters, '?' one character, case-insensitive.
bool globMatch(const QString &s, int si, const QString &p, int pi) {
    while (pi < p.size()) {
        const QChar c = p.at(pi);
        if (c == QLatin1Char('*')) {
            while (pi < p.size() && p.at(pi) == QLatin1Char('*'))
                ++pi;
            if (pi == p.size()) return true;
            for (int k = si; k <= s.size(); ++k)
                if (globMatch(s, k, p, pi)) return true;
            return false;
        }
        if (si >= s.size()) return false;
        if (c != QLatin1Char('?') && c.toLower() != s.at(si).toLower()) return false;
        ++si;
        ++pi;
    }
    return si == s.size();
}

bool parseYesNo(const QString &value, bool *ok) {
    const QString v = value.toLower();
    *ok = v == QLatin1String("yes") || v == QLatin1String("no") || v == QLatin1String("true") ||
          v == QLatin1String("false");
    return v == QLatin1String("yes") || v == QLatin1String("true");
}

} // namespace

QString SshConfig::defaultPath() { return QDir::home().filePath(QStringLiteral(".ssh/config")); }

bool SshConfig::load(const QString &path, QString *error) {
    QFile file(path);
    if (!file.exists()) {
        m_blocks.clear();
        m_warnings.clear();
        return true;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot read: %2").arg(path, file.errorString());
        return false;
    }
    return parse(file.readAll(), path, error);
}

bool SshConfig::parse(const QByteArray &text, const QString &sourceName, QString *error) {
    static const QStringList known = {QStringLiteral("hostname"),
                                      QStringLiteral("user"),
                                      QStringLiteral("port"),
                                      QStringLiteral("identityfile"),
                                      QStringLiteral("identitiesonly"),
                                      QStringLiteral("proxyjump"),
                                      QStringLiteral("serveraliveinterval"),
                                      QStringLiteral("userknownhostsfile")};
    std::vector<Block> blocks(1);
    QStringList warnings;
    bool skipping = false; // inside a Match block
    const QList<QByteArray> lines = text.split('\n');
    for (int n = 0; n < lines.size(); ++n) {
        const QString where = QStringLiteral("%1:%2").arg(sourceName).arg(n + 1);
        const QString line = QString::fromUtf8(lines.at(n)).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
        QString key, splitError;
        QStringList words;
        if (!splitLine(line, &key, &words, &splitError)) {
            *error = QStringLiteral("%1: %2").arg(where, splitError);
            return false;
        }
        if (key == QLatin1String("host")) {
            if (words.isEmpty()) {
                *error = QStringLiteral("%1: Host needs at least one pattern").arg(where);
                return false;
            }
            blocks.push_back(Block{words, {}});
            skipping = false;
            continue;
        }
        if (key == QLatin1String("match")) {
            warnings << QStringLiteral("%1: Match blocks are not supported; skipped: %2").arg(where, line);
            skipping = true;
            continue;
        }
        if (skipping) continue;
        if (!known.contains(key)) {
            if (key == QLatin1String("include"))
                warnings << QStringLiteral("%1: Include is not supported; skipped: %2").arg(where, line);
            continue; // other OpenSSH options do not concern Diamond
        }
        if (words.isEmpty()) {
            *error = QStringLiteral("%1: %2 needs a value").arg(where, key);
            return false;
        }
        const QString value = words.join(QLatin1Char(' '));
        bool ok = true;
        if (key == QLatin1String("port")) {
            const int port = value.toInt(&ok);
            ok = ok && port > 0 && port < 65536;
        } else if (key == QLatin1String("serveraliveinterval")) {
            const int seconds = value.toInt(&ok);
            ok = ok && seconds >= 0;
        } else if (key == QLatin1String("identitiesonly")) {
            parseYesNo(value, &ok);
        }
        if (!ok) {
            *error = QStringLiteral("%1: invalid value for %2: '%3'").arg(where, key, value);
            return false;
        }
        blocks.back().options.push_back(Option{key, value, words.first()});
    }
    m_blocks = std::move(blocks);
    m_warnings = warnings;
    return true;
}

bool SshConfig::matchPattern(const QString &host, const QString &pattern) { return globMatch(host, 0, pattern, 0); }

bool SshConfig::matchPatternList(const QString &host, const QStringList &patterns) {
    bool positive = false;
    for (const QString &p : patterns) {
        if (p.startsWith(QLatin1Char('!'))) {
            if (matchPattern(host, p.mid(1))) return false;
        } else if (matchPattern(host, p)) {
            positive = true;
        }
    }
    return positive;
}

SshHostConfig SshConfig::resolve(const QString &alias, const QString &localUser) const {
    const QString local = localUser.isEmpty() ? currentUserName() : localUser;
    QString hostName, user, port, proxyJump, identitiesOnly, alive, knownHosts;
    QStringList identities;
    auto setFirst = [](QString &slot, const QString &value) {
        if (slot.isNull()) slot = value;
    };
    for (const Block &block : m_blocks) {
        if (!block.patterns.isEmpty() && !matchPatternList(alias, block.patterns)) continue;
        for (const Option &o : block.options) {
            if (o.key == QLatin1String("hostname"))
                setFirst(hostName, o.value);
            else if (o.key == QLatin1String("user"))
                setFirst(user, o.value);
            else if (o.key == QLatin1String("port"))
                setFirst(port, o.value);
            else if (o.key == QLatin1String("proxyjump"))
                setFirst(proxyJump, o.value);
            else if (o.key == QLatin1String("identitiesonly"))
                setFirst(identitiesOnly, o.value);
            else if (o.key == QLatin1String("serveraliveinterval"))
                setFirst(alive, o.value);
            else if (o.key == QLatin1String("userknownhostsfile"))
                setFirst(knownHosts, o.firstArg);
            else if (o.key == QLatin1String("identityfile"))
                identities << o.value;
        }
    }
    SshHostConfig c;
    c.alias = alias;
    c.port = port.isNull() ? 22 : port.toInt();
    c.user = user.isNull() ? local : user;
    // %h in HostName is the alias; everywhere else it is the resolved host name.
    c.hostName = hostName.isNull() ? alias : QString(hostName).replace(QLatin1String("%h"), alias);
    const QString home = QDir::homePath();
    auto expand = [&](QString value) {
        if (value == QLatin1String("~"))
            value = home;
        else if (value.startsWith(QLatin1String("~/")))
            value = home + value.mid(1);
        QString out;
        for (int i = 0; i < value.size(); ++i) {
            const QChar ch = value.at(i);
            if (ch != QLatin1Char('%') || i + 1 >= value.size()) {
                out += ch;
                continue;
            }
            const QChar t = value.at(++i);
            if (t == QLatin1Char('h'))
                out += c.hostName;
            else if (t == QLatin1Char('u'))
                out += local;
            else if (t == QLatin1Char('r'))
                out += c.user;
            else if (t == QLatin1Char('p'))
                out += QString::number(c.port);
            else if (t == QLatin1Char('n'))
                out += alias;
            else if (t == QLatin1Char('d'))
                out += home;
            else if (t == QLatin1Char('%'))
                out += QLatin1Char('%');
            else
                out += QLatin1Char('%') + t;
        }
        return out;
    };
    for (const QString &id : identities)
        if (id.compare(QLatin1String("none"), Qt::CaseInsensitive) != 0) c.identityFiles << expand(id);
    bool ok = true;
    c.identitiesOnly = !identitiesOnly.isNull() && parseYesNo(identitiesOnly, &ok);
    c.proxyJump = proxyJump.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0 ? QString() : proxyJump;
    c.serverAliveIntervalSec = alive.isNull() ? 0 : alive.toInt();
    if (!knownHosts.isNull() && knownHosts.compare(QLatin1String("none"), Qt::CaseInsensitive) != 0)
        c.userKnownHostsFile = expand(knownHosts);
    return c;
}

QStringList SshConfig::hostAliases() const {
    QStringList out;
    for (const Block &block : m_blocks)
        for (const QString &p : block.patterns)
            if (!p.contains(QLatin1Char('*')) && !p.contains(QLatin1Char('?')) && !p.startsWith(QLatin1Char('!')) &&
                !out.contains(p))
                out << p;
    return out;
}

} // namespace diamond::remote
