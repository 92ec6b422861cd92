// A pulsing frame drawn over a widget of a window to say "use this" (the Learn page's "Show me").
#pragma once

#include <QPointer>
#include <QTimer>
#include <QWidget>

namespace diamond::ui {

class WidgetHighlight : public QWidget {
    Q_OBJECT
public:
    /// A transparent overlay over `window` (it follows the window's size); hidden until show().
    explicit WidgetHighlight(QWidget *window);

    /// Frames `target` (a descendant of the window) for `milliseconds`, then hides. False when the target is not
    /// visible.
    bool showOver(QWidget *target, int milliseconds = 4000);
    QWidget *target() const { return target_; }

protected:
    void paintEvent(QPaintEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void follow();
    QPointer<QWidget> target_;
    QTimer pulse_, end_;
    int phase_ = 0;
};

} // namespace diamond::ui
