#include "ui/gallery/remote_sources.h"

#include "app/gallery/gallery_source.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QVBoxLayout>

namespace diamond::ui {

QList<RemoteSourceInfo> loadRemoteSources() {
    QSettings settings;
    QList<RemoteSourceInfo> out;
    const int n = settings.beginReadArray(QStringLiteral("gallery/remotes"));
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        RemoteSourceInfo info{settings.value(QStringLiteral("name")).toString(),
                              settings.value(QStringLiteral("url")).toString()};
        if (!info.url.isEmpty()) out.append(info);
    }
    settings.endArray();
    return out;
}

void saveRemoteSources(const QList<RemoteSourceInfo> &sources) {
    QSettings settings;
    settings.remove(QStringLiteral("gallery/remotes"));
    settings.beginWriteArray(QStringLiteral("gallery/remotes"), int(sources.size()));
    for (int i = 0; i < sources.size(); ++i) {
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("name"), sources.at(i).name);
        settings.setValue(QStringLiteral("url"), sources.at(i).url);
    }
    settings.endArray();
}

QString remoteTokenKey(const QString &url) { return QStringLiteral("gallery-token:") + url; }

AddRemoteDialog::AddRemoteDialog(QWidget *parent) : QDialog(parent) {
    setWindowTitle(tr("Add a remote gallery"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("A remote gallery is a workspace served with <code>diamondctl serve</code>. Its "
                                "owner gives you the address and the token (<code>diamondctl serve "
                                "--print-token</code>)."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *form = new QFormLayout;
    name_ = new QLineEdit(this);
    name_->setObjectName(QStringLiteral("remoteName"));
    name_->setPlaceholderText(tr("Lab server"));
    url_ = new QLineEdit(this);
    url_->setObjectName(QStringLiteral("remoteUrl"));
    url_->setPlaceholderText(QStringLiteral("http://127.0.0.1:8765"));
    token_ = new QLineEdit(this);
    token_->setObjectName(QStringLiteral("remoteToken"));
    token_->setEchoMode(QLineEdit::Password);
    form->addRow(tr("&Name:"), name_);
    form->addRow(tr("&Address:"), url_);
    form->addRow(tr("&Token:"), token_);
    layout->addLayout(form);
    error_ = new QLabel(this);
    error_->setStyleSheet(QStringLiteral("color: #c62828;"));
    error_->setWordWrap(true);
    error_->hide();
    layout->addWidget(error_);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &AddRemoteDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &AddRemoteDialog::reject);
    layout->addWidget(buttons);
}

QString AddRemoteDialog::name() const { return name_->text().trimmed(); }
QString AddRemoteDialog::url() const { return url_->text().trimmed(); }
QString AddRemoteDialog::token() const { return token_->text().trimmed(); }

void AddRemoteDialog::accept() {
    QString error;
    if (!app::gallery::RemoteGallerySource::apiBase(url()).isValid())
        error = tr("The address must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:8765.");
    else if (token().isEmpty())
        error = tr("The token is required: every request to a Diamond server carries it.");
    if (!error.isEmpty()) {
        error_->setText(error);
        error_->show();
        return;
    }
    QDialog::accept();
}

} // namespace diamond::ui
