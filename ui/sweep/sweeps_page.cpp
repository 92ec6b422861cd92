#include "ui/sweep/sweeps_page.h"

#include "app/run/run_service.h"
#include "app/sweep/sweep_controller.h"
#include "app/sweep/sweep_store.h"
#include "ui/sweep/sweep_analysis.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace diamond::ui::sweep {

SweepsPage::SweepsPage(app::RunService &service, QWidget *parent)
    : QWidget(parent), service_(service), model_(new QStandardItemModel(0, ColumnCount, this)),
      view_(new QTableView(this)), status_(new QLabel(this)), new_(new QPushButton(tr("&New sweep…"), this)),
      open_(new QPushButton(tr("&Open"), this)), pause_(new QPushButton(tr("&Pause"), this)),
      stop_(new QPushButton(tr("&Stop"), this)), poll_(new QTimer(this)) {
    setObjectName(QStringLiteral("sweepsPage"));
    model_->setHorizontalHeaderLabels(
        {tr("ID"), tr("Name"), tr("Target"), tr("Algorithm"), tr("State"), tr("Trials"), tr("Best")});
    new_->setObjectName(QStringLiteral("newSweep"));
    new_->setIcon(QIcon::fromTheme(QStringLiteral("list-add")));
    new_->setToolTip(tr("Vary the network and run set-up on the canvas: learning rate, widths, batch size…"));
    open_->setObjectName(QStringLiteral("openSweep"));
    pause_->setObjectName(QStringLiteral("pauseSweep"));
    stop_->setObjectName(QStringLiteral("stopSweep"));

    auto *layout = new QVBoxLayout(this);
    auto *heading = new QLabel(tr("<h2>Sweeps</h2>Hyper-parameter searches of this workspace. Each trial is a run; "
                                  "open a sweep to see its trials, plots and the best setting."),
                               this);
    heading->setWordWrap(true);
    layout->addWidget(heading);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(new_);
    buttons->addWidget(open_);
    buttons->addWidget(pause_);
    buttons->addWidget(stop_);
    buttons->addStretch();
    buttons->addWidget(status_);
    layout->addLayout(buttons);
    view_->setModel(model_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setAlternatingRowColors(true);
    layout->addWidget(view_, 1);

    poll_->setInterval(2000);
    connect(poll_, &QTimer::timeout, this, &SweepsPage::reload);
    connect(&service_, &app::RunService::sweepStarted, this, &SweepsPage::reload);
    connect(new_, &QPushButton::clicked, this, &SweepsPage::newSweepRequested);
    connect(open_, &QPushButton::clicked, this, [this] {
        if (const qint64 id = selectedSweepId()) Q_EMIT openSweepRequested(id);
    });
    connect(view_, &QTableView::doubleClicked, this, [this] {
        if (const qint64 id = selectedSweepId()) Q_EMIT openSweepRequested(id);
    });
    connect(pause_, &QPushButton::clicked, this, [this] {
        const qint64 id = selectedSweepId();
        const bool paused = selectedState() == QLatin1String("paused");
        if (id && !(paused ? service_.continueSweep(id) : service_.pauseSweep(id)))
            QMessageBox::warning(this, tr("Sweep"), service_.errorString());
        reload();
    });
    connect(stop_, &QPushButton::clicked, this, [this] {
        const qint64 id = selectedSweepId();
        if (id && !service_.stopSweep(id)) QMessageBox::warning(this, tr("Sweep"), service_.errorString());
        reload();
    });
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &SweepsPage::updateButtons);
    reload();
}

void SweepsPage::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    reload();
    poll_->start();
}

void SweepsPage::hideEvent(QHideEvent *event) {
    QWidget::hideEvent(event);
    poll_->stop();
}

qint64 SweepsPage::selectedSweepId() const {
    const QModelIndexList rows = view_->selectionModel()->selectedRows(IdCol);
    return rows.isEmpty() ? 0 : rows.first().data(Qt::UserRole).toLongLong();
}

QString SweepsPage::selectedState() const {
    const QModelIndexList rows = view_->selectionModel()->selectedRows(StateCol);
    return rows.isEmpty() ? QString() : rows.first().data(Qt::UserRole).toString();
}

bool SweepsPage::selectSweep(qint64 sweepId) {
    for (int r = 0; r < model_->rowCount(); ++r)
        if (model_->item(r, IdCol)->data(Qt::UserRole).toLongLong() == sweepId) {
            view_->selectRow(r);
            return true;
        }
    return false;
}

void SweepsPage::reload() {
    const qint64 selected = selectedSweepId();
    app::sweep::SweepStore store(service_.workspace());
    const QList<app::sweep::SweepRow> rows = store.sweeps();
    model_->setRowCount(0);
    for (const app::sweep::SweepRow &s : rows) {
        const QList<app::sweep::TrialRow> trials = store.trials(s.id);
        const bool maximize = s.document.value(QStringLiteral("objective")).toObject().value(QStringLiteral("mode")) ==
                              QLatin1String("max");
        const auto best = bestTrialRow(trials, maximize);
        auto item = [](const QString &text) {
            auto *i = new QStandardItem(text);
            i->setEditable(false);
            return i;
        };
        QList<QStandardItem *> row{item(QString::number(s.id)),
                                   item(s.name),
                                   item(s.document.value(QStringLiteral("target")).toString(QStringLiteral("local"))),
                                   item(s.strategy),
                                   item(s.state),
                                   item(QString::number(trials.size())),
                                   item(best ? QStringLiteral("%1 = %2 (trial %3)")
                                                   .arg(s.objective)
                                                   .arg(*trials.at(*best).objective, 0, 'g', 4)
                                                   .arg(trials.at(*best).index)
                                             : QStringLiteral("–"))};
        row[IdCol]->setData(s.id, Qt::UserRole);
        row[StateCol]->setData(s.state, Qt::UserRole);
        if (service_.sweepController(s.id)) row[StateCol]->setToolTip(tr("Controlled by this window"));
        model_->appendRow(row);
    }
    status_->setText(tr("%n sweep(s)", "", int(rows.size())));
    if (selected) selectSweep(selected);
    view_->resizeColumnsToContents();
    updateButtons();
}

void SweepsPage::updateButtons() {
    const qint64 id = selectedSweepId();
    const QString state = selectedState();
    const bool ended =
        state == QLatin1String("completed") || state == QLatin1String("stopped") || state == QLatin1String("failed");
    open_->setEnabled(id > 0);
    pause_->setEnabled(id > 0 && !ended && state != QLatin1String("stopping"));
    pause_->setText(state == QLatin1String("paused") ? tr("&Continue") : tr("&Pause"));
    stop_->setEnabled(id > 0 && !ended && state != QLatin1String("stopping"));
}

} // namespace diamond::ui::sweep
