// The terminal side of cluster sign-in for diamondctl: host keys, passphrases, passwords and keyboard-interactive
// rounds (MFA codes) are asked on the controlling terminal with echo off for secrets; without a terminal (scripts,
// tests) the answers are read line by line from standard input. End of input declines.
#pragma once

#include "app/cluster/cluster_link.h"

#include <QTextStream>

namespace diamond::cli {

class TerminalPrompter : public app::ClusterPrompter {
public:
    /// Questions are written to `err` (stderr), so stdout stays the command's output.
    explicit TerminalPrompter(QTextStream &err) : err_(err) {}
    void ask(const app::ClusterPrompt &prompt, std::function<void(std::optional<QStringList>)> answer) override;

private:
    /// One line from the terminal or stdin; nullopt at end of input.
    std::optional<QString> readLine(const QString &question, bool echo);

    QTextStream &err_;
};

} // namespace diamond::cli
