// The explorer window on a small screen: at 1024 x 768, and with QT_SCALE_FACTOR
// 1.5 (ctest runs this suite a second time with it), every control fits or its panel
// scrolls; nothing is squeezed below its own minimum, overlapped or cut off, after File > New
// with four heads and after restoring a session.

#include "ui/explorer/attention_panel.h"
#include "ui/explorer/explorer_window.h"
#include "ui/explorer/input_panel.h"
#include "ui/views/heatmap_view.h"

#include "core/cpu_backend.h"
#include "core/scene.h"
#include "core/scene_json.h"

#include <qcustomplot.h>

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QToolBar>
#include <QUndoStack>

using namespace attn;

namespace {

double scaleFactor()
{
    return qEnvironmentVariableIsSet("QT_SCALE_FACTOR") ? qEnvironmentVariable("QT_SCALE_FACTOR").toDouble() : 1.0;
}

// A 1024 x 768 projector in the window's (logical) pixels, less a window manager's title bar
// and a panel.
QSize projector()
{
    const double scale = scaleFactor();
    return QSize(int(1024 / scale), int((768 - 64) / scale));
}

QString describe(const QWidget* widget)
{
    QString text;
    if (const auto* button = qobject_cast<const QAbstractButton*>(widget))
        text = button->text();
    else if (const auto* label = qobject_cast<const QLabel*>(widget))
        text = label->text().left(40);
    return QStringLiteral("%1 %2 \"%3\"").arg(QString::fromLatin1(widget->metaObject()->className()), widget->objectName(), text);
}

bool isControl(const QWidget* widget)
{
    return qobject_cast<const QAbstractButton*>(widget) || qobject_cast<const QComboBox*>(widget) ||
           qobject_cast<const QAbstractSpinBox*>(widget) || qobject_cast<const QLineEdit*>(widget) ||
           (qobject_cast<const QLabel*>(widget) && !static_cast<const QLabel*>(widget)->wordWrap() &&
            !static_cast<const QLabel*>(widget)->text().isEmpty());
}

// The rectangle of `widget` that is on screen: inside every ancestor (scroll areas clip).
QRect visiblePart(const QWidget* widget, const QWidget* window)
{
    QRect visible(widget->mapTo(window, QPoint(0, 0)), widget->size());
    for (const QWidget* parent = widget->parentWidget(); parent && parent != window; parent = parent->parentWidget())
        visible &= QRect(parent->mapTo(window, QPoint(0, 0)), parent->size());
    visible &= QRect(QPoint(0, 0), window->size());
    return visible;
}

// Is `widget` inside a scroll area whose bar in that direction shows (so a cut is scrolled to)?
bool scrollable(const QWidget* widget, Qt::Orientation orientation)
{
    for (const QWidget* parent = widget->parentWidget(); parent; parent = parent->parentWidget())
        if (const auto* area = qobject_cast<const QAbstractScrollArea*>(parent)) {
            const QScrollBar* bar = orientation == Qt::Horizontal ? area->horizontalScrollBar() : area->verticalScrollBar();
            if (bar->isVisible() && bar->maximum() > 0)
                return true;
        }
    return false;
}

} // namespace

class TestWindowLayout : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_window_layout"));
        QSettings().clear();
        QDir(ui::ExplorerWindow::recoveryDirectory()).removeRecursively();
        qInfo("scale factor %.2f: a 1024 x 768 projector is %d x %d here", scaleFactor(), projector().width(),
              projector().height());
    }

    void cleanup()
    {
        if (m_window)
            m_window->document()->undoStack()->setClean();
        m_window.reset();
        QSettings().clear();
    }

    // The window can be made as small as a projector: its minimum size fits.
    void minimumSizeFitsAProjector_data() { scenes(); }
    void minimumSizeFitsAProjector()
    {
        QFETCH(QString, scene);
        open(scene);
        report();
        const QSize minimum = m_window->minimumSizeHint().expandedTo(m_window->minimumSize());
        QVERIFY2(minimum.width() <= projector().width() && minimum.height() <= projector().height(),
                 qPrintable(QStringLiteral("minimum %1 x %2, projector %3 x %4")
                                .arg(minimum.width())
                                .arg(minimum.height())
                                .arg(projector().width())
                                .arg(projector().height())));
    }

    // At the projector's size nothing is squeezed below its minimum, overlapped or cut off
    // without a scroll bar to reach it.
    void everythingFitsOrScrolls_data() { scenes(); }
    void everythingFitsOrScrolls()
    {
        QFETCH(QString, scene);
        open(scene);
        m_window->resize(projector());
        QTest::qWait(50);
        QCoreApplication::processEvents();
        checkLayout();
    }

    // A session saved with a narrow scene panel (or another screen) opens with the panel
    // scrolling, not clipped.
    void restoredSessionFitsOrScrolls()
    {
        open(QStringLiteral("new"));
        QDockWidget* dock = m_window->findChild<QDockWidget*>(QStringLiteral("sceneDock"));
        m_window->resize(projector());
        m_window->resizeDocks({dock}, {10}, Qt::Horizontal); // as narrow as it goes
        QCoreApplication::processEvents();
        m_window->close(); // writes the session
        m_window.reset();
        open(QStringLiteral("new"));
        m_window->resize(projector());
        QTest::qWait(50);
        checkLayout();
    }

    // No figure label sits on another, in the large view or in the All heads thumbnails (at
    // a 1.5 scale factor the thumbnails' few thinned labels crowded their panels and the
    // selection frame: the thumbnails now leave the tokens to the large view).
    void figureLabelsNeverOverlap_data() { scenes(); }
    void figureLabelsNeverOverlap()
    {
        QFETCH(QString, scene);
        open(scene);
        m_window->resize(projector());
        for (ui::HeatmapView* view : {m_window->headView(), m_window->gridView()})
            QTRY_VERIFY(!view->isRebuildPending() && view->plot()->axisRectCount() > 0);
        QStringList problems;
        for (ui::HeatmapView* view : {m_window->headView(), m_window->gridView()}) {
            if (!view->isVisible())
                continue;
            for (QCPAxisRect* rect : view->plot()->axisRects()) {
                for (QCPAxis* axis : {rect->axis(QCPAxis::atLeft), rect->axis(QCPAxis::atBottom)}) {
                    const std::vector<QRectF> labels = labelRects(axis);
                    for (std::size_t k = 1; k < labels.size(); ++k)
                        if (labels[k].intersects(labels[k - 1].adjusted(0.5, 0.5, -0.5, -0.5)))
                            problems << QStringLiteral("%1: labels %2 and %3 of an axis overlap").arg(view->objectName()).arg(k - 1).arg(k);
                    if (view == m_window->gridView() && (!labels.empty() || !axis->label().isEmpty()))
                        problems << QStringLiteral("the All heads thumbnails name tokens or axes");
                }
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

private:
    // Where an axis draws its tick labels (QCustomPlot's placement: beside the rect, past the
    // tick label padding, centred on the tick; turned labels as tall as their text is long).
    static std::vector<QRectF> labelRects(QCPAxis* axis)
    {
        std::vector<QRectF> out;
        auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
        if (!ticker || !axis->tickLabels())
            return out;
        const QFontMetricsF metrics(axis->tickLabelFont());
        const QRect rect = axis->axisRect()->rect();
        const double pad = axis->tickLabelPadding();
        for (auto it = ticker->ticks().constBegin(); it != ticker->ticks().constEnd(); ++it) {
            if (!axis->range().contains(it.key()))
                continue;
            const double at = axis->coordToPixel(it.key());
            const double length = metrics.horizontalAdvance(it.value());
            const double line = metrics.height();
            if (axis->axisType() == QCPAxis::atLeft)
                out.emplace_back(rect.left() - pad - length, at - line / 2, length, line);
            else if (std::abs(axis->tickLabelRotation()) >= 45) // across the axis, a line wide (1.41 lines at 45°)
                out.emplace_back(at - line * 0.71, rect.bottom() + pad, std::abs(axis->tickLabelRotation()) > 60 ? line : line * 1.41, length);
            else
                out.emplace_back(at - length / 2, rect.bottom() + pad, length, line);
        }
        return out;
    }

    static void scenes()
    {
        QTest::addColumn<QString>("scene");
        QTest::newRow("File > New (4 heads)") << QStringLiteral("new");
        QTest::newRow("this is a cat") << QStringLiteral(":/examples/01-this-is-a-cat.json");
        QTest::newRow("translation") << QStringLiteral(":/examples/04-translation-cross-attention.json");
        QTest::newRow("8 heads, a warning") << QStringLiteral("8 heads");
    }

    void open(const QString& scene)
    {
        m_window = std::make_unique<ui::ExplorerWindow>(std::make_unique<core::CpuBackend>(), QString());
        if (scene == QLatin1String("new")) {
            const auto actions = m_window->findChildren<QAction*>();
            for (QAction* action : actions)
                if (action->text().remove(u'&') == QStringLiteral("New"))
                    action->trigger();
        } else if (scene == QLatin1String("8 heads")) {
            core::Scene many = core::makeScene(QStringLiteral("every key of the first row is masked here"), 16, 8, 2);
            many.mask.customCells = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {0, 7}, {0, 8}};
            m_window->setScene(many, QString());
        } else {
            m_window->setScene(core::loadScene(scene), QString());
        }
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QTRY_VERIFY(m_window->isUpToDate() && m_window->document()->result());
    }

    void report() const
    {
        auto size = [](const QWidget* w) { return QStringLiteral("%1x%2").arg(w->minimumSizeHint().width()).arg(w->minimumSizeHint().height()); };
        QStringList parts;
        for (QDockWidget* dock : m_window->findChildren<QDockWidget*>())
            parts << dock->objectName() + QLatin1Char(' ') + size(dock);
        parts << QStringLiteral("central ") + size(m_window->centralWidget());
        parts << QStringLiteral("status ") + size(m_window->statusBar());
        parts << QStringLiteral("window ") + size(m_window.get());
        qInfo("%s", qPrintable(parts.join(QStringLiteral(", "))));
        if (qEnvironmentVariableIsSet("ATTN_LAYOUT_DEBUG")) {
            for (QWidget* w : m_window->findChildren<QWidget*>())
                if (w->isVisible() && w->minimumSizeHint().width() > 140)
                    qInfo("  %s %s", qPrintable(describe(w)), qPrintable(size(w)));
        }
    }

    void checkLayout()
    {
        QWidget* window = m_window.get();
        QVERIFY2(window->width() <= projector().width() && window->height() <= projector().height(),
                 "the window is larger than the projector");
        if (qEnvironmentVariableIsSet("ATTN_LAYOUT_DEBUG")) {
            auto* scroll = window->findChild<QScrollArea*>(QStringLiteral("sceneScroll"));
            qInfo("scene scroll %dx%d, viewport %d, controls %dx%d (min %dx%d), bars h %d/%d v %d/%d", scroll->width(),
                  scroll->height(), scroll->viewport()->width(), scroll->widget()->width(), scroll->widget()->height(),
                  scroll->widget()->minimumSizeHint().width(), scroll->widget()->minimumSizeHint().height(),
                  scroll->horizontalScrollBar()->isVisible(), scroll->horizontalScrollBar()->maximum(),
                  scroll->verticalScrollBar()->isVisible(), scroll->verticalScrollBar()->maximum());
        }
        const QRect central(m_window->centralWidget()->mapTo(window, QPoint(0, 0)), m_window->centralWidget()->size());
        const QRect status(m_window->statusBar()->mapTo(window, QPoint(0, 0)), m_window->statusBar()->size());
        QVERIFY2(QRect(QPoint(0, 0), window->size()).contains(status), "the status bar is outside the window");
        QVERIFY2(!central.intersects(status), "the status bar covers the figures");
        for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
            if (!dock->isVisible())
                continue;
            const QRect rect(dock->mapTo(window, QPoint(0, 0)), dock->size());
            QVERIFY2(!rect.intersects(status), qPrintable(dock->objectName() + QStringLiteral(" under the status bar")));
            QVERIFY2(!rect.intersects(central), qPrintable(dock->objectName() + QStringLiteral(" over the figures")));
        }
        QStringList problems;
        for (QWidget* widget : window->findChildren<QWidget*>()) {
            if (!widget->isVisible() || !isControl(widget) || widget->window() != window)
                continue;
            if (qobject_cast<QToolBar*>(widget->parentWidget()) || qobject_cast<QMenuBar*>(widget->parentWidget()) ||
                qobject_cast<QStatusBar*>(widget->parentWidget()) || qobject_cast<QTabBar*>(widget->parentWidget()))
                continue; // bars collapse into an extension menu or elide by design
            if (widget->inherits("QDockWidgetTitleButton") ||
                (widget->parentWidget() && (widget->parentWidget()->inherits("QAbstractSpinBox") ||
                                            widget->parentWidget()->inherits("QComboBox"))))
                continue; // parts of another control
            const QSize minimum = widget->minimumSizeHint().expandedTo(widget->minimumSize());
            if (widget->width() + 1 < minimum.width() || widget->height() + 1 < minimum.height())
                problems << QStringLiteral("%1 squeezed to %2x%3 (needs %4x%5)")
                                .arg(describe(widget))
                                .arg(widget->width())
                                .arg(widget->height())
                                .arg(minimum.width())
                                .arg(minimum.height());
            const QRect own(widget->mapTo(window, QPoint(0, 0)), widget->size());
            const QRect seen = visiblePart(widget, window);
            // Each direction on its own: a control scrolled out of view below is still whole.
            const bool cutAcross = std::max(seen.left(), own.left()) > own.left() || seen.right() < own.right();
            const bool cutDown = seen.top() > own.top() || seen.bottom() < own.bottom();
            if (!seen.isEmpty() && cutAcross && !scrollable(widget, Qt::Horizontal))
                problems << describe(widget) + QStringLiteral(" cut off at the side, no scroll bar");
            if (seen.isEmpty() ? !scrollable(widget, Qt::Horizontal) && !scrollable(widget, Qt::Vertical)
                               : cutDown && !scrollable(widget, Qt::Vertical))
                problems << describe(widget) + QStringLiteral(" cut off, no scroll bar");
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    std::unique_ptr<ui::ExplorerWindow> m_window;
};

QTEST_MAIN(TestWindowLayout)
#include "tst_window_layout.moc"
