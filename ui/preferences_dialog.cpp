#include "ui/preferences_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace diamond::ui {

PreferencesDialog::PreferencesDialog(QWidget *parent) : QDialog(parent) {
    setWindowTitle(tr("Preferences"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    language_ = new QComboBox(this);
    language_->addItem(tr("System language"), QString());
    language_->addItem(QStringLiteral("English"), QStringLiteral("en"));
    language_->addItem(QStringLiteral("中文（简体）"), QStringLiteral("zh_CN"));
    const QSettings settings;
    language_->setCurrentIndex(
        std::max(0, language_->findData(settings.value(QStringLiteral("ui/language")).toString())));
    form->addRow(tr("&Language:"), language_);
    threads_ = new QSpinBox(this);
    threads_->setRange(0, 256);
    threads_->setSpecialValueText(tr("all cores"));
    threads_->setValue(settings.value(QStringLiteral("run/threads"), 0).toInt());
    form->addRow(tr("Engine &threads:"), threads_);
    layout->addLayout(form);
    auto *note = new QLabel(tr("A new language is applied when Diamond starts again."), this);
    note->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(note);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

bool PreferencesDialog::save() {
    QSettings settings;
    const QString before = settings.value(QStringLiteral("ui/language")).toString();
    const QString language = language_->currentData().toString();
    if (language.isEmpty())
        settings.remove(QStringLiteral("ui/language"));
    else
        settings.setValue(QStringLiteral("ui/language"), language);
    settings.setValue(QStringLiteral("run/threads"), threads_->value());
    return before != language;
}

} // namespace diamond::ui
