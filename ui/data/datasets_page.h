// DatasetsPage: the workspace's registered datasets (a central tab, View ▸ Data). The left list shows every dataset;
// the right side shows the chosen version: where it came from, its format, rows and size, the inferred task, the
// class balance as bars, the problems found on import (missing values, constant columns, imbalance, a metadata line
// above a CSV table) and a preview (first rows, image thumbnails, value histogram). Importing a file or folder (a
// new version when the name exists) hashes it on a worker thread with a progress bar and a Cancel button; nothing
// here blocks the GUI thread. "Use in run set-up" hands the dataset to the run set-up page.
#pragma once

#include "app/data/dataset_store.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTimer;

namespace diamond::ui {

class ClassBalanceView;
class DatasetPreviewWidget;

class DatasetsPage : public QWidget {
    Q_OBJECT
public:
    explicit DatasetsPage(QWidget *parent = nullptr);
    ~DatasetsPage() override;

    /// The workspace whose datasets are shown (empty: none).
    void setWorkspaceFolder(const QString &folder);
    QString workspaceFolder() const { return folder_; }
    /// Lists the datasets again (keeps the selection).
    void reload();
    /// Every dataset's newest version (without manifests), by name.
    QList<app::DatasetSummary> datasets() const { return summaries_; }
    /// Selects a dataset (and a version; 0: newest); false when there is none of that name.
    bool selectDataset(const QString &name, int version = 0);
    QString currentName() const;
    /// The shown version (empty name: none).
    app::DatasetVersion currentVersion() const { return current_; }

    /// Imports `path` (a file or a folder) as a new version of `name` on a worker thread; importFinished() reports.
    void importPath(const QString &path, const QString &name);
    bool isImporting() const { return importing_; }
    /// Removes the current dataset after asking when `ask`.
    void removeCurrent(bool ask = true);

    QListWidget *list() const { return list_; }
    DatasetPreviewWidget *preview() const { return preview_; }
    QLabel *problemsLabel() const { return problems_; }
    ClassBalanceView *balanceView() const { return balance_; }
    QProgressBar *progressBar() const { return progress_; }

Q_SIGNALS:
    void datasetsChanged();
    /// An import ended: ok with the version's reference, else the error.
    void importFinished(bool ok, const QString &refOrError);
    void useInRunRequested(const QString &name);
    void statusMessage(const QString &text);

private:
    void buildUi();
    void showDataset(const QString &name, int version);
    void chooseAndImport(bool folder, bool newVersionOfCurrent);

    QString folder_;
    std::unique_ptr<app::Workspace> ws_;
    QList<app::DatasetSummary> summaries_;
    app::DatasetVersion current_;

    QListWidget *list_ = nullptr;
    QLabel *title_ = nullptr;
    QComboBox *versions_ = nullptr;
    QLabel *info_ = nullptr;
    QLabel *task_ = nullptr;
    QLabel *problems_ = nullptr;
    ClassBalanceView *balance_ = nullptr;
    DatasetPreviewWidget *preview_ = nullptr;
    QPushButton *addFile_ = nullptr, *addFolder_ = nullptr, *newVersion_ = nullptr, *remove_ = nullptr, *use_ = nullptr,
                *cancel_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QLabel *progressLabel_ = nullptr;
    QTimer *progressTimer_ = nullptr;
    bool importing_ = false;
    std::shared_ptr<std::atomic<qint64>> done_, total_;
    std::shared_ptr<std::atomic<bool>> cancelled_;
};

/// Horizontal bars, one per class, with its name and count; the largest class spans the width.
class ClassBalanceView : public QWidget {
    Q_OBJECT
public:
    explicit ClassBalanceView(QWidget *parent = nullptr);
    void setClasses(const QList<QPair<QString, qint64>> &classes);
    const QList<QPair<QString, qint64>> &classes() const { return classes_; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<QPair<QString, qint64>> classes_;
};

} // namespace diamond::ui
