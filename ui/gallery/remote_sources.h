// Remote galleries the browser remembers: name and URL in QSettings ("gallery/remotes"); the bearer token is
// never written there, it goes to a app::CredentialStore under tokenKey(url) (the system keychain in the
// app). AddRemoteDialog asks for name, URL and token.
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QLabel;
class QLineEdit;

namespace diamond::ui {

struct RemoteSourceInfo {
    QString name;
    QString url;
};

QList<RemoteSourceInfo> loadRemoteSources();
void saveRemoteSources(const QList<RemoteSourceInfo> &sources);
/// Key of a remote gallery's token in the credential store.
QString remoteTokenKey(const QString &url);

class AddRemoteDialog : public QDialog {
    Q_OBJECT
public:
    explicit AddRemoteDialog(QWidget *parent = nullptr);

    QString name() const;
    QString url() const;
    QString token() const;

    void accept() override;

private:
    QLineEdit *name_ = nullptr;
    QLineEdit *url_ = nullptr;
    QLineEdit *token_ = nullptr;
    QLabel *error_ = nullptr;
};

} // namespace diamond::ui
