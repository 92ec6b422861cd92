// Preferences: the user-interface language (applied at the next start) and the default number of engine
// threads for local runs. Stored in QSettings ("ui/language", "run/threads").
#pragma once

#include <QDialog>

class QComboBox;
class QSpinBox;

namespace diamond::ui {

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget *parent = nullptr);

    /// Writes the choices to QSettings; true when the language changed (a restart applies it).
    bool save();
    QComboBox *languageBox() const { return language_; }

private:
    QComboBox *language_ = nullptr;
    QSpinBox *threads_ = nullptr;
};

} // namespace diamond::ui
