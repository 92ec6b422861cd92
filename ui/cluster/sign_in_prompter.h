// SignInPrompter: the desktop app's answers to cluster sign-in questions (app::ClusterPrompter). An unknown host key
// is shown with its fingerprint in a message box whose safe default is Cancel; passphrases, passwords and
// keyboard-interactive rounds (MFA codes) in a dialog with one masked field per prompt. Dialogs are window-modal to
// `dialogParent` and never block the GUI thread (open(), not exec()); the connection's worker thread waits for the
// answer. One-time codes are not kept anywhere.
#pragma once

#include "app/cluster/cluster_link.h"

#include <QObject>
#include <QPointer>

class QDialog;
class QMessageBox;
class QWidget;

namespace diamond::ui {

class SignInPrompter : public QObject, public app::ClusterPrompter {
    Q_OBJECT
public:
    /// Dialogs are children of `dialogParent` (which must outlive the prompter's dialogs).
    explicit SignInPrompter(QWidget *dialogParent);

    void ask(const app::ClusterPrompt &prompt, std::function<void(std::optional<QStringList>)> answer) override;

    /// The open unknown-host-key question, nullptr when none.
    QMessageBox *hostKeyDialog() const { return hostKeyDialog_; }
    /// The open secret dialog (object name "secretDialog"), nullptr when none.
    QDialog *secretDialog() const { return secretDialog_; }

Q_SIGNALS:
    /// A question was shown.
    void asked(const diamond::app::ClusterPrompt &prompt);
    /// A line for a status bar ("Waiting for you to check the host key of …").
    void status(const QString &text);

private:
    QWidget *parent_;
    QPointer<QMessageBox> hostKeyDialog_;
    QPointer<QDialog> secretDialog_;
};

} // namespace diamond::ui

Q_DECLARE_METATYPE(diamond::app::ClusterPrompt)
