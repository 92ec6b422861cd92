#include "ui/gallery/server_publish_dialog.h"

#include "app/run/run_service.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QVBoxLayout>

namespace diamond::ui {

ServerPublishDialog::ServerPublishDialog(app::RunService &service, qint64 runId, const QString &runName,
                                         QWidget *parent)
    : QDialog(parent), service_(service), runId_(runId) {
    setObjectName(QStringLiteral("serverPublishDialog"));
    setWindowTitle(tr("Publish to the class gallery"));
    auto *intro = new QLabel(tr("This run trained on the class server, so it is published there: everyone in the "
                                "class can open it in the gallery."),
                             this);
    intro->setWordWrap(true);
    title_ = new QLineEdit(runName, this);
    title_->setObjectName(QStringLiteral("publishTitle"));
    license_ = new QComboBox(this);
    license_->setEditable(true);
    license_->addItems(
        {QStringLiteral("CC-BY-4.0"), QStringLiteral("CC0-1.0"), QStringLiteral("MIT"), QStringLiteral("Apache-2.0")});
    tags_ = new QLineEdit(this);
    tags_->setPlaceholderText(tr("comma-separated, e.g. lesson 1, spirals"));
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("publishStatus"));
    status_->setWordWrap(true);
    auto *form = new QFormLayout;
    form->addRow(tr("&Title:"), title_);
    form->addRow(tr("&Licence:"), license_);
    form->addRow(tr("T&ags:"), tags_);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    publish_ = buttons->addButton(tr("&Publish"), QDialogButtonBox::AcceptRole);
    publish_->setObjectName(QStringLiteral("publishOnServer"));
    publish_->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(publish_, &QPushButton::clicked, this, &ServerPublishDialog::publish);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(status_);
    layout->addWidget(buttons);
}

QString ServerPublishDialog::statusText() const { return status_->text(); }

void ServerPublishDialog::publish() {
    QJsonArray tags;
    for (const QString &t : tags_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!t.trimmed().isEmpty()) tags.append(t.trimmed());
    const QJsonObject options{{QStringLiteral("title"), title_->text().trimmed()},
                              {QStringLiteral("license"), license_->currentText().trimmed()},
                              {QStringLiteral("tags"), tags}};
    publish_->setEnabled(false);
    status_->setText(tr("Publishing…"));
    QPointer<ServerPublishDialog> self(this);
    const bool sent = service_.publishOnServer(runId_, options, [self](const QJsonObject &entry, const QString &error) {
        if (!self) return;
        self->publish_->setEnabled(true);
        if (!error.isEmpty()) {
            self->status_->setText(error);
            return;
        }
        Q_EMIT self->published(entry);
        self->accept();
    });
    if (!sent) {
        publish_->setEnabled(true);
        status_->setText(service_.errorString());
    }
}

} // namespace diamond::ui
