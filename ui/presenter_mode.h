// Presenter mode (View ▸ Presenter mode, F5): the main window set up for a projector. While it is on, the
// application font is kFontScale times larger, a high-contrast palette (black on white, dark blue selection)
// replaces the current one, curve charts draw lines curveLineWidth() px wide with axis labels in the larger font,
// the window fills the screen and the workspace and runs docks make room for the page being shown. Turning it off
// restores the font, palette, window state and dock visibility that were there before.
#pragma once

#include <QByteArray>
#include <QFont>
#include <QList>
#include <QObject>
#include <QPalette>

class QDockWidget;
class QMainWindow;

namespace diamond::ui {

class PresenterMode : public QObject {
    Q_OBJECT
public:
    static constexpr qreal kFontScale = 1.5;
    static constexpr qreal kCurveLineWidth = 3.0;

    /// `docksToHide` make room while presenting (hidden ones stay hidden afterwards).
    PresenterMode(QMainWindow *window, QList<QDockWidget *> docksToHide);
    ~PresenterMode() override;

    bool isActive() const { return active_; }
    void setActive(bool on);

    /// Some window presents: charts leave out their axis titles (the chart title and the page name them).
    static bool anyPresenting();
    /// The pen width of chart curves: 1 normally, kCurveLineWidth while any window presents.
    static qreal curveLineWidth();
    /// Black on white with a dark blue selection; every text role has a contrast ratio of at least 7:1 with its
    /// background (WCAG AAA), disabled text at least 4.5:1.
    static QPalette highContrastPalette();
    /// The WCAG contrast ratio of two colours (1 to 21).
    static double contrastRatio(const QColor &a, const QColor &b);

Q_SIGNALS:
    void activeChanged(bool active);

private:
    QMainWindow *window_;
    QList<QDockWidget *> docksToHide_;
    bool active_ = false;
    QFont savedFont_;
    QPalette savedPalette_;
    QByteArray savedGeometry_;
    Qt::WindowStates savedWindowState_;
    QList<QDockWidget *> hiddenDocks_; ///< the docks this mode hid, shown again when it ends
};

} // namespace diamond::ui
