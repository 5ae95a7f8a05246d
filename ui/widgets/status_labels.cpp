#include "ui/widgets/status_labels.h"

#include <QCoreApplication>
#include <QPainter>
#include <QStatusBar>

namespace attn::ui {

QSize ElidingLabel::minimumSizeHint() const
{
    return QSize(fontMetrics().averageCharWidth() * 6, QLabel::minimumSizeHint().height());
}

void ElidingLabel::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QRect area = contentsRect();
    painter.setPen(palette().color(foregroundRole()));
    painter.drawText(area, Qt::AlignVCenter | Qt::AlignLeft,
                     fontMetrics().elidedText(text(), Qt::ElideRight, area.width()));
}

ElidingLabel* addStatusLabel(QStatusBar& bar, const QString& objectName, int stretch)
{
    auto* label = new ElidingLabel(&bar);
    label->setObjectName(objectName);
    label->setContentsMargins(6, 0, 6, 0);
    bar.addPermanentWidget(label, stretch);
    return label;
}

QString shortDeviceName(const QString& device)
{
    const qsizetype bracket = device.indexOf(QLatin1String(" ("));
    return bracket > 0 ? device.left(bracket) : device;
}

QString backendNoticeSummary()
{
    return QCoreApplication::translate(
        "StatusLabels",
        "Computing on the CPU: this computer has no graphics card the app can use.");
}

QString formatComputeTime(double milliseconds)
{
    if (milliseconds < 10)
        return QCoreApplication::translate("StatusLabels", "%1 ms").arg(milliseconds, 0, 'f', 2);
    if (milliseconds < 1000)
        return QCoreApplication::translate("StatusLabels", "%1 ms").arg(milliseconds, 0, 'f', 1);
    return QCoreApplication::translate("StatusLabels", "%1 s").arg(milliseconds / 1000, 0, 'f', 2);
}

} // namespace attn::ui
