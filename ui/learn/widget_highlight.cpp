#include "ui/learn/widget_highlight.h"

#include <QEvent>
#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace diamond::ui {

WidgetHighlight::WidgetHighlight(QWidget *window) : QWidget(window) {
    setObjectName(QStringLiteral("widgetHighlight"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    hide();
    window->installEventFilter(this);
    pulse_.setInterval(40);
    connect(&pulse_, &QTimer::timeout, this, [this] {
        phase_ = (phase_ + 1) % 50;
        follow();
        update();
    });
    end_.setSingleShot(true);
    connect(&end_, &QTimer::timeout, this, [this] {
        pulse_.stop();
        hide();
    });
}

bool WidgetHighlight::showOver(QWidget *target, int milliseconds) {
    if (!target || !target->isVisible()) return false;
    target_ = target;
    setGeometry(parentWidget()->rect());
    raise();
    show();
    phase_ = 0;
    pulse_.start();
    end_.start(milliseconds);
    update();
    return true;
}

bool WidgetHighlight::eventFilter(QObject *watched, QEvent *event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize) setGeometry(parentWidget()->rect());
    return QWidget::eventFilter(watched, event);
}

void WidgetHighlight::follow() {
    if (!target_ || !target_->isVisible()) {
        pulse_.stop();
        hide();
    }
}

void WidgetHighlight::paintEvent(QPaintEvent *) {
    if (!target_) return;
    const QRect r(target_->mapTo(parentWidget(), QPoint(0, 0)), target_->size());
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    // Dim everything but the target, and frame it with a pulsing orange line.
    QPainterPath outside;
    outside.addRect(rect());
    QPainterPath hole;
    hole.addRoundedRect(QRectF(r).adjusted(-6, -6, 6, 6), 8, 8);
    p.fillPath(outside.subtracted(hole), QColor(0, 0, 0, 70));
    const double wave = 0.5 + 0.5 * std::sin(phase_ * 2 * M_PI / 50);
    QPen pen(QColor(255, 140, 0, int(150 + 105 * wave)), 4);
    p.setPen(pen);
    p.drawRoundedRect(QRectF(r).adjusted(-5 - 2 * wave, -5 - 2 * wave, 5 + 2 * wave, 5 + 2 * wave), 8, 8);
}

} // namespace diamond::ui
