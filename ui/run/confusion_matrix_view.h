// Heat map of a confusion matrix (rows = true class, columns = predicted), counts in the cells, row-normalised
// colour so that small classes stay readable. Paints with QPainter; scales to any size (projector-friendly).
#pragma once

#include <QStringList>
#include <QVector>
#include <QWidget>

namespace diamond::ui {

class ConfusionMatrixView : public QWidget {
    Q_OBJECT
public:
    explicit ConfusionMatrixView(QWidget *parent = nullptr);

    /// matrix[i][j] = samples of true class i predicted as j. classNames may be empty ("0", "1", ... are used).
    void setMatrix(const QVector<QVector<double>> &matrix, const QStringList &classNames = {});
    const QVector<QVector<double>> &matrix() const { return matrix_; }
    /// Share of the diagonal, in [0, 1]; 0 when empty.
    double accuracy() const;

    QSize sizeHint() const override { return {360, 320}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QVector<QVector<double>> matrix_;
    QStringList names_;
};

} // namespace diamond::ui
