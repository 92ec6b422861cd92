#include "ui/learn/learn_page.h"

#include "app/learn/lesson_checks.h"
#include "app/learn/lesson_progress.h"
#include "app/run/leaderboard.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace diamond::ui {

LearnPage::LearnPage(QWidget *parent) : QWidget(parent), language_(QLocale().name()) {
    setObjectName(QStringLiteral("learnPage"));
    QStringList errors;
    lessons_ = app::shippedLessons(&errors);
    for (const QString &e : errors)
        qWarning("%s", qPrintable(e));
    buildUi();
    fillList();
    checkTimer_.setInterval(1500);
    connect(&checkTimer_, &QTimer::timeout, this, &LearnPage::checkNow);
}

void LearnPage::buildUi() {
    auto *split = new QSplitter(this);
    list_ = new QListWidget(split);
    list_->setObjectName(QStringLiteral("lessonList"));
    list_->setWordWrap(true);
    list_->setSpacing(3);
    list_->setMinimumWidth(240);

    auto *detail = new QWidget(split);
    auto *column = new QVBoxLayout(detail);
    title_ = new QLabel(detail);
    title_->setObjectName(QStringLiteral("lessonTitle"));
    QFont big = title_->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    title_->setFont(big);
    summary_ = new QLabel(detail);
    summary_->setWordWrap(true);
    progress_ = new QProgressBar(detail);
    progress_->setObjectName(QStringLiteral("lessonProgress"));
    progress_->setFormat(tr("%v of %m steps done"));
    stepTitle_ = new QLabel(detail);
    stepTitle_->setObjectName(QStringLiteral("stepTitle"));
    QFont bold = stepTitle_->font();
    bold.setPointSizeF(bold.pointSizeF() * 1.25);
    bold.setBold(true);
    stepTitle_->setFont(bold);
    stepTitle_->setWordWrap(true);
    body_ = new QTextBrowser(detail);
    body_->setObjectName(QStringLiteral("stepBody"));
    body_->setOpenExternalLinks(false);
    status_ = new QLabel(detail);
    status_->setObjectName(QStringLiteral("stepStatus"));
    status_->setWordWrap(true);
    status_->setTextFormat(Qt::PlainText);

    auto *buttons = new QHBoxLayout;
    back_ = new QPushButton(tr("&Back"), detail);
    back_->setObjectName(QStringLiteral("stepBack"));
    showMe_ = new QPushButton(tr("&Show me"), detail);
    showMe_->setObjectName(QStringLiteral("stepShowMe"));
    showMe_->setToolTip(tr("Show the page of this step and highlight what to use"));
    next_ = new QPushButton(tr("&Next"), detail);
    next_->setObjectName(QStringLiteral("stepNext"));
    next_->setDefault(true);
    restart_ = new QPushButton(tr("Start &over"), detail);
    restart_->setObjectName(QStringLiteral("lessonRestart"));
    restart_->setToolTip(tr("Forget this lesson's progress and take it again"));
    buttons->addWidget(restart_);
    buttons->addStretch();
    buttons->addWidget(back_);
    buttons->addWidget(showMe_);
    buttons->addWidget(next_);

    boardBox_ = new QWidget(detail);
    auto *boardLayout = new QVBoxLayout(boardBox_);
    boardLayout->setContentsMargins(0, 0, 0, 0);
    boardLabel_ = new QLabel(boardBox_);
    boardLayout->addWidget(boardLabel_);
    board_ = new QTableWidget(0, 3, boardBox_);
    board_->setObjectName(QStringLiteral("lessonLeaderboard"));
    board_->setHorizontalHeaderLabels({tr("Rank"), tr("Who"), tr("Best")});
    board_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    board_->verticalHeader()->hide();
    board_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    board_->setMaximumHeight(160);
    boardLayout->addWidget(board_);

    column->addWidget(title_);
    column->addWidget(summary_);
    column->addWidget(progress_);
    column->addSpacing(8);
    column->addWidget(stepTitle_);
    column->addWidget(body_, 1);
    column->addWidget(status_);
    column->addLayout(buttons);
    column->addWidget(boardBox_);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row < lessons_.size() && (lesson_ != row)) openLesson(lessons_.at(row).id);
    });
    connect(next_, &QPushButton::clicked, this, &LearnPage::nextStep);
    connect(back_, &QPushButton::clicked, this, &LearnPage::previousStep);
    connect(restart_, &QPushButton::clicked, this, &LearnPage::startOver);
    connect(showMe_, &QPushButton::clicked, this, [this] {
        if (lesson_ < 0) return;
        const app::LessonStep &s = lessons_.at(lesson_).steps.at(step_);
        Q_EMIT showRequested(s.page, s.widget);
    });
}

void LearnPage::setWorkspace(app::Workspace *workspace) {
    ws_ = workspace;
    const QString current = currentLessonId();
    lesson_ = -1;
    fillList();
    if (!current.isEmpty()) openLesson(current);
}

void LearnPage::setLanguage(const QString &language) {
    language_ = language;
    const QString current = currentLessonId();
    fillList();
    if (!current.isEmpty()) showStep();
}

void LearnPage::fillList() {
    QSignalBlocker block(list_);
    list_->clear();
    for (const app::Lesson &l : std::as_const(lessons_)) {
        int done = 0;
        if (ws_ && ws_->isOpen()) done = int(app::LessonProgressStore(*ws_).doneSteps(l.id).size());
        const bool complete = done >= l.steps.size();
        QString text = tr("%1. %2\n%n min", nullptr, l.minutes).arg(l.order).arg(l.title.in(language_));
        if (done > 0) text += complete ? tr(" · ✓ done") : tr(" · %1 of %2 steps").arg(done).arg(l.steps.size());
        if (l.needsCluster) text += tr(" · needs a cluster");
        auto *item = new QListWidgetItem(text, list_);
        // Two lines in every script (the list does not measure wrapped CJK text on its own).
        item->setSizeHint(QSize(0, list_->fontMetrics().lineSpacing() * 2 + 10));
        item->setToolTip(l.summary.in(language_));
        if (complete) {
            QFont f = item->font();
            f.setBold(true);
            item->setFont(f);
        }
    }
    list_->setCurrentRow(lesson_);
}

QString LearnPage::currentLessonId() const { return lesson_ >= 0 ? lessons_.at(lesson_).id : QString(); }

QString LearnPage::lessonProject() const { return lesson_ >= 0 ? lessons_.at(lesson_).project : QString(); }

bool LearnPage::openLesson(const QString &lessonId) {
    int index = -1;
    for (int i = 0; i < lessons_.size(); ++i)
        if (lessons_.at(i).id == lessonId) index = i;
    if (index < 0) return false;
    lesson_ = index;
    done_.clear();
    startedAt_.clear();
    if (ws_ && ws_->isOpen()) {
        app::LessonProgressStore progress(*ws_);
        startedAt_ = progress.start(lessonId);
        done_ = progress.doneSteps(lessonId);
    }
    const QList<app::LessonStep> &steps = lessons_.at(lesson_).steps;
    step_ = 0;
    while (step_ < steps.size() - 1 && done_.contains(steps.at(step_).id))
        ++step_;
    {
        QSignalBlocker block(list_);
        list_->setCurrentRow(lesson_);
    }
    showStep();
    checkTimer_.start();
    Q_EMIT lessonChanged(lessons_.at(lesson_).project);
    checkNow();
    return true;
}

bool LearnPage::currentStepDone() const {
    return lesson_ >= 0 && done_.contains(lessons_.at(lesson_).steps.at(step_).id);
}

void LearnPage::showStep() {
    const bool open = lesson_ >= 0;
    for (QWidget *w : {static_cast<QWidget *>(back_), static_cast<QWidget *>(showMe_), static_cast<QWidget *>(next_),
                       static_cast<QWidget *>(restart_), static_cast<QWidget *>(progress_)})
        w->setVisible(open);
    if (!open) {
        title_->setText(tr("Learn Diamond"));
        summary_->setText(tr("Short lessons that check your work as you go. Choose one on the left; each takes a few "
                             "minutes and your progress is saved in the workspace."));
        stepTitle_->clear();
        body_->clear();
        status_->clear();
        boardBox_->hide();
        return;
    }
    const app::Lesson &l = lessons_.at(lesson_);
    const app::LessonStep &s = l.steps.at(step_);
    title_->setText(l.title.in(language_));
    summary_->setText(l.summary.in(language_));
    progress_->setRange(0, int(l.steps.size()));
    progress_->setValue(int(done_.size()));
    stepTitle_->setText(tr("Step %1 of %2: %3").arg(step_ + 1).arg(l.steps.size()).arg(s.title.in(language_)));
    body_->setMarkdown(s.body.in(language_));
    back_->setEnabled(step_ > 0);
    showMe_->setEnabled(!s.page.isEmpty() || !s.widget.isEmpty());
    const bool last = step_ == l.steps.size() - 1;
    next_->setText(last ? tr("&Finish") : tr("&Next"));
    next_->setEnabled(currentStepDone() || s.check.kind == QLatin1String("manual"));
    updateLeaderboard();
}

bool LearnPage::checkNow() {
    if (lesson_ < 0) return false;
    const app::Lesson &l = lessons_.at(lesson_);
    const app::LessonStep &s = l.steps.at(step_);
    app::LessonCheckContext context;
    context.workspace = ws_;
    context.since = startedAt_;
    if (design_) context.design = design_();
    const app::LessonCheckResult r = app::evaluateLessonCheck(s.check, context);
    const bool wasDone = currentStepDone();
    if (r.passed && !wasDone) {
        done_.insert(s.id);
        if (ws_ && ws_->isOpen()) app::LessonProgressStore(*ws_).markDone(l.id, s.id);
        progress_->setValue(int(done_.size()));
        Q_EMIT stepCompleted(l.title.in(language_), s.title.in(language_));
        fillList();
    }
    if (r.manual)
        status_->setText(r.status);
    else if (r.passed || wasDone)
        status_->setText(tr("✓ Done: %1").arg(r.status));
    else {
        const QString hint = s.hint.in(language_);
        status_->setText(hint.isEmpty() ? tr("Not yet: %1").arg(r.status)
                                        : tr("Not yet: %1\nHint: %2").arg(r.status, hint));
    }
    QPalette pal = status_->palette();
    pal.setColor(QPalette::WindowText,
                 (r.passed || wasDone) ? QColor(0x1b, 0x7f, 0x3b) : palette().color(QPalette::WindowText));
    status_->setPalette(pal);
    next_->setEnabled(currentStepDone() || r.manual);
    if (r.passed && !wasDone) updateLeaderboard();
    return r.passed || wasDone;
}

QString LearnPage::statusText() const { return status_->text(); }

void LearnPage::nextStep() {
    if (lesson_ < 0) return;
    const app::Lesson &l = lessons_.at(lesson_);
    const app::LessonStep &s = l.steps.at(step_);
    if (s.check.kind == QLatin1String("manual") && !currentStepDone()) {
        done_.insert(s.id);
        if (ws_ && ws_->isOpen()) app::LessonProgressStore(*ws_).markDone(l.id, s.id);
        fillList();
    }
    if (!currentStepDone()) return;
    if (step_ < l.steps.size() - 1) {
        ++step_;
        showStep();
        checkNow();
    } else {
        showStep();
        status_->setText(tr("✓ Lesson complete. Choose the next lesson on the left."));
        Q_EMIT lessonChanged({}); // new runs go to the usual project again
    }
}

void LearnPage::previousStep() {
    if (lesson_ < 0 || step_ == 0) return;
    --step_;
    showStep();
    checkNow();
}

void LearnPage::startOver() {
    if (lesson_ < 0) return;
    const QString id = currentLessonId();
    if (ws_ && ws_->isOpen()) app::LessonProgressStore(*ws_).reset(id);
    lesson_ = -1;
    openLesson(id);
    fillList();
}

void LearnPage::updateLeaderboard() {
    const QString project = lessonProject();
    if (project.isEmpty() || !ws_ || !ws_->isOpen()) {
        boardBox_->hide();
        return;
    }
    app::RunStore runs(*ws_);
    const auto p = runs.projectByName(project);
    QString error;
    const auto board = p ? app::projectLeaderboard(runs, p->id, {}, &error) : std::nullopt;
    boardBox_->setVisible(true);
    board_->setRowCount(0);
    const bool empty = !board || board->entries.isEmpty();
    board_->setVisible(!empty);
    boardLabel_->setText(empty ? tr("Leaderboard of this lesson: no finished run yet.")
                               : tr("Leaderboard of this lesson (%1)").arg(board->metric));
    if (empty) return;
    for (const app::LeaderboardEntry &e : board->entries) {
        const int row = board_->rowCount();
        board_->insertRow(row);
        board_->setItem(row, 0, new QTableWidgetItem(QString::number(e.rank)));
        board_->setItem(row, 1, new QTableWidgetItem(e.user == QLatin1String("owner") ? tr("you") : e.user));
        board_->setItem(row, 2, new QTableWidgetItem(QLocale().toString(e.value, 'f', 3)));
    }
}

} // namespace diamond::ui
