// GalleryPage: the model gallery browser (a central tab). The left column lists the sources: the workspace's
// own gallery and any number of remote galleries (`diamondctl serve`, URL + token, remembered across sessions:
// URL in QSettings, token in the credential store). The middle shows the selected source's models as cards
// (GalleryModel + GalleryCardDelegate) with a debounced full-text search box, filters (task, domain, license,
// verified) and a sort order; the right shows the selected model in full (GalleryDetailView) with its actions:
// download and import into this workspace (progress bar), export the package, open the spec in the designer,
// fine-tune, remove. Nothing here blocks the GUI thread: local work runs on worker threads, remote work is
// asynchronous HTTP.
#pragma once

#include "app/cluster/cluster_types.h"
#include "app/gallery/gallery_store.h"

#include <QJsonObject>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QListWidget;
class QPushButton;
class QTimer;

namespace diamond::app::gallery {
class GallerySource;
class LocalGallerySource;
class RemoteGallerySource;
struct GalleryImportOutcome;
} // namespace diamond::app::gallery

namespace diamond::ui {

class GalleryDetailView;
class GalleryModel;
class PublishDialog;

class GalleryPage : public QWidget {
    Q_OBJECT
public:
    /// `credentials` keeps the tokens of remote galleries; the default is the system keychain (QtKeychain,
    /// never a plain-text file). Remote galleries remembered in QSettings are added at once.
    explicit GalleryPage(QWidget *parent = nullptr, std::shared_ptr<app::CredentialStore> credentials = {});
    ~GalleryPage() override;

    /// The workspace whose gallery is the local source (empty: none). Reloads when it is the current source.
    void setWorkspaceFolder(const QString &folder);
    QString workspaceFolder() const;

    /// Adds a remote gallery and remembers it (replacing one with the same URL). Returns its source index.
    int addRemoteSource(const QString &name, const QString &url, const QString &token);
    /// Forgets a remote gallery (index >= 1) and its token.
    void removeRemoteSource(int index);
    /// Source 0 is the local gallery (nullptr without a workspace), then the remote ones.
    int sourceCount() const;
    app::gallery::GallerySource *source(int index) const;
    int currentSourceIndex() const;
    void setCurrentSource(int index);

    /// Searches the current source again with the current search text, filters and sort.
    void refresh();
    bool isLoading() const { return searchRequest_ != 0; }
    int totalMatches() const { return total_; }
    /// Selects the card of an entry of the current source (shows it in the detail view); false when not shown.
    bool selectEntry(qint64 id);
    qint64 currentEntryId() const;

    /// Actions on the selected entry (the buttons call them after asking what they need).
    void importCurrent();
    void exportCurrent(const QString &file);
    void openCurrentInDesigner();
    void fineTuneCurrent();
    void removeCurrent(bool ask = true);
    /// Adds the selected local entry's publisher key to the trust list (or removes it), after asking when `ask`.
    void toggleTrustCurrent(bool ask = true);
    /// Imports a package file into the local gallery.
    void importFile(const QString &file);
    /// Opens the publish dialog for a finished run of the workspace; the local gallery reloads on success.
    PublishDialog *publishRun(qint64 runId);

    GalleryModel *model() const { return model_; }
    QListView *view() const { return view_; }
    GalleryDetailView *detailView() const { return detail_; }
    QListWidget *sourceList() const { return sources_; }
    QLineEdit *searchBox() const { return search_; }
    QComboBox *taskFilter() const { return task_; }
    QComboBox *domainFilter() const { return domain_; }
    QComboBox *licenseFilter() const { return license_; }
    QComboBox *sortBox() const { return sort_; }
    QCheckBox *consistentOnlyBox() const { return consistentOnly_; }
    QLabel *messageLabel() const { return message_; }

Q_SIGNALS:
    /// A search result of the current source is shown.
    void loaded();
    /// The detail view shows an entry (card and manifest loaded).
    void entryShown(qint64 id);
    /// A download/import into the local gallery ended: the new (or existing) local entry id, 0 on failure.
    void importFinished(qint64 localEntryId, bool consistent, const QString &message);
    void exportFinished(const QString &file, const QString &error);
    /// "Open in designer": the entry's spec.json, from a package whose hashes were checked.
    void openSpecRequested(const QJsonObject &spec, const QString &title);
    /// "Fine-tune": a local entry and its package file (weights.safetensors inside).
    void fineTuneRequested(qint64 entryId, const QString &packageFile);
    /// Something for the status bar.
    void statusMessage(const QString &text);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void buildUi();
    void connectSource(app::gallery::GallerySource *source);
    void addSourceItem(app::gallery::GallerySource *source, int row);
    void rememberRemotes() const;
    app::gallery::GalleryQuery query() const;
    void updateFilterChoices(const QList<app::gallery::GalleryEntry> &entries);
    void showMessage(const QString &text, bool error = false);
    void onCurrentChanged();
    void afterImport(const app::gallery::GalleryImportOutcome &outcome, const QString &tempFile);
    void setActionRunning(bool running);

    std::shared_ptr<app::CredentialStore> credentials_;
    app::gallery::LocalGallerySource *local_ = nullptr;
    QList<app::gallery::RemoteGallerySource *> remotes_;
    app::gallery::GallerySource *current_ = nullptr;
    int searchRequest_ = 0;
    int entryRequest_ = 0;
    int total_ = 0;
    qint64 pendingSelection_ = 0;
    bool actionRunning_ = false;

    QListWidget *sources_ = nullptr;
    QPushButton *addRemote_ = nullptr;
    QPushButton *removeRemote_ = nullptr;
    QLineEdit *search_ = nullptr;
    QComboBox *sort_ = nullptr;
    QComboBox *task_ = nullptr;
    QComboBox *domain_ = nullptr;
    QComboBox *license_ = nullptr;
    QCheckBox *consistentOnly_ = nullptr;
    QPushButton *importFile_ = nullptr;
    QLabel *count_ = nullptr;
    QLabel *message_ = nullptr;
    QListView *view_ = nullptr;
    GalleryModel *model_ = nullptr;
    GalleryDetailView *detail_ = nullptr;
    QTimer *searchTimer_ = nullptr;
};

} // namespace diamond::ui
