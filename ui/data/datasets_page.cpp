#include "ui/data/datasets_page.h"

#include "app/workspace/workspace.h"
#include "ui/run/dataset_preview.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace diamond::ui {

namespace {

struct ImportOutcome {
    bool ok = false;
    bool unchanged = false;
    QString refOrError;
};

QString sizeText(qint64 bytes) { return QLocale().formattedDataSize(bytes); }

} // namespace

// --- ClassBalanceView ---

ClassBalanceView::ClassBalanceView(QWidget *parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
}

void ClassBalanceView::setClasses(const QList<QPair<QString, qint64>> &classes) {
    classes_ = classes;
    updateGeometry();
    update();
}

QSize ClassBalanceView::sizeHint() const {
    const int row = fontMetrics().height() + 6;
    return {360, int(std::min<qsizetype>(classes_.size(), 24)) * row + 4};
}

void ClassBalanceView::paintEvent(QPaintEvent *) {
    QPainter p(this);
    const int row = fontMetrics().height() + 6;
    qint64 most = 1;
    int labelWidth = 0;
    for (const auto &[name, count] : classes_) {
        most = std::max(most, count);
        labelWidth = std::max(labelWidth, fontMetrics().horizontalAdvance(name));
    }
    labelWidth = std::min(labelWidth + 12, width() / 3);
    const int countWidth = fontMetrics().horizontalAdvance(QLocale().toString(most)) + 12;
    const int barSpace = std::max(10, width() - labelWidth - countWidth);
    const QColor bar = palette().color(QPalette::Highlight);
    for (int i = 0; i < classes_.size() && i < 24; ++i) {
        const int y = 2 + i * row;
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(0, y, labelWidth - 8, row), Qt::AlignRight | Qt::AlignVCenter,
                   fontMetrics().elidedText(classes_[i].first, Qt::ElideRight, labelWidth - 8));
        const int w = std::max(2, int(double(barSpace) * double(classes_[i].second) / double(most)));
        p.fillRect(QRect(labelWidth, y + 3, w, row - 6), bar);
        p.drawText(QRect(labelWidth + w + 6, y, countWidth, row), Qt::AlignLeft | Qt::AlignVCenter,
                   QLocale().toString(classes_[i].second));
    }
}

// --- DatasetsPage ---

DatasetsPage::DatasetsPage(QWidget *parent) : QWidget(parent) {
    buildUi();
    progressTimer_ = new QTimer(this);
    progressTimer_->setInterval(100);
    connect(progressTimer_, &QTimer::timeout, this, [this] {
        if (!done_ || !total_) return;
        const qint64 total = total_->load();
        progress_->setValue(total > 0 ? int(1000.0 * double(done_->load()) / double(total)) : 0);
        progressLabel_->setText(tr("Hashing %1 of %2…").arg(sizeText(done_->load()), sizeText(total)));
    });
}

DatasetsPage::~DatasetsPage() {
    if (cancelled_) cancelled_->store(true);
}

void DatasetsPage::buildUi() {
    auto *layout = new QVBoxLayout(this);
    auto *buttons = new QHBoxLayout;
    addFile_ = new QPushButton(tr("Add &file…"), this);
    addFile_->setObjectName(QStringLiteral("addDatasetFile"));
    addFile_->setToolTip(tr("Register a CSV, NumPy, HDF5 or IDX file (a new version when the name exists)"));
    addFolder_ = new QPushButton(tr("Add f&older…"), this);
    addFolder_->setObjectName(QStringLiteral("addDatasetFolder"));
    addFolder_->setToolTip(tr("Register a folder, e.g. images in one sub-folder per class"));
    newVersion_ = new QPushButton(tr("&New version…"), this);
    newVersion_->setObjectName(QStringLiteral("newDatasetVersion"));
    newVersion_->setToolTip(tr("Import a changed copy as the next version of the selected dataset; only changed "
                               "content is stored"));
    remove_ = new QPushButton(tr("&Remove…"), this);
    remove_->setObjectName(QStringLiteral("removeDataset"));
    use_ = new QPushButton(tr("&Use in run set-up"), this);
    use_->setObjectName(QStringLiteral("useDatasetInRun"));
    use_->setDefault(true);
    for (QPushButton *b : {addFile_, addFolder_, newVersion_, remove_})
        buttons->addWidget(b);
    buttons->addStretch();
    progressLabel_ = new QLabel(this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(260);
    cancel_ = new QPushButton(tr("Cancel"), this);
    for (QWidget *w :
         {static_cast<QWidget *>(progressLabel_), static_cast<QWidget *>(progress_), static_cast<QWidget *>(cancel_)}) {
        w->hide();
        buttons->addWidget(w);
    }
    buttons->addWidget(use_);
    layout->addLayout(buttons);

    auto *split = new QSplitter(this);
    list_ = new QListWidget(split);
    list_->setObjectName(QStringLiteral("datasetList"));
    list_->setObjectName(QStringLiteral("datasetList"));
    list_->setMinimumWidth(220);
    auto *scroll = new QScrollArea(split);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *detail = new QWidget(scroll);
    auto *column = new QVBoxLayout(detail);
    auto *head = new QHBoxLayout;
    title_ = new QLabel(detail);
    QFont big = title_->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    title_->setFont(big);
    title_->setTextFormat(Qt::PlainText);
    versions_ = new QComboBox(detail);
    versions_->setObjectName(QStringLiteral("datasetVersions"));
    versions_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    head->addWidget(title_, 1);
    head->addWidget(new QLabel(tr("Version:"), detail));
    head->addWidget(versions_);
    column->addLayout(head);
    info_ = new QLabel(detail);
    info_->setWordWrap(true);
    info_->setTextFormat(Qt::PlainText);
    info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    task_ = new QLabel(detail);
    task_->setWordWrap(true);
    task_->setTextFormat(Qt::PlainText);
    column->addWidget(info_);
    column->addWidget(task_);
    auto *problemsBox = new QGroupBox(tr("Checks before training"), detail);
    auto *problemsLayout = new QVBoxLayout(problemsBox);
    problems_ = new QLabel(problemsBox);
    problems_->setObjectName(QStringLiteral("datasetProblems"));
    problems_->setWordWrap(true);
    problems_->setTextFormat(Qt::PlainText);
    problemsLayout->addWidget(problems_);
    column->addWidget(problemsBox);
    auto *balanceBox = new QGroupBox(tr("Class balance"), detail);
    auto *balanceLayout = new QVBoxLayout(balanceBox);
    balance_ = new ClassBalanceView(balanceBox);
    balanceLayout->addWidget(balance_);
    column->addWidget(balanceBox);
    auto *previewBox = new QGroupBox(tr("Preview"), detail);
    auto *previewLayout = new QVBoxLayout(previewBox);
    preview_ = new DatasetPreviewWidget(previewBox);
    previewLayout->addWidget(preview_);
    column->addWidget(previewBox, 1);
    scroll->setWidget(detail);
    split->addWidget(list_);
    split->addWidget(scroll);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);

    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row < summaries_.size()) showDataset(summaries_[row].name, 0);
    });
    connect(versions_, &QComboBox::activated, this, [this](int index) {
        if (!current_.name.isEmpty()) showDataset(current_.name, versions_->itemData(index).toInt());
    });
    connect(addFile_, &QPushButton::clicked, this, [this] { chooseAndImport(false, false); });
    connect(addFolder_, &QPushButton::clicked, this, [this] { chooseAndImport(true, false); });
    connect(newVersion_, &QPushButton::clicked, this, [this] {
        const QFileInfo source(current_.source);
        chooseAndImport(source.isDir(), true);
    });
    connect(remove_, &QPushButton::clicked, this, [this] { removeCurrent(true); });
    connect(use_, &QPushButton::clicked, this, [this] {
        if (!current_.name.isEmpty()) Q_EMIT useInRunRequested(current_.name);
    });
    connect(cancel_, &QPushButton::clicked, this, [this] {
        if (cancelled_) cancelled_->store(true);
    });
    showDataset({}, 0);
}

void DatasetsPage::setWorkspaceFolder(const QString &folder) {
    folder_ = folder;
    ws_.reset();
    if (!folder.isEmpty()) {
        ws_ = std::make_unique<app::Workspace>();
        if (!ws_->open(folder)) ws_.reset();
    }
    current_ = {};
    reload();
}

void DatasetsPage::reload() {
    const QString keep = current_.name;
    const int keepVersion = current_.version;
    summaries_ = ws_ ? app::DatasetStore(*ws_).list() : QList<app::DatasetSummary>();
    const QSignalBlocker block(list_);
    list_->clear();
    for (const app::DatasetSummary &s : std::as_const(summaries_)) {
        auto *item = new QListWidgetItem(tr("%1\n%2 · %3 · %n version(s)", nullptr, s.versions)
                                             .arg(s.name, s.latest.format, sizeText(s.latest.sizeBytes)),
                                         list_);
        item->setData(Qt::UserRole, s.name);
        if (!s.latest.problems.isEmpty()) item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
    }
    if (summaries_.isEmpty()) {
        showDataset({}, 0);
    } else if (!selectDataset(keep, keepVersion)) {
        selectDataset(summaries_.first().name);
    }
    for (QPushButton *b : {newVersion_, remove_, use_})
        b->setEnabled(!current_.name.isEmpty() && !importing_);
    for (QPushButton *b : {addFile_, addFolder_})
        b->setEnabled(ws_ && !importing_);
}

bool DatasetsPage::selectDataset(const QString &name, int version) {
    for (int i = 0; i < summaries_.size(); ++i) {
        if (summaries_[i].name != name) continue;
        {
            const QSignalBlocker block(list_);
            list_->setCurrentRow(i);
        }
        showDataset(name, version);
        return true;
    }
    return false;
}

QString DatasetsPage::currentName() const { return current_.name; }

void DatasetsPage::showDataset(const QString &name, int version) {
    current_ = {};
    if (ws_ && !name.isEmpty()) {
        app::DatasetStore store(*ws_);
        if (const auto v = store.resolve(version > 0 ? QStringLiteral("%1@%2").arg(name).arg(version) : name))
            current_ = *v;
        const QSignalBlocker block(versions_);
        versions_->clear();
        const QList<app::DatasetVersion> all = store.versions(name);
        for (auto it = all.crbegin(); it != all.crend(); ++it)
            versions_->addItem(
                tr("%1 — %2").arg(it->version).arg(it->createdAt.left(16).replace(QLatin1Char('T'), QLatin1Char(' '))),
                it->version);
        versions_->setCurrentIndex(versions_->findData(current_.version));
    }
    if (current_.name.isEmpty()) {
        title_->setText(ws_ ? tr("No dataset yet") : tr("No workspace is open"));
        info_->setText(tr("Add a file (CSV, NumPy, HDF5, IDX) or a folder of images in one sub-folder per class. "
                          "Diamond keeps versions by content: a changed copy stores only what changed, and a cluster "
                          "receives only what it does not hold yet."));
        task_->clear();
        problems_->clear();
        balance_->setClasses({});
        versions_->clear();
        preview_->showDataset(QStringLiteral("spirals"), {});
        return;
    }
    const app::DatasetVersion &v = current_;
    title_->setText(v.ref());
    info_->setText(tr("%1 · %2 rows · %n file(s) · %3 (%4 new in this version)\nFrom %5, added by %6 on %7\n"
                      "Content SHA-256 %8",
                      nullptr, v.fileCount)
                       .arg(v.format)
                       .arg(v.rows >= 0 ? QLocale().toString(v.rows) : tr("unknown"))
                       .arg(sizeText(v.sizeBytes), sizeText(v.newBytes), v.source, v.createdBy,
                            v.createdAt.left(19).replace(QLatin1Char('T'), QLatin1Char(' ')),
                            QString::fromLatin1(v.manifestHash.left(16))));
    const QJsonObject classes = v.schema.value(QStringLiteral("classes")).toObject();
    const QString taskName = v.schema.value(QStringLiteral("task")).toString();
    QString task = taskName.isEmpty() ? tr("Task: not inferred for this format.")
                                      : tr("Task: %1")
                                            .arg(taskName == QLatin1String("classification")
                                                     ? tr("classification, %n class(es)", nullptr, int(classes.size()))
                                                     : tr("regression"));
    if (v.schema.contains(QStringLiteral("target")))
        task += tr(" · target column '%1'").arg(v.schema.value(QStringLiteral("target")).toString());
    if (v.schema.value(QStringLiteral("skip_rows")).toInt() > 0)
        task += tr(" · skip_rows %1").arg(v.schema.value(QStringLiteral("skip_rows")).toInt());
    task_->setText(task);
    problems_->setText(v.problems.isEmpty() ? tr("✓ No problems found.")
                                            : QStringLiteral("⚠ ") + v.problems.join(QStringLiteral("\n⚠ ")));
    problems_->setStyleSheet(v.problems.isEmpty() ? QStringLiteral("color: #2e7d32;")
                                                  : QStringLiteral("color: #b35c00;"));
    QList<QPair<QString, qint64>> bars;
    for (auto it = classes.constBegin(); it != classes.constEnd(); ++it)
        bars.append({it.key(), it.value().toInteger()});
    balance_->setClasses(bars);
    // The preview reads the workspace's copy of the version (built from the chunk store on first use).
    const QString copy = app::DatasetStore(*ws_).localCopy(v);
    QString path = copy;
    if (!copy.isEmpty() && v.manifest.files.size() == 1) path = copy + QLatin1Char('/') + v.manifest.files.first().path;
    preview_->showDataset(v.format, path, v.schema.value(QStringLiteral("skip_rows")).toInt());
}

void DatasetsPage::chooseAndImport(bool folder, bool newVersionOfCurrent) {
    auto *dialog =
        new QFileDialog(this, newVersionOfCurrent ? tr("New version of %1").arg(current_.name) : tr("Add a dataset"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(folder ? QFileDialog::Directory : QFileDialog::ExistingFile);
    if (!folder)
        dialog->setNameFilters(
            {tr("Data files (*.csv *.tsv *.csv.gz *.npy *.npz *.h5 *.hdf5 *-ubyte *.idx *.gz)"), tr("All files (*)")});
    const QString name = newVersionOfCurrent ? current_.name : QString();
    connect(dialog, &QFileDialog::fileSelected, this, [this, name](const QString &path) {
        importPath(path, name.isEmpty() ? app::DatasetStore::nameForPath(path) : name);
    });
    dialog->open();
}

void DatasetsPage::importPath(const QString &path, const QString &name) {
    if (importing_ || folder_.isEmpty()) return;
    importing_ = true;
    done_ = std::make_shared<std::atomic<qint64>>(0);
    total_ = std::make_shared<std::atomic<qint64>>(0);
    cancelled_ = std::make_shared<std::atomic<bool>>(false);
    progress_->setValue(0);
    progressLabel_->setText(tr("Hashing %1…").arg(QFileInfo(path).fileName()));
    for (QWidget *w :
         {static_cast<QWidget *>(progressLabel_), static_cast<QWidget *>(progress_), static_cast<QWidget *>(cancel_)})
        w->show();
    progressTimer_->start();
    reload();
    auto *watcher = new QFutureWatcher<ImportOutcome>(this);
    connect(watcher, &QFutureWatcher<ImportOutcome>::finished, this, [this, watcher, name] {
        const ImportOutcome out = watcher->result();
        watcher->deleteLater();
        importing_ = false;
        progressTimer_->stop();
        for (QWidget *w : {static_cast<QWidget *>(progressLabel_), static_cast<QWidget *>(progress_),
                           static_cast<QWidget *>(cancel_)})
            w->hide();
        reload();
        if (out.ok) {
            selectDataset(name);
            Q_EMIT statusMessage(out.unchanged ? tr("%1 is unchanged; no new version.").arg(out.refOrError)
                                               : tr("Added %1.").arg(out.refOrError));
            Q_EMIT datasetsChanged();
        } else {
            Q_EMIT statusMessage(tr("The dataset was not added: %1").arg(out.refOrError));
        }
        Q_EMIT importFinished(out.ok, out.refOrError);
    });
    watcher->setFuture(
        QtConcurrent::run([folder = folder_, path, name, done = done_, total = total_, cancelled = cancelled_] {
            ImportOutcome out;
            app::Workspace ws; // this thread's own connection
            if (!ws.open(folder)) {
                out.refOrError = ws.errorString();
                return out;
            }
            app::DatasetStore store(ws);
            const auto v = store.addVersion(
                name, path,
                [&](qint64 d, qint64 t) {
                    done->store(d);
                    total->store(t);
                    return !cancelled->load();
                },
                &out.unchanged);
            out.ok = v.has_value();
            out.refOrError = v ? v->ref() : store.errorString();
            return out;
        }));
}

void DatasetsPage::removeCurrent(bool ask) {
    if (!ws_ || current_.name.isEmpty()) return;
    const QString name = current_.name;
    auto remove = [this, name] {
        app::DatasetStore store(*ws_);
        qint64 freed = 0;
        if (!store.remove(name, &freed)) {
            Q_EMIT statusMessage(store.errorString());
            return;
        }
        current_ = {};
        reload();
        Q_EMIT statusMessage(tr("Removed %1; %2 freed.").arg(name, sizeText(freed)));
        Q_EMIT datasetsChanged();
    };
    if (!ask) return remove();
    auto *box = new QMessageBox(QMessageBox::Question, tr("Remove dataset"),
                                tr("Remove %1 and all its versions? Runs keep their settings but can no longer be "
                                   "resumed from this dataset.")
                                    .arg(name),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [remove](int result) {
        if (result == QMessageBox::Yes) remove();
    });
    box->open();
}

} // namespace diamond::ui
