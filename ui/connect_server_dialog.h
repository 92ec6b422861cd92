// File ▸ Connect to class server…: the address of a `diamondctl serve` and the user's token. Connect signs in
// (GET /api/v1/me, without blocking); on success the dialog emits connected() and closes, on failure it says why and
// stays open. The address is remembered (QSettings "server/url"); the token is not stored.
#pragma once

#include "app/run/class_server.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace diamond::ui {

class ConnectServerDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectServerDialog(QWidget *parent = nullptr);

    QLineEdit *urlEdit() const { return url_; }
    QLineEdit *tokenEdit() const { return token_; }
    /// Signs in with the fields' values (the Connect button).
    void connectToServer();
    QString statusText() const;

Q_SIGNALS:
    void connected(const diamond::app::ClassServer &server);

private:
    QLineEdit *url_ = nullptr;
    QLineEdit *token_ = nullptr;
    QLabel *status_ = nullptr;
    QPushButton *connect_ = nullptr;
    app::ClassServerClient *client_ = nullptr;
};

} // namespace diamond::ui
