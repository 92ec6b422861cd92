#include "ui/gallery/gallery_page.h"

#include "app/background.h"
#include "app/cluster/cluster_types.h"
#include "app/gallery/gallery_source.h"
#include "app/gallery/model_package.h"
#include "ui/gallery/gallery_card_delegate.h"
#include "ui/gallery/gallery_detail_view.h"
#include "ui/gallery/gallery_model.h"
#include "ui/gallery/publish_dialog.h"
#include "ui/gallery/remote_sources.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTemporaryDir>
#include <QTimer>
#include <QVBoxLayout>

namespace diamond::ui {

using app::gallery::GalleryEntry;
using app::gallery::GalleryQuery;

namespace {

struct SpecResult {
    QJsonObject spec;
    QString error;
};

/// Checks a package (every hash) into a temporary folder and reads its spec.
SpecResult readCheckedSpec(const QString &packageFile) {
    SpecResult r;
    QTemporaryDir dir;
    if (!dir.isValid()) return r.error = GalleryPage::tr("Cannot create a temporary folder."), r;
    const app::gallery::PackageCheck check = app::gallery::checkPackage(packageFile, dir.path());
    if (!check.ok)
        return r.error = GalleryPage::tr("The package was refused (%1): %2").arg(check.code, check.message), r;
    QFile f(dir.filePath(QLatin1String(app::gallery::kSpecFile)));
    const QJsonDocument doc = f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()) : QJsonDocument();
    if (!doc.isObject()) return r.error = GalleryPage::tr("The package's spec.json is not a JSON object."), r;
    r.spec = doc.object();
    return r;
}

void setChoices(QComboBox *box, const QString &anyText, QStringList values) {
    const QString current = box->currentData().toString();
    values.sort(Qt::CaseInsensitive);
    const QSignalBlocker block(box);
    box->clear();
    box->addItem(anyText, QString());
    for (const QString &v : values)
        box->addItem(v, v);
    box->setCurrentIndex(qMax(0, box->findData(current)));
}

} // namespace

GalleryPage::GalleryPage(QWidget *parent, std::shared_ptr<app::CredentialStore> credentials)
    : QWidget(parent), credentials_(std::move(credentials)) {
    if (!credentials_) credentials_ = std::make_shared<app::KeychainCredentialStore>();
    buildUi();
    for (const RemoteSourceInfo &info : loadRemoteSources()) {
        auto *source = new app::gallery::RemoteGallerySource(info.name, info.url, QString(), this);
        remotes_.append(source);
        connectSource(source);
        addSourceItem(source, int(remotes_.size()));
        // The keychain blocks: read the token on a worker thread.
        app::runInBackground(
            source,
            [store = credentials_, key = remoteTokenKey(info.url)] { return store->secret(key).value_or(QString()); },
            [this, source](const QString &token) {
                source->setToken(token);
                if (token.isEmpty())
                    sources_->item(int(remotes_.indexOf(source)) + 1)
                        ->setToolTip(
                            tr("%1\nNo token stored: add the gallery again with its token.").arg(source->location()));
                if (current_ == source) refresh();
            });
    }
}

GalleryPage::~GalleryPage() = default;

void GalleryPage::buildUi() {
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    layout->addWidget(splitter);

    // Sources.
    auto *left = new QWidget(splitter);
    auto *leftLayout = new QVBoxLayout(left);
    auto *sourcesTitle = new QLabel(tr("<b>Galleries</b>"), left);
    leftLayout->addWidget(sourcesTitle);
    sources_ = new QListWidget(left);
    sources_->setObjectName(QStringLiteral("gallerySources"));
    sources_->setIconSize(QSize(24, 24));
    sources_->setSpacing(2);
    leftLayout->addWidget(sources_, 1);
    addRemote_ = new QPushButton(tr("&Add remote…"), left);
    addRemote_->setToolTip(tr("Browse a gallery served by another Diamond (diamondctl serve)"));
    removeRemote_ = new QPushButton(tr("Forget remote"), left);
    leftLayout->addWidget(addRemote_);
    leftLayout->addWidget(removeRemote_);
    auto *localItem = new QListWidgetItem(style()->standardIcon(QStyle::SP_DirHomeIcon), tr("This workspace"));
    sources_->addItem(localItem);

    // Cards with search, filters and sort.
    auto *middle = new QWidget(splitter);
    auto *midLayout = new QVBoxLayout(middle);
    // The filter rows may be clipped rather than widen the window past a 1280-pixel projector next to the docks.
    midLayout->setSizeConstraint(QLayout::SetNoConstraint);
    middle->setMinimumWidth(320);
    auto *row1 = new QHBoxLayout;
    search_ = new QLineEdit(middle);
    search_->setObjectName(QStringLiteral("gallerySearch"));
    search_->setPlaceholderText(tr("Search names, cards and tags…"));
    search_->setClearButtonEnabled(true);
    row1->addWidget(search_, 1);
    sort_ = new QComboBox(middle);
    sort_->setObjectName(QStringLiteral("gallerySort"));
    sort_->addItem(tr("Best match"), QStringLiteral("relevance"));
    sort_->addItem(tr("Highest metric"), QStringLiteral("metric-desc"));
    sort_->addItem(tr("Lowest metric"), QStringLiteral("metric-asc"));
    sort_->addItem(tr("Newest"), QStringLiteral("date-desc"));
    sort_->addItem(tr("Oldest"), QStringLiteral("date-asc"));
    sort_->addItem(tr("Name A–Z"), QStringLiteral("name-asc"));
    sort_->addItem(tr("Name Z–A"), QStringLiteral("name-desc"));
    row1->addWidget(new QLabel(tr("Sort:"), middle));
    row1->addWidget(sort_);
    midLayout->addLayout(row1);
    auto *row2 = new QHBoxLayout;
    task_ = new QComboBox(middle);
    task_->setObjectName(QStringLiteral("galleryTask"));
    domain_ = new QComboBox(middle);
    domain_->setObjectName(QStringLiteral("galleryDomain"));
    license_ = new QComboBox(middle);
    license_->setObjectName(QStringLiteral("galleryLicense"));
    setChoices(task_, tr("Any task"), {});
    setChoices(domain_, tr("Any domain"), {});
    setChoices(license_, tr("Any license"), {});
    consistentOnly_ = new QCheckBox(tr("&Consistent only"), middle);
    importFile_ = new QPushButton(tr("&Import package…"), middle);
    importFile_->setToolTip(tr("Add a .diamond file to this workspace's gallery"));
    for (QWidget *w : std::initializer_list<QWidget *>{task_, domain_, license_, consistentOnly_})
        row2->addWidget(w);
    row2->addStretch(1);
    row2->addWidget(importFile_);
    midLayout->addLayout(row2);

    model_ = new GalleryModel(this);
    view_ = new QListView(middle);
    view_->setObjectName(QStringLiteral("galleryCards"));
    view_->setViewMode(QListView::IconMode);
    view_->setResizeMode(QListView::Adjust);
    view_->setMovement(QListView::Static);
    view_->setWrapping(true);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setMouseTracking(true);
    view_->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    view_->setItemDelegate(new GalleryCardDelegate(view_));
    view_->setGridSize(GalleryCardDelegate::cardSize(view_->font()));
    view_->setModel(model_);
    view_->viewport()->installEventFilter(this);
    midLayout->addWidget(view_, 1);
    auto *statusRow = new QHBoxLayout;
    count_ = new QLabel(middle);
    count_->setObjectName(QStringLiteral("galleryCount"));
    statusRow->addWidget(count_);
    message_ = new QLabel(middle);
    message_->setObjectName(QStringLiteral("galleryMessage"));
    message_->setWordWrap(true);
    message_->setTextFormat(Qt::PlainText);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusRow->addWidget(message_, 1);
    midLayout->addLayout(statusRow);

    detail_ = new GalleryDetailView(splitter);
    detail_->setObjectName(QStringLiteral("galleryDetail"));
    splitter->addWidget(left);
    splitter->addWidget(middle);
    splitter->addWidget(detail_);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 3);
    splitter->setStretchFactor(2, 2);
    splitter->setSizes({190, 770, 440});

    searchTimer_ = new QTimer(this);
    searchTimer_->setSingleShot(true);
    searchTimer_->setInterval(250);
    connect(searchTimer_, &QTimer::timeout, this, &GalleryPage::refresh);
    connect(search_, &QLineEdit::textChanged, searchTimer_, qOverload<>(&QTimer::start));
    connect(search_, &QLineEdit::returnPressed, this, &GalleryPage::refresh);
    for (QComboBox *box : {sort_, task_, domain_, license_})
        connect(box, &QComboBox::currentIndexChanged, this, &GalleryPage::refresh);
    connect(consistentOnly_, &QCheckBox::toggled, this, &GalleryPage::refresh);
    connect(sources_, &QListWidget::currentRowChanged, this, &GalleryPage::setCurrentSource);
    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this, &GalleryPage::onCurrentChanged);
    connect(addRemote_, &QPushButton::clicked, this, [this] {
        AddRemoteDialog dialog(this);
        if (dialog.exec() == QDialog::Accepted)
            setCurrentSource(addRemoteSource(dialog.name(), dialog.url(), dialog.token()));
    });
    connect(removeRemote_, &QPushButton::clicked, this, [this] {
        const int index = currentSourceIndex();
        if (index < 1) return;
        if (QMessageBox::question(this, tr("Forget remote gallery"),
                                  tr("Forget the gallery \"%1\" and its token?").arg(source(index)->displayName())) ==
            QMessageBox::Yes)
            removeRemoteSource(index);
    });
    connect(importFile_, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Import a model package"), QString(),
                                                          tr("Diamond model packages (*.diamond)"));
        if (!file.isEmpty()) importFile(file);
    });
    connect(detail_->importButton(), &QPushButton::clicked, this, &GalleryPage::importCurrent);
    connect(detail_->openButton(), &QPushButton::clicked, this, &GalleryPage::openCurrentInDesigner);
    connect(detail_->fineTuneButton(), &QPushButton::clicked, this, &GalleryPage::fineTuneCurrent);
    connect(detail_->removeButton(), &QPushButton::clicked, this, [this] { removeCurrent(true); });
    connect(detail_->trustButton(), &QPushButton::clicked, this, [this] { toggleTrustCurrent(true); });
    connect(detail_->exportButton(), &QPushButton::clicked, this, [this] {
        const GalleryEntry *e = model_->entryAt(model_->rowOf(currentEntryId()));
        const QString suggested = e ? QStringLiteral("%1-%2.diamond").arg(e->name, e->version) : QString();
        const QString file = QFileDialog::getSaveFileName(this, tr("Export model package"), suggested,
                                                          tr("Diamond model packages (*.diamond)"));
        if (!file.isEmpty()) exportCurrent(file);
    });
    removeRemote_->setEnabled(false);
}

bool GalleryPage::eventFilter(QObject *watched, QEvent *event) {
    if (watched == view_->viewport() && event->type() == QEvent::Resize) {
        // Stretch the cells so that whole cards fill each row instead of leaving a ragged gap on the right.
        const QSize card = GalleryCardDelegate::cardSize(view_->font());
        // Slack for a vertical scroll bar, so that a row never wraps when one appears.
        const int available = view_->viewport()->width() - 2 * view_->spacing() -
                              view_->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, view_) - 4;
        const int columns = qMax(1, available / card.width());
        const int width = qMin(available / columns, card.width() * 3 / 2);
        const QSize grid(qMax(card.width(), width), card.height());
        if (grid != view_->gridSize()) view_->setGridSize(grid);
    }
    return QWidget::eventFilter(watched, event);
}

void GalleryPage::addSourceItem(app::gallery::GallerySource *source, int row) {
    auto *item = new QListWidgetItem(style()->standardIcon(QStyle::SP_DriveNetIcon), source->displayName());
    item->setToolTip(source->location());
    sources_->insertItem(row, item);
}

void GalleryPage::connectSource(app::gallery::GallerySource *source) {
    connect(source, &app::gallery::GallerySource::searched, this,
            [this, source](int request, const QList<GalleryEntry> &entries, int total, const QString &error) {
                if (source != current_ || request != searchRequest_) return; // stale
                searchRequest_ = 0;
                const qint64 keep = pendingSelection_ ? pendingSelection_ : currentEntryId();
                pendingSelection_ = 0;
                model_->setEntries(entries);
                total_ = total;
                updateFilterChoices(entries);
                count_->setText(total > entries.size() ? tr("%1 of %n model(s)", "", total).arg(entries.size())
                                                       : tr("%n model(s)", "", int(entries.size())));
                showMessage(error, !error.isEmpty());
                if (!selectEntry(keep)) detail_->clear();
                Q_EMIT loaded();
            });
    connect(source, &app::gallery::GallerySource::thumbnailReady, this,
            [this, source](qint64 id, const QByteArray &png) {
                if (source != current_) return;
                model_->setThumbnail(id, png);
                if (detail_->entryId() == id) detail_->setThumbnail(png);
            });
    connect(source, &app::gallery::GallerySource::entryFetched, this,
            [this, source](int request, const GalleryEntry &entry, const QString &error) {
                if (source != current_ || request != entryRequest_) return;
                entryRequest_ = 0;
                if (!error.isEmpty()) {
                    detail_->clear(error);
                    return;
                }
                detail_->showEntry(entry, source->isRemote());
                detail_->setBusy(actionRunning_);
                Q_EMIT entryShown(entry.id);
            });
}

int GalleryPage::sourceCount() const { return 1 + int(remotes_.size()); }

app::gallery::GallerySource *GalleryPage::source(int index) const {
    if (index == 0) return local_;
    return index > 0 && index <= remotes_.size() ? remotes_.at(index - 1) : nullptr;
}

int GalleryPage::currentSourceIndex() const { return sources_->currentRow(); }

void GalleryPage::setCurrentSource(int index) {
    if (index < 0 || index >= sourceCount()) return;
    if (sources_->currentRow() != index) {
        sources_->setCurrentRow(index); // comes back here through currentRowChanged
        return;
    }
    current_ = source(index);
    removeRemote_->setEnabled(index > 0);
    importFile_->setEnabled(local_ != nullptr);
    entryRequest_ = 0;
    model_->clear();
    detail_->clear();
    for (QComboBox *box : {task_, domain_, license_}) {
        const QSignalBlocker block(box);
        box->setCurrentIndex(0);
    }
    refresh();
}

void GalleryPage::setWorkspaceFolder(const QString &folder) {
    if (current_ == local_) current_ = nullptr;
    if (local_) setActionRunning(false); // imports into the old workspace end with it
    delete local_;
    local_ = folder.isEmpty() ? nullptr : new app::gallery::LocalGallerySource(folder, this);
    if (local_) {
        connectSource(local_);
        connect(local_, &app::gallery::LocalGallerySource::removed, this, [this](int, qint64 id, const QString &error) {
            setActionRunning(false);
            if (!error.isEmpty()) return showMessage(tr("Could not remove entry %1: %2").arg(id).arg(error), true);
            showMessage(tr("Removed entry %1 from this workspace's gallery.").arg(id));
            if (current_ == local_) refresh();
        });
        connect(local_, &app::gallery::LocalGallerySource::trustChanged, this,
                [this](int, qint64 id, bool trusted, const QString &error) {
                    setActionRunning(false);
                    if (!error.isEmpty())
                        return showMessage(tr("Could not change the trust list: %1").arg(error), true);
                    showMessage(trusted ? tr("The publisher of entry %1 is now on this gallery's trust list.").arg(id)
                                        : tr("The publisher of entry %1 is no longer trusted.").arg(id));
                    if (current_ != local_) return;
                    refresh();
                    if (detail_->entryId() == id) entryRequest_ = local_->fetchEntry(id);
                });
    }
    sources_->item(0)->setToolTip(folder.isEmpty() ? tr("No workspace is open") : QDir::toNativeSeparators(folder));
    if (sources_->currentRow() <= 0) {
        if (sources_->currentRow() == 0)
            setCurrentSource(0);
        else
            sources_->setCurrentRow(0);
    }
}

QString GalleryPage::workspaceFolder() const { return local_ ? local_->location() : QString(); }

int GalleryPage::addRemoteSource(const QString &name, const QString &url, const QString &token) {
    for (int i = 0; i < remotes_.size(); ++i)
        if (remotes_.at(i)->location() == url) {
            removeRemoteSource(i + 1);
            break;
        }
    auto *source = new app::gallery::RemoteGallerySource(name, url, token, this);
    remotes_.append(source);
    connectSource(source);
    addSourceItem(source, int(remotes_.size()));
    rememberRemotes();
    app::runInBackground(
        source,
        [store = credentials_, key = remoteTokenKey(url), token] {
            QString error;
            return store->store(key, token, &error) ? QString() : error;
        },
        [this, source](const QString &error) {
            if (!error.isEmpty())
                showMessage(
                    tr("The token of \"%1\" is kept for this session only: %2").arg(source->displayName(), error),
                    true);
        });
    return int(remotes_.size());
}

void GalleryPage::removeRemoteSource(int index) {
    if (index < 1 || index > remotes_.size()) return;
    app::gallery::RemoteGallerySource *source = remotes_.takeAt(index - 1);
    const bool wasCurrent = current_ == source;
    if (wasCurrent) {
        current_ = nullptr;
        setActionRunning(false); // a download from it ends with it
    }
    delete sources_->takeItem(index);
    app::runInBackground(
        this,
        [store = credentials_, key = remoteTokenKey(source->location())] {
            store->forget(key);
            return true;
        },
        [](bool) {});
    delete source;
    rememberRemotes();
    if (wasCurrent) setCurrentSource(qMin(index, sourceCount() - 1));
}

void GalleryPage::rememberRemotes() const {
    QList<RemoteSourceInfo> list;
    for (const app::gallery::RemoteGallerySource *r : remotes_)
        list.append({r->displayName(), r->location()});
    saveRemoteSources(list);
}

GalleryQuery GalleryPage::query() const {
    GalleryQuery q;
    q.text = search_->text().trimmed();
    q.task = task_->currentData().toString();
    q.domain = domain_->currentData().toString();
    q.license = license_->currentData().toString();
    q.consistentOnly = consistentOnly_->isChecked();
    q.limit = 200;
    const QString sort = sort_->currentData().toString();
    q.ascending = sort.endsWith(QLatin1String("-asc"));
    if (sort.startsWith(QLatin1String("metric")))
        q.sort = GalleryQuery::Sort::Metric;
    else if (sort.startsWith(QLatin1String("date")))
        q.sort = GalleryQuery::Sort::Date;
    else if (sort.startsWith(QLatin1String("name")))
        q.sort = GalleryQuery::Sort::Name;
    else
        q.sort = q.text.isEmpty() ? GalleryQuery::Sort::Date : GalleryQuery::Sort::Relevance;
    return q;
}

void GalleryPage::refresh() {
    searchTimer_->stop();
    if (!current_) {
        model_->clear();
        count_->clear();
        showMessage(currentSourceIndex() == 0 ? tr("No workspace is open.") : QString());
        searchRequest_ = 0;
        return;
    }
    searchRequest_ = current_->search(query());
}

void GalleryPage::updateFilterChoices(const QList<GalleryEntry> &entries) {
    auto merge = [](QComboBox *box, const QString &any, auto field, const QList<GalleryEntry> &list) {
        QStringList values;
        for (int i = 1; i < box->count(); ++i)
            values << box->itemData(i).toString();
        for (const GalleryEntry &e : list)
            if (!(e.*field).isEmpty() && !values.contains(e.*field)) values << e.*field;
        setChoices(box, any, values);
    };
    merge(task_, tr("Any task"), &GalleryEntry::task, entries);
    merge(domain_, tr("Any domain"), &GalleryEntry::domain, entries);
    merge(license_, tr("Any license"), &GalleryEntry::license, entries);
}

void GalleryPage::showMessage(const QString &text, bool error) {
    message_->setText(text);
    message_->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
    if (!text.isEmpty()) Q_EMIT statusMessage(text);
}

bool GalleryPage::selectEntry(qint64 id) {
    const int row = id > 0 ? model_->rowOf(id) : -1;
    if (row < 0) return false;
    const QModelIndex index = model_->index(row);
    view_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect);
    view_->scrollTo(index);
    if (detail_->entryId() != id && entryRequest_ == 0) onCurrentChanged();
    return true;
}

qint64 GalleryPage::currentEntryId() const {
    const GalleryEntry *e = model_->entryAt(view_->selectionModel()->currentIndex().row());
    return e ? e->id : 0;
}

void GalleryPage::onCurrentChanged() {
    const qint64 id = currentEntryId();
    if (!current_ || id == 0) {
        detail_->clear();
        return;
    }
    entryRequest_ = current_->fetchEntry(id);
}

void GalleryPage::setActionRunning(bool running) {
    actionRunning_ = running;
    detail_->setBusy(running);
    importFile_->setEnabled(!running && local_);
}

void GalleryPage::importCurrent() {
    auto *remote = qobject_cast<app::gallery::RemoteGallerySource *>(current_);
    const qint64 id = currentEntryId();
    if (!remote || id == 0 || actionRunning_) return;
    if (!local_) return detail_->setStatus(tr("Open a workspace to import models into."), true);
    setActionRunning(true);
    QProgressBar *bar = detail_->progressBar();
    bar->setRange(0, 100);
    bar->setValue(0);
    bar->setFormat(tr("Downloading… %p%"));
    bar->setVisible(true);
    detail_->setStatus(tr("Downloading the package from \"%1\"…").arg(remote->displayName()));
    const int request = remote->fetchPackage(id, QString());
    auto progress = std::make_shared<QMetaObject::Connection>();
    auto done = std::make_shared<QMetaObject::Connection>();
    *progress = connect(remote, &app::gallery::GallerySource::packageProgress, this,
                        [bar, request](int r, qint64 got, qint64 total) {
                            if (r != request) return;
                            if (total > 0)
                                bar->setValue(int(got * 100 / total));
                            else
                                bar->setRange(0, 0);
                        });
    *done = connect(remote, &app::gallery::GallerySource::packageFetched, this,
                    [this, bar, request, progress, done](int r, const QString &file, const QString &error) {
                        if (r != request) return;
                        disconnect(*progress);
                        disconnect(*done);
                        if (!error.isEmpty()) {
                            setActionRunning(false);
                            bar->setVisible(false);
                            detail_->setStatus(error, true);
                            Q_EMIT importFinished(0, false, error);
                            return;
                        }
                        bar->setRange(0, 100);
                        bar->setValue(100);
                        bar->setFormat(tr("Downloaded %p%"));
                        detail_->setStatus(tr("Checking the package and re-running its test inputs…"));
                        const int importRequest = local_->importPackage(file);
                        auto imported = std::make_shared<QMetaObject::Connection>();
                        *imported = connect(
                            local_, &app::gallery::LocalGallerySource::imported, this,
                            [this, importRequest, imported, file](int ir, const app::gallery::GalleryImportOutcome &o) {
                                if (ir != importRequest) return;
                                disconnect(*imported);
                                afterImport(o, file);
                            });
                    });
}

void GalleryPage::importFile(const QString &file) {
    if (!local_ || actionRunning_) return;
    setActionRunning(true);
    showMessage(tr("Importing %1: checking it and re-running its test inputs…").arg(QDir::toNativeSeparators(file)));
    const int request = local_->importPackage(file);
    auto imported = std::make_shared<QMetaObject::Connection>();
    *imported = connect(local_, &app::gallery::LocalGallerySource::imported, this,
                        [this, request, imported](int r, const app::gallery::GalleryImportOutcome &o) {
                            if (r != request) return;
                            disconnect(*imported);
                            afterImport(o, QString());
                        });
}

void GalleryPage::afterImport(const app::gallery::GalleryImportOutcome &o, const QString &tempFile) {
    setActionRunning(false);
    if (!tempFile.isEmpty()) QFile::remove(tempFile);
    QString text;
    if (o.entryId == 0)
        text = tr("The package was refused (%1): %2").arg(o.code, o.message);
    else if (o.alreadyPresent)
        text = tr("Already in this workspace's gallery as entry %1 (%2).").arg(o.entryId).arg(o.message);
    else if (o.consistent)
        text = tr("Imported into this workspace as entry %1, consistent: %2").arg(o.entryId).arg(o.message);
    else
        text = tr("Imported into this workspace as entry %1, NOT consistent: %2").arg(o.entryId).arg(o.message);
    detail_->setStatus(text, o.entryId == 0);
    showMessage(text, o.entryId == 0);
    if (current_ == local_ && local_) {
        pendingSelection_ = o.entryId;
        refresh();
    }
    Q_EMIT importFinished(o.entryId, o.consistent, o.entryId ? o.message : text);
}

void GalleryPage::exportCurrent(const QString &file) {
    const qint64 id = currentEntryId();
    if (!current_ || id == 0 || actionRunning_) return;
    setActionRunning(true);
    QProgressBar *bar = detail_->progressBar();
    bar->setRange(0, 100);
    bar->setValue(0);
    bar->setFormat(tr("Exporting… %p%"));
    bar->setVisible(current_->isRemote());
    app::gallery::GallerySource *source = current_;
    const int request = source->fetchPackage(id, file);
    auto progress = std::make_shared<QMetaObject::Connection>();
    auto done = std::make_shared<QMetaObject::Connection>();
    *progress = connect(source, &app::gallery::GallerySource::packageProgress, this,
                        [bar, request](int r, qint64 got, qint64 total) {
                            if (r == request && total > 0) bar->setValue(int(got * 100 / total));
                        });
    *done = connect(source, &app::gallery::GallerySource::packageFetched, this,
                    [this, request, progress, done](int r, const QString &written, const QString &error) {
                        if (r != request) return;
                        disconnect(*progress);
                        disconnect(*done);
                        setActionRunning(false);
                        detail_->setStatus(
                            error.isEmpty() ? tr("Exported to %1.").arg(QDir::toNativeSeparators(written)) : error,
                            !error.isEmpty());
                        Q_EMIT exportFinished(written, error);
                    });
}

void GalleryPage::openCurrentInDesigner() {
    const qint64 id = currentEntryId();
    const GalleryEntry *e = model_->entryAt(model_->rowOf(id));
    if (!current_ || !e || actionRunning_) return;
    setActionRunning(true);
    detail_->setStatus(tr("Reading the spec from the package…"));
    app::gallery::GallerySource *source = current_;
    const QString title = e->title.isEmpty() ? e->name : e->title;
    const bool temporary = source->isRemote();
    const int request = source->fetchPackage(id, QString());
    auto done = std::make_shared<QMetaObject::Connection>();
    *done = connect(source, &app::gallery::GallerySource::packageFetched, this,
                    [this, request, done, title, temporary](int r, const QString &file, const QString &error) {
                        if (r != request) return;
                        disconnect(*done);
                        if (!error.isEmpty()) {
                            setActionRunning(false);
                            return detail_->setStatus(error, true);
                        }
                        app::runInBackground(
                            this,
                            [file, temporary] {
                                const SpecResult s = readCheckedSpec(file);
                                if (temporary) QFile::remove(file);
                                return s;
                            },
                            [this, title](const SpecResult &s) {
                                setActionRunning(false);
                                detail_->setStatus(s.error.isEmpty() ? tr("Opened \"%1\" in the designer.").arg(title)
                                                                     : s.error,
                                                   !s.error.isEmpty());
                                if (s.error.isEmpty()) Q_EMIT openSpecRequested(s.spec, title);
                            });
                    });
}

void GalleryPage::fineTuneCurrent() {
    const qint64 id = currentEntryId();
    if (current_ != local_ || !local_ || id == 0 || actionRunning_) return;
    const int request = local_->fetchPackage(id, QString());
    auto done = std::make_shared<QMetaObject::Connection>();
    *done = connect(local_, &app::gallery::GallerySource::packageFetched, this,
                    [this, request, done, id](int r, const QString &file, const QString &error) {
                        if (r != request) return;
                        disconnect(*done);
                        if (!error.isEmpty()) return detail_->setStatus(error, true);
                        Q_EMIT fineTuneRequested(id, file);
                    });
}

void GalleryPage::removeCurrent(bool ask) {
    const qint64 id = currentEntryId();
    const GalleryEntry *e = model_->entryAt(model_->rowOf(id));
    if (current_ != local_ || !local_ || !e || actionRunning_) return;
    if (ask) {
        QMessageBox box(QMessageBox::Question, tr("Remove model"),
                        tr("Remove \"%1\" %2 from this workspace's gallery?").arg(e->name, e->version),
                        QMessageBox::Yes | QMessageBox::No, this);
        box.setTextFormat(Qt::PlainText);
        if (box.exec() != QMessageBox::Yes) return;
    }
    setActionRunning(true);
    local_->remove(id);
}

void GalleryPage::toggleTrustCurrent(bool ask) {
    const qint64 id = currentEntryId();
    if (current_ != local_ || !local_ || id == 0 || id != detail_->entryId() || actionRunning_ ||
        detail_->fingerprint().isEmpty())
        return;
    const bool trust = !detail_->isTrusted();
    if (ask) {
        QMessageBox box(QMessageBox::Question, trust ? tr("Trust publisher") : tr("Stop trusting publisher"),
                        trust ? tr("Trust every package signed with this key?\n\nName in the signature: %1\nKey: %2\n\n"
                                   "Anyone can sign with any name. Compare the key with the one its owner gave "
                                   "you (diamondctl gallery key prints it).")
                                    .arg(detail_->publisher(), detail_->fingerprint())
                              : tr("Stop trusting packages signed with this key?\n\nName in the signature: %1\nKey: %2")
                                    .arg(detail_->publisher(), detail_->fingerprint()),
                        QMessageBox::Yes | QMessageBox::No, this);
        box.setTextFormat(Qt::PlainText);
        if (box.exec() != QMessageBox::Yes) return;
    }
    setActionRunning(true);
    local_->setPublisherTrusted(id, trust);
}

PublishDialog *GalleryPage::publishRun(qint64 runId) {
    if (!local_) return nullptr;
    auto *dialog = new PublishDialog(local_->location(), runId, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &PublishDialog::published, this, [this](qint64 entryId) {
        pendingSelection_ = entryId;
        if (current_ != local_) return setCurrentSource(0);
        refresh();
    });
    dialog->open();
    return dialog;
}

} // namespace diamond::ui
