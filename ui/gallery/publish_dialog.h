// PublishDialog: publishes a finished run of the workspace to its gallery. The fields (name, version, authors,
// license, tags, domain, task) and the Markdown model card (editor with a rendered preview) are prefilled from
// the run on a worker thread; Publish runs app::gallery::GalleryStore::publishRun() on a worker thread (engine
// export, package, verification re-run) with a busy progress bar, and shows a failure in the dialog, which stays
// open. The "What is shared" tab lists every file and manifest field the package will carry; this computer's
// details (data file paths, operating system, core count) stay out unless the user ticks the box. The package is
// signed with the user's publisher key (docs/security.md). Authors and license are remembered for the next time
// (QSettings "gallery/authors", "gallery/license").
#pragma once

#include "app/gallery/gallery_store.h"
#include "app/run/run_store.h"

#include <QDialog>
#include <QJsonObject>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QTabWidget;
class QTextBrowser;

namespace diamond::ui {

class PublishDialog : public QDialog {
    Q_OBJECT
public:
    PublishDialog(const QString &workspaceFolder, qint64 runId, QWidget *parent = nullptr);

    qint64 runId() const { return runId_; }
    /// What publish() sends: the fields as edited (tags and authors split at commas).
    app::gallery::PublishOptions options() const;
    bool isPrefilled() const { return prefilled_; }
    bool isBusy() const { return busy_; }
    qint64 publishedEntryId() const { return entryId_; }
    /// The last failure shown, empty when none.
    QString errorString() const { return error_; }

    QLineEdit *nameEdit() const { return name_; }
    QLineEdit *versionEdit() const { return version_; }
    QLineEdit *authorsEdit() const { return authors_; }
    QComboBox *licenseBox() const { return license_; }
    QLineEdit *tagsEdit() const { return tags_; }
    QLineEdit *domainEdit() const { return domain_; }
    QComboBox *taskBox() const { return task_; }
    QPlainTextEdit *cardEdit() const { return card_; }
    /// "Include this computer's details": off by default.
    QCheckBox *privateDetailsBox() const { return privateDetails_; }
    /// The "What is shared" tab.
    QTextBrowser *sharedView() const { return shared_; }
    QProgressBar *progressBar() const { return progress_; }

    /// A Markdown card draft for a run (title, provenance sentence, interface, final metrics, and `training`: the
    /// training configuration as the package will share it).
    static QString draftCard(const QString &title, const QString &projectName, const app::Run &run,
                             const QByteArray &specJson, const QJsonObject &training);

public Q_SLOTS:
    /// Validates the fields and publishes on a worker thread (ignored while busy or before the prefill).
    void publish();
    void reject() override;

Q_SIGNALS:
    void prefillFinished();
    void published(qint64 entryId, bool consistent, const QString &verifyMessage);
    void publishFailed(const QString &error);

private:
    void setBusy(bool busy, const QString &text = {});
    void showError(const QString &text);
    void updateShared();

    QString folder_;
    qint64 runId_ = 0;
    bool prefilled_ = false;
    bool busy_ = false;
    qint64 entryId_ = 0;
    QString error_;
    QLabel *intro_ = nullptr;
    QLineEdit *name_ = nullptr;
    QLineEdit *version_ = nullptr;
    QLineEdit *authors_ = nullptr;
    QComboBox *license_ = nullptr;
    QLineEdit *tags_ = nullptr;
    QLineEdit *domain_ = nullptr;
    QComboBox *task_ = nullptr;
    QTabWidget *cardTabs_ = nullptr;
    QPlainTextEdit *card_ = nullptr;
    QTextBrowser *preview_ = nullptr;
    QTextBrowser *shared_ = nullptr;
    QCheckBox *privateDetails_ = nullptr;
    QJsonObject sharedManifest_, privateManifest_; ///< previews without / with this computer's details
    QString signingNote_;
    QProgressBar *progress_ = nullptr;
    QLabel *status_ = nullptr;
    QDialogButtonBox *buttons_ = nullptr;
};

} // namespace diamond::ui
