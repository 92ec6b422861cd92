// GalleryDetailView: one gallery entry in full: header (thumbnail, title, name/version/license, consistency badge,
// key metric, the signature with a Trust button), the action buttons, a download/import progress bar and status line,
// and tabs with the rendered Markdown model card (no raw HTML, nothing loaded, links open only after confirmation), the
// interface and metrics, and the provenance and file hashes. Display only: the page connects the buttons.
#pragma once

#include "app/gallery/gallery_store.h"

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTextBrowser;

namespace diamond::ui {

class GalleryDetailView : public QWidget {
    Q_OBJECT
public:
    explicit GalleryDetailView(QWidget *parent = nullptr);

    /// Shows an entry fetched with its card and manifest; `remote`: it lives on a remote gallery (Import shown,
    /// Remove and Fine-tune unavailable).
    void showEntry(const app::gallery::GalleryEntry &entry, bool remote);
    void setThumbnail(const QByteArray &png);
    /// Shows nothing but `message` ("Select a model").
    void clear(const QString &message = {});
    qint64 entryId() const { return entryId_; }
    bool isRemote() const { return remote_; }

    /// Disables the action buttons while an action runs.
    void setBusy(bool busy);
    void setStatus(const QString &text, bool error = false);

    QTextBrowser *cardBrowser() const { return card_; }
    QTextBrowser *interfaceBrowser() const { return interface_; }
    QTextBrowser *provenanceBrowser() const { return provenance_; }
    QPushButton *importButton() const { return import_; }
    QPushButton *exportButton() const { return export_; }
    QPushButton *openButton() const { return open_; }
    QPushButton *fineTuneButton() const { return fineTune_; }
    QPushButton *removeButton() const { return remove_; }
    QProgressBar *progressBar() const { return progress_; }
    QLabel *statusLabel() const { return status_; }
    QLabel *signatureLabel() const { return signature_; }
    /// "Trust this publisher" / "Stop trusting": shown for signed local entries.
    QPushButton *trustButton() const { return trust_; }
    bool isTrusted() const { return trusted_; }
    QString publisher() const { return publisher_; }
    QString fingerprint() const { return fingerprint_; }

    /// Renders untrusted Markdown into `browser` without interpreting raw HTML.
    static void setCardMarkdown(QTextBrowser *browser, const QString &markdown);

    /// HTML of the interface (inputs, outputs) and metrics tab of a manifest.
    static QString interfaceHtml(const QJsonObject &manifest);
    /// HTML of the provenance, dataset and files tab of a manifest.
    static QString provenanceHtml(const QJsonObject &manifest, const QString &packageSha256);

protected:
    void changeEvent(QEvent *event) override;

private:
    void updateButtons();
    void updateBadge();

    qint64 entryId_ = 0;
    bool remote_ = false;
    bool busy_ = false;
    bool consistent_ = false;
    bool trusted_ = false;
    QString publisher_, fingerprint_;
    QWidget *content_ = nullptr;
    QLabel *placeholder_ = nullptr;
    QLabel *thumbnail_ = nullptr;
    QLabel *title_ = nullptr;
    QLabel *subtitle_ = nullptr;
    QLabel *badge_ = nullptr;
    QLabel *metric_ = nullptr;
    QLabel *signature_ = nullptr;
    QPushButton *trust_ = nullptr;
    QPushButton *import_ = nullptr;
    QPushButton *export_ = nullptr;
    QPushButton *open_ = nullptr;
    QPushButton *fineTune_ = nullptr;
    QPushButton *remove_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QLabel *status_ = nullptr;
    QTabWidget *tabs_ = nullptr;
    QTextBrowser *card_ = nullptr;
    QTextBrowser *interface_ = nullptr;
    QTextBrowser *provenance_ = nullptr;
};

} // namespace diamond::ui
