#pragma once

#include "ui/model/head_grid_painter.h"

#include "core/model/model_result.h"

#include <QImage>
#include <QWidget>
#include <memory>
#include <vector>

namespace attn::ui {

// The layers x heads grid in the window, painted by HeadGridPainter (the exporter's code)
// with what a screen adds: a checkbox in each head's corner that switches it off (on every
// head whose thumbnail is large enough), hover that names
// the head and the strongest key of the hovered query, click to select, and the keyboard
// (arrows move between heads and layers, Home/End and Page Up/Down jump, Space switches the
// selected head off or on, Enter opens it in the views).
class HeadGridView : public QWidget
{
    Q_OBJECT

public:
    explicit HeadGridView(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const core::ModelResult> result);
    std::shared_ptr<const core::ModelResult> result() const { return m_result; }
    void setOptions(const HeadGridOptions& options);
    const HeadGridOptions& options() const { return m_options; }
    void setMessage(const QString& text); // shown instead of the grid (no model yet)
    QString message() const { return m_message; }

    // Where things are, for tests and tooltips (widget coordinates).
    const HeadGridPainter::Geometry& geometry() const;
    QRectF checkboxRect(int layer, int head) const; // empty when thumbnails are too small
    QString describeAt(QPointF point) const;
    // How long the last repaint took (thumbnails included), in milliseconds.
    double lastPaintMilliseconds() const { return m_paintMs; }
    // The run the grid last painted (null before any): what the user sees now.
    const core::ModelResult* paintedResult() const { return m_painted; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void headSelected(int layer, int head);
    void headToggled(int layer, int head, bool off);
    void headActivated(int layer, int head); // Enter or a double click

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void invalidate(bool thumbnails);
    int layers() const;
    int heads() const;

    std::shared_ptr<const core::ModelResult> m_result;
    HeadGridOptions m_options;
    QString m_message;
    mutable std::unique_ptr<HeadGridPainter::Geometry> m_geometry;
    std::vector<QImage> m_thumbnails;
    bool m_thumbnailsValid = false;
    double m_paintMs = 0.0;
    const core::ModelResult* m_painted = nullptr;
};

} // namespace attn::ui
