#include "ui/run/confusion_matrix_view.h"

#include <QPainter>

#include <algorithm>

namespace diamond::ui {

ConfusionMatrixView::ConfusionMatrixView(QWidget *parent) : QWidget(parent) {
    setMinimumSize(220, 200);
    setToolTip(tr("Rows: true class; columns: predicted class. Colour: share of the row."));
}

void ConfusionMatrixView::setMatrix(const QVector<QVector<double>> &matrix, const QStringList &classNames) {
    matrix_ = matrix;
    names_ = classNames;
    update();
}

double ConfusionMatrixView::accuracy() const {
    double diagonal = 0, total = 0;
    for (int i = 0; i < matrix_.size(); ++i)
        for (int j = 0; j < matrix_[i].size(); ++j) {
            total += matrix_[i][j];
            if (i == j) diagonal += matrix_[i][j];
        }
    return total > 0 ? diagonal / total : 0.0;
}

void ConfusionMatrixView::paintEvent(QPaintEvent *) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const int n = int(matrix_.size());
    if (n == 0) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("The confusion matrix appears when the run is evaluated."));
        return;
    }
    const QFontMetrics fm(font());
    int labelWidth = fm.horizontalAdvance(tr("true"));
    for (int i = 0; i < n; ++i)
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(names_.value(i, QString::number(i))));
    const int margin = labelWidth + 12;
    const int top = fm.height() * 2 + 8;
    const double cell = std::max(8.0, std::min((width() - margin - 8.0) / n, (height() - top - 8.0) / n));
    const QRectF grid(margin, top, cell * n, cell * n);

    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRectF(grid.left(), 0, grid.width(), fm.height()), Qt::AlignCenter, tr("predicted"));
    const QColor hot = pal.color(QPalette::Highlight);
    for (int i = 0; i < n; ++i) {
        const QString name = names_.value(i, QString::number(i));
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRectF(0, grid.top() + i * cell, margin - 6, cell), Qt::AlignRight | Qt::AlignVCenter, name);
        p.drawText(QRectF(grid.left() + i * cell, fm.height() + 2, cell, fm.height()), Qt::AlignCenter, name);
        double rowTotal = 0;
        for (double v : matrix_[i])
            rowTotal += v;
        for (int j = 0; j < n; ++j) {
            const double v = j < matrix_[i].size() ? matrix_[i][j] : 0.0;
            const double share = rowTotal > 0 ? v / rowTotal : 0.0;
            QColor fill = hot;
            fill.setAlphaF(0.08 + 0.92 * share);
            const QRectF r(grid.left() + j * cell, grid.top() + i * cell, cell, cell);
            p.fillRect(r.adjusted(1, 1, -1, -1), fill);
            if (cell >= fm.height() * 1.2) {
                p.setPen(share > 0.55 ? pal.color(QPalette::HighlightedText) : pal.color(QPalette::Text));
                p.drawText(r, Qt::AlignCenter, QString::number(v, 'g', 6));
            }
        }
    }
}

} // namespace diamond::ui
