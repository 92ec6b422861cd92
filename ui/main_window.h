// The main window: menus, toolbar, docks and the central tab area. Window geometry and dock
// layout are kept in QSettings.
#pragma once

#include <QMainWindow>

#include <memory>

class QLabel;
class QTabWidget;

namespace diamond::app {
class Workspace;
}

namespace diamond::ui {

class WorkspacePanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// Opens the default workspace (created with the examples on first start) unless
    /// `workspaceFolder` names another one.
    explicit MainWindow(QWidget *parent = nullptr, const QString &workspaceFolder = {});
    ~MainWindow() override;

    app::Workspace *workspace() const { return workspace_.get(); }

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createDocks();
    void showAbout();

    void openWorkspace(const QString &folder);

    QTabWidget *tabs_ = nullptr;
    WorkspacePanel *workspacePanel_ = nullptr;
    std::unique_ptr<app::Workspace> workspace_;
};

} // namespace diamond::ui
