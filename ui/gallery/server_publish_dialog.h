// Publishing a run that trained on a class server: to that server's gallery (POST /api/v1/runs/{id}/publish through
// app::RunService::publishOnServer), since its weights live there. Title, licence and tags; the server fills in
// the rest from the run. Non-modal; emits published() and closes on success, shows the server's refusal otherwise.
#pragma once

#include <QDialog>
#include <QJsonObject>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace diamond::app {
class RunService;
}

namespace diamond::ui {

class ServerPublishDialog : public QDialog {
    Q_OBJECT
public:
    ServerPublishDialog(app::RunService &service, qint64 runId, const QString &runName, QWidget *parent = nullptr);

    QLineEdit *titleEdit() const { return title_; }
    void publish();
    QString statusText() const;

Q_SIGNALS:
    void published(const QJsonObject &entry);

private:
    app::RunService &service_;
    qint64 runId_;
    QLineEdit *title_ = nullptr;
    QComboBox *license_ = nullptr;
    QLineEdit *tags_ = nullptr;
    QLabel *status_ = nullptr;
    QPushButton *publish_ = nullptr;
};

} // namespace diamond::ui
