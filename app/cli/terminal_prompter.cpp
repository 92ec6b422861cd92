#include "terminal_prompter.h"

#include <QCoreApplication>
#include <QFile>

#include <cstdio>
#include <fcntl.h>
#include <string>
#include <termios.h>
#include <unistd.h>

namespace diamond::cli {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamondctl", text); }

/// Reads one line from `fd`, without the newline; false at end of input before any character.
bool readFd(int fd, std::string *line) {
    line->clear();
    char c = 0;
    bool any = false;
    for (;;) {
        const ssize_t n = ::read(fd, &c, 1);
        if (n <= 0) return any;
        any = true;
        if (c == '\n') return true;
        if (line->size() < 4096) line->push_back(c);
    }
}

} // namespace

std::optional<QString> TerminalPrompter::readLine(const QString &question, bool echo) {
    err_ << question;
    err_.flush();
    const int tty = ::isatty(STDIN_FILENO) ? ::open("/dev/tty", O_RDWR | O_CLOEXEC) : -1;
    const int fd = tty >= 0 ? tty : STDIN_FILENO;
    termios saved{};
    const bool hide = tty >= 0 && !echo && ::tcgetattr(fd, &saved) == 0;
    if (hide) {
        termios quiet = saved;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        ::tcsetattr(fd, TCSAFLUSH, &quiet);
    }
    std::string line;
    const bool ok = readFd(fd, &line);
    if (hide) {
        ::tcsetattr(fd, TCSAFLUSH, &saved);
        err_ << '\n';
    }
    if (tty >= 0) ::close(tty);
    if (!ok) {
        err_ << '\n';
        err_.flush();
        return std::nullopt;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return QString::fromStdString(line);
}

void TerminalPrompter::ask(const app::ClusterPrompt &p, std::function<void(std::optional<QStringList>)> answer) {
    if (p.kind == app::ClusterPrompt::Kind::HostKey) {
        err_ << tr("The authenticity of %1 (cluster '%2') cannot be established.\n"
                   "Its %3 key fingerprint is %4.\n"
                   "Compare it with the fingerprint your cluster's administrators publish.\n")
                    .arg(p.hostLabel, p.cluster, p.keyType, p.fingerprint);
        const auto reply = readLine(tr("Accept it and remember it in the known hosts file? [y/N] "), true);
        const bool yes = reply && (reply->trimmed().toLower() == QLatin1String("y") ||
                                   reply->trimmed().toLower() == QLatin1String("yes"));
        answer(yes ? std::optional<QStringList>(QStringList{}) : std::nullopt);
        return;
    }
    err_ << tr("Signing in to cluster '%1' (%2)\n").arg(p.cluster, p.title);
    if (!p.instruction.isEmpty()) err_ << p.instruction << '\n';
    QStringList answers;
    for (int i = 0; i < p.prompts.size(); ++i) {
        QString question = p.prompts[i];
        if (!question.endsWith(QLatin1Char(' '))) question += QLatin1Char(' ');
        const auto line = readLine(question, p.echo.value(i));
        if (!line) return answer(std::nullopt);
        answers << *line;
    }
    answer(answers);
}

} // namespace diamond::cli
