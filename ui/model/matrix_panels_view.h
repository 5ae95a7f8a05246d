#pragma once

#include "ui/model/matrix_painter.h"

#include <QWidget>
#include <vector>

namespace attn::ui {

// Heatmap panels painted by paintMatrixPanels (the exporter's code), with hover values and
// clicks on cells: the rollout beside the raw mean, and the head-importance grid.
class MatrixPanelsView : public QWidget
{
    Q_OBJECT

public:
    explicit MatrixPanelsView(QWidget* parent = nullptr);

    void setPanels(std::vector<MatrixPanel> panels, const QString& title = QString());
    const std::vector<MatrixPanel>& panels() const { return m_panels; }
    void setMessage(const QString& text); // instead of the panels
    QString message() const { return m_message; }
    void setFigureStyle(const FigureStyle& style);
    // Where the cells of each panel were last painted (widget coordinates).
    const MatrixPanelsGeometry& geometry() const { return m_geometry; }
    QString describeAt(QPointF point) const;

    QSize sizeHint() const override { return QSize(640, 420); }
    QSize minimumSizeHint() const override { return QSize(200, 150); }

signals:
    void cellClicked(int panel, int row, int column);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    std::vector<MatrixPanel> m_panels;
    QString m_title;
    QString m_message;
    FigureStyle m_style;
    MatrixPanelsGeometry m_geometry;
};

} // namespace attn::ui
