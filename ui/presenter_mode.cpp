#include "ui/presenter_mode.h"

#include <QApplication>
#include <QDockWidget>
#include <QMainWindow>

#include <cmath>

namespace diamond::ui {

namespace {

int g_presenting = 0; ///< windows in presenter mode (one in practice)

double relativeLuminance(const QColor &c) {
    auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

} // namespace

PresenterMode::PresenterMode(QMainWindow *window, QList<QDockWidget *> docksToHide)
    : QObject(window), window_(window), docksToHide_(std::move(docksToHide)) {}

PresenterMode::~PresenterMode() {
    if (!active_) return;
    // The window is going away (its state no longer matters); the application keeps running with its own look.
    --g_presenting;
    QApplication::setFont(savedFont_);
    QApplication::setPalette(savedPalette_);
}

bool PresenterMode::anyPresenting() { return g_presenting > 0; }

qreal PresenterMode::curveLineWidth() { return g_presenting > 0 ? kCurveLineWidth : 1.0; }

double PresenterMode::contrastRatio(const QColor &a, const QColor &b) {
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QPalette PresenterMode::highContrastPalette() {
    const QColor black(0, 0, 0), white(255, 255, 255), blue(0x00, 0x3a, 0xa8);
    QPalette p(QColor(0xe6, 0xe6, 0xe6), white);
    for (QPalette::ColorGroup group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        const bool disabled = group == QPalette::Disabled;
        const QColor text = disabled ? QColor(0x5c, 0x5c, 0x5c) : black;
        p.setColor(group, QPalette::Window, white);
        p.setColor(group, QPalette::WindowText, text);
        p.setColor(group, QPalette::Base, white);
        p.setColor(group, QPalette::AlternateBase, QColor(0xf0, 0xf0, 0xf0));
        p.setColor(group, QPalette::Text, text);
        p.setColor(group, QPalette::Button, QColor(0xe6, 0xe6, 0xe6));
        p.setColor(group, QPalette::ButtonText, text);
        p.setColor(group, QPalette::BrightText, white);
        p.setColor(group, QPalette::Highlight, disabled ? QColor(0x5c, 0x5c, 0x5c) : blue);
        p.setColor(group, QPalette::HighlightedText, white);
        p.setColor(group, QPalette::Link, blue);
        p.setColor(group, QPalette::LinkVisited, QColor(0x55, 0x1a, 0x8b));
        p.setColor(group, QPalette::PlaceholderText, disabled ? QColor(0x5c, 0x5c, 0x5c) : QColor(0x33, 0x33, 0x33));
        p.setColor(group, QPalette::ToolTipBase, QColor(0xff, 0xff, 0xe0));
        p.setColor(group, QPalette::ToolTipText, black);
        p.setColor(group, QPalette::Light, white);
        p.setColor(group, QPalette::Midlight, QColor(0xd0, 0xd0, 0xd0));
        p.setColor(group, QPalette::Mid, QColor(0x80, 0x80, 0x80));
        p.setColor(group, QPalette::Dark, QColor(0x40, 0x40, 0x40));
        p.setColor(group, QPalette::Shadow, black);
    }
    return p;
}

void PresenterMode::setActive(bool on) {
    if (on == active_) return;
    active_ = on;
    if (on) {
        ++g_presenting;
        savedFont_ = QApplication::font();
        savedPalette_ = QApplication::palette();
        savedGeometry_ = window_->saveGeometry();
        savedWindowState_ = window_->windowState();
        QFont big = savedFont_;
        if (big.pointSizeF() > 0)
            big.setPointSizeF(big.pointSizeF() * kFontScale);
        else
            big.setPixelSize(qRound(big.pixelSize() * kFontScale));
        QApplication::setPalette(highContrastPalette());
        QApplication::setFont(big);
        hiddenDocks_.clear();
        for (QDockWidget *dock : std::as_const(docksToHide_)) {
            if (!dock->isVisible()) continue;
            hiddenDocks_ << dock;
            dock->hide();
        }
        window_->showFullScreen();
    } else {
        --g_presenting;
        QApplication::setFont(savedFont_);
        QApplication::setPalette(savedPalette_);
        for (QDockWidget *dock : std::as_const(hiddenDocks_))
            dock->show();
        hiddenDocks_.clear();
        window_->setWindowState(savedWindowState_);
        if (!(savedWindowState_ & (Qt::WindowMaximized | Qt::WindowFullScreen)))
            window_->restoreGeometry(savedGeometry_);
    }
    Q_EMIT activeChanged(on);
}

} // namespace diamond::ui
