// The Learn page: the shipped lessons (app/learn), one step at a time. The current step's check is evaluated
// against the open workspace and the designer's network every 1.5 s while a lesson is open; a passed check is saved
// as done (LessonProgressStore), so progress survives a restart. "Show me" asks the main window to show the step's
// page and highlight its widget. A lesson with a project shows that project's class leaderboard.
#pragma once

#include "app/learn/lesson.h"

#include <QJsonObject>
#include <QTimer>
#include <QWidget>

#include <functional>

class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTextBrowser;

namespace diamond::app {
class Workspace;
}

namespace diamond::ui {

class LearnPage : public QWidget {
    Q_OBJECT
public:
    explicit LearnPage(QWidget *parent = nullptr);

    /// The workspace lessons are checked against and progress is saved in (nullptr: none open).
    void setWorkspace(app::Workspace *workspace);
    /// Returns the network being designed (diamond.spec/1) for "design" checks.
    void setDesignProvider(std::function<QJsonObject()> provider) { design_ = std::move(provider); }
    /// Language of the lesson texts ("en", "zh_CN"); by default QLocale().name().
    void setLanguage(const QString &language);

    QList<app::Lesson> lessons() const { return lessons_; }
    /// Opens a lesson (starting it when new) at its first step not done. False for an unknown id.
    bool openLesson(const QString &lessonId);
    QString currentLessonId() const;
    int currentStepIndex() const { return step_; }
    /// Evaluates the current step now (the timer does this every 1.5 s); true when it passed.
    bool checkNow();
    /// Next / back / start over, as the buttons.
    void nextStep();
    void previousStep();
    void startOver();
    /// The current step's status line (what the check found).
    QString statusText() const;
    /// Project the current lesson's runs go to; empty when none.
    QString lessonProject() const;

Q_SIGNALS:
    /// "Show me": show `page` (designer, setup, data, ...) and highlight the widget or action named `widget`.
    void showRequested(const QString &page, const QString &widget);
    /// A step's check passed for the first time (for a status-bar message).
    void stepCompleted(const QString &lessonTitle, const QString &stepTitle);
    /// The current lesson changed (its project for new runs), or was completed (empty project).
    void lessonChanged(const QString &project);

private:
    void buildUi();
    void fillList();
    void showStep();
    void updateLeaderboard();
    bool currentStepDone() const;

    app::Workspace *ws_ = nullptr;
    std::function<QJsonObject()> design_;
    QString language_;
    QList<app::Lesson> lessons_;
    int lesson_ = -1;
    int step_ = 0;
    QSet<QString> done_; ///< of the current lesson
    QString startedAt_;

    QListWidget *list_ = nullptr;
    QLabel *title_ = nullptr;
    QLabel *summary_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QLabel *stepTitle_ = nullptr;
    QTextBrowser *body_ = nullptr;
    QLabel *status_ = nullptr;
    QPushButton *back_ = nullptr;
    QPushButton *showMe_ = nullptr;
    QPushButton *next_ = nullptr;
    QPushButton *restart_ = nullptr;
    QWidget *boardBox_ = nullptr;
    QTableWidget *board_ = nullptr;
    QLabel *boardLabel_ = nullptr;
    QTimer checkTimer_;
};

} // namespace diamond::ui
