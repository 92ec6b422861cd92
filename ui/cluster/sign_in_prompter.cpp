#include "ui/cluster/sign_in_prompter.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace diamond::ui {

SignInPrompter::SignInPrompter(QWidget *dialogParent) : QObject(dialogParent), parent_(dialogParent) {
    qRegisterMetaType<app::ClusterPrompt>();
}

void SignInPrompter::ask(const app::ClusterPrompt &p, std::function<void(std::optional<QStringList>)> answer) {
    Q_EMIT asked(p);
    if (p.kind == app::ClusterPrompt::Kind::HostKey) {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Unknown host key"),
                                    tr("The authenticity of %1 cannot be established.").arg(p.hostLabel),
                                    QMessageBox::NoButton, parent_);
        box->setObjectName(QStringLiteral("hostKeyDialog"));
        box->setInformativeText(
            tr("Its %1 key fingerprint is:\n\n%2\n\nCompare it with the fingerprint your cluster's administrators "
               "publish. Accept only if they match: the key is then remembered in the known hosts file.")
                .arg(p.keyType, p.fingerprint));
        box->setTextInteractionFlags(Qt::TextSelectableByMouse);
        QPushButton *accept = box->addButton(tr("Accept and connect"), QMessageBox::AcceptRole);
        accept->setObjectName(QStringLiteral("acceptHostKey"));
        QPushButton *reject = box->addButton(tr("Cancel"), QMessageBox::RejectRole);
        reject->setObjectName(QStringLiteral("rejectHostKey"));
        box->setDefaultButton(reject);
        box->setAttribute(Qt::WA_DeleteOnClose);
        connect(box, &QMessageBox::finished, this, [box, accept, answer] {
            answer(box->clickedButton() == accept ? std::optional<QStringList>(QStringList{}) : std::nullopt);
        });
        hostKeyDialog_ = box;
        Q_EMIT status(tr("Waiting for you to check the host key of %1…").arg(p.hostLabel));
        box->open();
        return;
    }
    auto *dialog = new QDialog(parent_);
    dialog->setObjectName(QStringLiteral("secretDialog"));
    dialog->setWindowTitle(p.cluster.isEmpty() ? p.title : tr("%1 — %2").arg(p.title, p.cluster));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto *v = new QVBoxLayout(dialog);
    auto *intro = new QLabel(tr("Cluster <b>%1</b> asks you to sign in.").arg(p.cluster.toHtmlEscaped()), dialog);
    v->addWidget(intro);
    if (!p.instruction.isEmpty()) {
        auto *label = new QLabel(p.instruction, dialog);
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        v->addWidget(label);
    }
    auto *form = new QFormLayout;
    QList<QLineEdit *> edits;
    for (int i = 0; i < p.prompts.size(); ++i) {
        auto *edit = new QLineEdit(dialog);
        edit->setEchoMode(p.echo.value(i) ? QLineEdit::Normal : QLineEdit::Password);
        auto *label = new QLabel(p.prompts[i], dialog);
        label->setTextFormat(Qt::PlainText);
        form->addRow(label, edit);
        edits << edit;
    }
    v->addLayout(form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    v->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(dialog, &QDialog::finished, this, [edits, answer](int result) {
        if (result != QDialog::Accepted) return answer(std::nullopt);
        QStringList answers;
        for (QLineEdit *e : edits) {
            answers << e->text();
            e->clear(); // the secret does not stay in the widget
        }
        answer(answers);
    });
    secretDialog_ = dialog;
    Q_EMIT status(tr("Signing in to %1…").arg(p.cluster));
    dialog->open();
}

} // namespace diamond::ui
