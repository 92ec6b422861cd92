// The main window: menus, toolbar, docks and the central tab area. Window geometry and dock
// layout are kept in QSettings.
#pragma once

#include <QMainWindow>

class QLabel;
class QTabWidget;

namespace diamond::ui {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createDocks();
    void showAbout();

    QTabWidget *tabs_ = nullptr;
};

} // namespace diamond::ui
