#pragma once

#include <QLabel>
#include <QString>

class QStatusBar;

namespace attn::ui {

// A status-bar label that gives up width before the window does: its text is cut with an
// ellipsis rather than widening the window past the screen (the tooltip can hold it whole).
class ElidingLabel : public QLabel
{
public:
    using QLabel::QLabel;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

// A permanent ElidingLabel at the right of `bar`, named `objectName`.
ElidingLabel* addStatusLabel(QStatusBar& bar, const QString& objectName, int stretch = 0);

// "llvmpipe (LLVM 15.0.6, 256 bits)" -> "llvmpipe": the status bar names the device only.
QString shortDeviceName(const QString& device);

// What a backend notice (gpu::createBackend's reason for computing on the CPU, written for
// developers) means to a learner, in one line; the notice itself goes in a tooltip.
QString backendNoticeSummary();

// A compute's time as the status bar shows it: "0.37 ms", "12.5 ms", "1.25 s".
QString formatComputeTime(double milliseconds);

} // namespace attn::ui
