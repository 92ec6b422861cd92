#include "ui/connect_server_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace diamond::ui {

ConnectServerDialog::ConnectServerDialog(QWidget *parent) : QDialog(parent) {
    setObjectName(QStringLiteral("connectServerDialog"));
    setWindowTitle(tr("Connect to a class server"));
    auto *intro = new QLabel(tr("Train on your course's server: the runs go there, the curves come back here. Your "
                                "instructor gives you the address and your token."),
                             this);
    intro->setWordWrap(true);
    url_ = new QLineEdit(
        QSettings().value(QStringLiteral("server/url"), QStringLiteral("http://127.0.0.1:8080")).toString(), this);
    url_->setObjectName(QStringLiteral("serverUrl"));
    token_ = new QLineEdit(this);
    token_->setObjectName(QStringLiteral("serverToken"));
    token_->setEchoMode(QLineEdit::Password);
    token_->setPlaceholderText(tr("the token diamondctl user add printed for you"));
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("serverStatus"));
    status_->setWordWrap(true);
    auto *form = new QFormLayout;
    form->addRow(tr("&Address:"), url_);
    form->addRow(tr("&Token:"), token_);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    connect_ = buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole);
    connect_->setObjectName(QStringLiteral("serverConnect"));
    connect_->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(connect_, &QPushButton::clicked, this, &ConnectServerDialog::connectToServer);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(status_);
    layout->addWidget(buttons);
    resize(520, sizeHint().height());
}

QString ConnectServerDialog::statusText() const { return status_->text(); }

void ConnectServerDialog::connectToServer() {
    const QUrl url = QUrl::fromUserInput(url_->text().trimmed());
    delete client_;
    client_ = new app::ClassServerClient(url, token_->text().trimmed(), this);
    connect_->setEnabled(false);
    status_->setText(tr("Connecting to %1…").arg(url.toDisplayString()));
    client_->signIn([this, url](const app::ClassServer &server, const QString &error) {
        connect_->setEnabled(true);
        if (!error.isEmpty()) {
            status_->setText(error);
            return;
        }
        QSettings().setValue(QStringLiteral("server/url"), url.toString());
        status_->setText(tr("Signed in as %1 (%2).").arg(server.user, server.role));
        Q_EMIT connected(server);
        accept();
    });
}

} // namespace diamond::ui
