// The explorer window on a small screen: at 1024 x 768, and with QT_SCALE_FACTOR
// 1.5 (ctest runs this suite a second time with it), every control fits or its panel
// scrolls; nothing is squeezed below its own minimum, overlapped or cut off, after File > New
// with four heads and after restoring a session. Both windows, the explorer and the model
// window, on a projector, a laptop and a monitor keep their figures a usable size and their
// panels narrow enough to need no sideways scrolling.

#include "ui/explorer/explorer_window.h"
#include "ui/explorer/input_panel.h"
#include "ui/model/head_grid_view.h"
#include "ui/model/model_window.h"
#include "ui/model/predictions_painter.h"
#include "ui/presentation/presentation_window.h"
#include "ui/views/heatmap_view.h"
#include "ui/widgets/attention_panel.h"
#include "ui/widgets/message_bar.h"

#include "core/cpu_backend.h"
#include "core/scene.h"
#include "core/scene_json.h"

#include "support/model_fixtures.h"

#include <qcustomplot.h>

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPainter>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

using namespace attn;

namespace {

double scaleFactor()
{
    return qEnvironmentVariableIsSet("QT_SCALE_FACTOR")
               ? qEnvironmentVariable("QT_SCALE_FACTOR").toDouble()
               : 1.0;
}

// A 1024 x 768 projector in the window's (logical) pixels, less a window manager's title bar
// and a panel.
QSize projector()
{
    const double scale = scaleFactor();
    return QSize(int(1024 / scale), int((768 - 64) / scale));
}

// A screen of `physical` pixels in the window's logical pixels, less a window manager's
// title bar and a panel (64 physical pixels).
QSize screenOf(QSize physical)
{
    const double scale = scaleFactor();
    return QSize(int(physical.width() / scale), int((physical.height() - 64) / scale));
}

// The least room a figure (title, token labels and colour bar included) must keep, in logical
// pixels: at 300 x 250 the 11 tokens of the explorer's example still get cells of about 15
// pixels once the labels (about 70 across, 80 down) and the colour bar (60 across) have
// theirs, enough to click a cell and tell its colour from a projector's back row. Below it
// (the heatmap was 209 x 142 at 1024 x 768, scale 1.5) the cells are smaller than the numbers.
constexpr QSize kUsableFigure(300, 250);

// An information notice longer than a line: the notice a machine whose only Vulkan device is a
// CPU one showed at start before it was said in a learner's words (three lines at 1280 x 800,
// six at a 1.5 scale factor before notices took one line).
const QString kLongNotice =
    QStringLiteral("The only Vulkan device, llvmpipe (LLVM 15.0.6, 256 bits), is a CPU "
                   "implementation, several times slower than the "
                   "CPU backend: computing on the CPU backend (Vulkan: --backend vulkan)");

QString describe(const QWidget* widget)
{
    QString text;
    if (const auto* button = qobject_cast<const QAbstractButton*>(widget))
        text = button->text();
    else if (const auto* label = qobject_cast<const QLabel*>(widget))
        text = label->text().left(40);
    return QStringLiteral("%1 %2 \"%3\"")
        .arg(QString::fromLatin1(widget->metaObject()->className()), widget->objectName(), text);
}

bool isControl(const QWidget* widget)
{
    return qobject_cast<const QAbstractButton*>(widget) || qobject_cast<const QComboBox*>(widget) ||
           qobject_cast<const QAbstractSpinBox*>(widget) ||
           qobject_cast<const QLineEdit*>(widget) ||
           (qobject_cast<const QLabel*>(widget) &&
            !static_cast<const QLabel*>(widget)->wordWrap() &&
            !static_cast<const QLabel*>(widget)->text().isEmpty());
}

// The rectangle of `widget` that is on screen: inside every ancestor (scroll areas clip).
QRect visiblePart(const QWidget* widget, const QWidget* window)
{
    QRect visible(widget->mapTo(window, QPoint(0, 0)), widget->size());
    for (const QWidget* parent = widget->parentWidget(); parent && parent != window;
         parent = parent->parentWidget())
        visible &= QRect(parent->mapTo(window, QPoint(0, 0)), parent->size());
    visible &= QRect(QPoint(0, 0), window->size());
    return visible;
}

// Is `widget` in a dock that is a tab behind another? Qt keeps such a dock shown, outside the
// window.
bool inTabBehind(const QWidget* widget, const QWidget* window)
{
    for (const QWidget* parent = widget; parent && parent != window;
         parent = parent->parentWidget())
        if (qobject_cast<const QDockWidget*>(parent))
            return !QRect(QPoint(0, 0), window->size())
                        .intersects(QRect(parent->mapTo(window, QPoint(0, 0)), parent->size()));
    return false;
}

// Is `widget` inside a scroll area whose bar in that direction shows (so a cut is scrolled to)?
bool scrollable(const QWidget* widget, Qt::Orientation orientation)
{
    for (const QWidget* parent = widget->parentWidget(); parent; parent = parent->parentWidget())
        if (const auto* area = qobject_cast<const QAbstractScrollArea*>(parent)) {
            const QScrollBar* bar = orientation == Qt::Horizontal ? area->horizontalScrollBar()
                                                                  : area->verticalScrollBar();
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
        QGuiApplication::setApplicationDisplayName(
            QStringLiteral("Attention Explorer")); // as main() names it
        QSettings().clear();
        QDir(ui::ExplorerWindow::recoveryDirectory()).removeRecursively();
        qInfo("scale factor %.2f: a 1024 x 768 projector is %d x %d here", scaleFactor(),
              projector().width(), projector().height());
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

    // A maximized session saved where the docks stood side by side, opened where they no
    // longer fit (a smaller or higher-DPI screen; here a font twice as large) becomes tabs
    // beside Scene. Restoring the docks after the geometry left Qt 6.4 reapplying its copy
    // of the saved layout while they were tabified: a crash in tabifyDockWidget.
    void sessionFromAWiderScreenOpensTabbed()
    {
        if (scaleFactor() > 1)
            QSKIP("at this scale the offscreen screen never has the docks side by side; the run "
                  "at scale 1 saves them so");
        const QFont font = QApplication::font();
        open(QStringLiteral("new"));
        settle();
        auto* scene = m_window->findChild<QDockWidget*>(QStringLiteral("sceneDock"));
        QVERIFY(m_window->isMaximized());
        QVERIFY(m_window->tabifiedDockWidgets(scene).isEmpty());
        m_window->close(); // writes the session
        m_window.reset();
        QFont large = font;
        large.setPointSizeF(font.pointSizeF() * 2);
        QApplication::setFont(large);
        open(QStringLiteral("new"));
        settle();
        scene = m_window->findChild<QDockWidget*>(QStringLiteral("sceneDock"));
        const bool tabbed = m_window->tabifiedDockWidgets(scene).size() == 2;
        QApplication::setFont(font);
        QVERIFY(tabbed);
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
                            problems << QStringLiteral("%1: labels %2 and %3 of an axis overlap")
                                            .arg(view->objectName())
                                            .arg(k - 1)
                                            .arg(k);
                    if (view == m_window->gridView() &&
                        (!labels.empty() || !axis->label().isEmpty()))
                        problems << QStringLiteral("the All heads thumbnails name tokens or axes");
                }
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // Figure first: on a projector at a 1.5 scale factor, a laptop and a monitor the explorer's
    // heatmap keeps a usable size beside the panels and the backend notice, and no panel needs
    // a sideways scroll bar (on the projector the panels become tabs of one column).
    void explorerFigureKeepsItsRoom_data() { screens(); }
    void explorerFigureKeepsItsRoom()
    {
        QFETCH(QSize, screen);
        open(QStringLiteral(":/examples/01-this-is-a-cat.json"), kLongNotice);
        m_window->resize(screenOf(screen));
        settle();
        QTRY_VERIFY(!m_window->headView()->isRebuildPending());
        QStringList problems = roomProblems(*m_window, screenOf(screen), {m_window->headView()});
        // The notice takes one line of text (its bar as tall as its buttons), not three or six.
        const MessageBarHeight bar{m_window->messageBar()};
        if (bar.height >= bar.oneLine)
            problems << QStringLiteral("the backend notice is %1 pixels tall, one line is %2")
                            .arg(bar.height)
                            .arg(bar.oneLine);
        // The numbers in the cells never run into each other.
        const std::vector<QRectF> numbers = cellNumberRects(m_window->headView()->plot());
        for (std::size_t a = 0; a < numbers.size(); ++a)
            for (std::size_t b = a + 1; b < numbers.size(); ++b)
                if (numbers[a].intersects(numbers[b]))
                    problems
                        << QStringLiteral("the numbers of cells %1 and %2 overlap").arg(a).arg(b);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The notice cut to one line keeps all of it: in its tooltip, and in full after More (Less
    // cuts it again); the message bar's text is always the whole notice.
    void aNoticeCutToOneLineShowsAllOnMore()
    {
        open(QStringLiteral("new"), kLongNotice);
        m_window->resize(screenOf(QSize(1024, 768)));
        ui::MessageBar* bar = m_window->messageBar();
        bar->showMessage(QStringLiteral("longNotice"), ui::MessageBar::Level::Information,
                         kLongNotice);
        settle();
        QCOMPARE(bar->text(), kLongNotice);
        auto* more = bar->findChild<QToolButton*>(QStringLiteral("messageMoreButton"));
        QLabel* label = nullptr;
        for (QLabel* each : bar->findChildren<QLabel*>(QString(), Qt::FindDirectChildrenOnly))
            if (!each->text().isEmpty()) // the other is the icon
                label = each;
        QVERIFY(more && label);
        QVERIFY(bar->isElided());
        QVERIFY(more->isVisible());
        QVERIFY(label->text().endsWith(QChar(0x2026)));
        QCOMPARE(label->toolTip(), kLongNotice);
        const int oneLine = bar->height();
        more->click();
        settle();
        QVERIFY(!bar->isElided());
        QCOMPARE(label->text(), kLongNotice);
        QVERIFY(bar->height() > oneLine);
        more->click();
        settle();
        QVERIFY(bar->isElided());
        QCOMPARE(bar->height(), oneLine);
    }

    // The same for the model window: the grid of every head and the selected head's heatmap,
    // and the two side panels; for an encoder-decoder model too, whose Selected head panel
    // names the kind of head (its long title once held the panel scrolling sideways).
    void modelWindowFiguresKeepTheirRoom_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QSize>("screen");
        for (const QString& model : {QStringLiteral("gpt2"), QStringLiteral("t5")}) {
            QTest::addRow("%s projector 1024 x 768", qPrintable(model))
                << model << QSize(1024, 768);
            QTest::addRow("%s laptop 1280 x 800", qPrintable(model)) << model << QSize(1280, 800);
            QTest::addRow("%s monitor 1920 x 1080", qPrintable(model))
                << model << QSize(1920, 1080);
        }
    }
    void modelWindowFiguresKeepTheirRoom()
    {
        QFETCH(QString, model);
        QFETCH(QSize, screen);
        ui::ModelWindow window(std::make_unique<core::CpuBackend>(), core::BackendChoice::Cpu,
                               QString(), QString());
        window.resize(screenOf(screen));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy ended(&window, &ui::ModelWindow::loadEnded);
        window.openModel(test::modelFixturesDir() + QLatin1Char('/') + model,
                         QStringLiteral("The cat sat on the"));
        QVERIFY(ended.wait(20000));
        QTRY_VERIFY(window.isUpToDate() && window.document()->result());
        settle();
        QTRY_VERIFY(!window.headView()->isRebuildPending());
        QStringList problems =
            roomProblems(window, screenOf(screen), {window.gridView(), window.headView()});
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        window.document()->undoStack()->setClean();
    }

    // In the sentence panel's width on a projector at 1.5 (290 pixels) the predictions of an
    // edited model keep bars a third of the panel wide: the change from the unedited model
    // drops its "(was 6.09 %)", which the tick on the bar shows. The full text left the bars
    // about 40 pixels (and cut the percentages while the panel was narrower than its controls).
    void editedPredictionsKeepTheirBarsInANarrowPanel()
    {
        ui::PredictionBlock block;
        block.heading = QStringLiteral("Next token after “ the”");
        block.rows = {{QStringLiteral("ir"), 1, 1.0, 0.0271},
                      {QStringLiteral("a"), 2, 0.0385, 0.0609}};
        QImage image(290, 200, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        const auto geometry =
            ui::PredictionsPainter::paint(painter, QRectF(image.rect()), {block}, QString(),
                                          QString(), QApplication::font(), ui::FigureStyle{});
        QCOMPARE(geometry.bars.size(), std::size_t(2));
        // Probability 1: the bar is the whole track.
        QVERIFY2(geometry.bars[0].width() >= 290 / 3.0 - 12,
                 qPrintable(
                     QStringLiteral("the bars are %1 pixels long").arg(geometry.bars[0].width())));
        QVERIFY(geometry.bars[0].right() < 290);
    }

    // The model window's and the presentation's titles name the application once, at their end,
    // where the platform looks for it before appending it (QPlatformWindow::formatWindowTitle):
    // the model window's read "gpt2* — Attention Explorer · model — Attention Explorer".
    void windowTitlesNameTheApplicationOnce()
    {
        ui::ModelWindow window(std::make_unique<core::CpuBackend>(), core::BackendChoice::Cpu,
                               QString(), QString());
        QSignalSpy ended(&window, &ui::ModelWindow::loadEnded);
        window.openModel(test::modelFixturesDir() + QStringLiteral("/gpt2"),
                         QStringLiteral("The cat sat on the"));
        QVERIFY(ended.wait(20000));
        QCOMPARE(window.windowTitle(), QStringLiteral("gpt2[*] · model — Attention Explorer"));
        QVERIFY(window.windowTitle().endsWith(QGuiApplication::applicationDisplayName()));
        // The presentation's read "Attention Explorer: presentation — Attention Explorer".
        const ui::PresentationWindow presentation(nullptr);
        QCOMPARE(presentation.windowTitle(), QStringLiteral("Presentation — Attention Explorer"));
    }

private:
    struct MessageBarHeight
    {
        explicit MessageBarHeight(const ui::MessageBar* bar)
            : height(bar->isVisible() ? bar->height() : 0),
              // A line of text or a push button, whichever is taller, and the bar's margins.
              // Two lines of text and the bar's margins: one line is less.
              oneLine(2 * bar->fontMetrics().lineSpacing() + 12)
        {
        }
        int height;
        int oneLine;
    };

    static void screens()
    {
        QTest::addColumn<QSize>("screen");
        QTest::newRow("projector 1024 x 768") << QSize(1024, 768);
        QTest::newRow("laptop 1280 x 800") << QSize(1280, 800);
        QTest::newRow("monitor 1920 x 1080") << QSize(1920, 1080);
    }

    // Docks rearranged and figures rebuilt after a resize (queued, and queued again).
    static void settle()
    {
        for (int pass = 0; pass < 4; ++pass) {
            QTest::qWait(30);
            QCoreApplication::processEvents();
        }
    }

    // What keeps `window` from being usable on the screen it was resized to: a figure below
    // kUsableFigure, a docked panel that scrolls sideways or is narrower than it needs, a
    // window larger than asked (its minimum).
    static QStringList roomProblems(QMainWindow& window, QSize asked,
                                    std::initializer_list<QWidget*> figures)
    {
        QStringList problems;
        qInfo("window %dx%d (minimum %dx%d)", window.width(), window.height(),
              window.minimumSizeHint().width(), window.minimumSizeHint().height());
        if (window.width() > asked.width() || window.height() > asked.height())
            problems << QStringLiteral("the window is %1 x %2, larger than the screen's %3 x %4")
                            .arg(window.width())
                            .arg(window.height())
                            .arg(asked.width())
                            .arg(asked.height());
        for (const QWidget* figure : figures) {
            // A figure in a tab behind another gets the tab's room when it is chosen.
            const QWidget* room = figure;
            while (!room->isVisible() && room->parentWidget() &&
                   !qobject_cast<const QStackedWidget*>(room))
                room = room->parentWidget();
            qInfo("  %s %dx%d%s", qPrintable(figure->objectName()), room->width(), room->height(),
                  room == figure ? "" : " (a tab behind)");
            if (room->width() < kUsableFigure.width() || room->height() < kUsableFigure.height())
                problems << QStringLiteral("%1 is %2 x %3, less than %4 x %5")
                                .arg(figure->objectName())
                                .arg(room->width())
                                .arg(room->height())
                                .arg(kUsableFigure.width())
                                .arg(kUsableFigure.height());
        }
        for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
            if (!dock->isVisible() || dock->isFloating() || inTabBehind(dock, &window))
                continue;
            qInfo("  %s %dx%d", qPrintable(dock->objectName()), dock->width(), dock->height());
            // A panel's contents (a scroll area's widget) as wide as they need, or it scrolls
            // sideways.
            auto* area = qobject_cast<QScrollArea*>(dock->widget());
            const QWidget* contents = area ? area->widget() : dock->widget();
            const int room = area ? area->viewport()->width() : dock->widget()->width();
            if (area && area->horizontalScrollBar()->isVisible() &&
                area->horizontalScrollBar()->maximum() > 0)
                problems << dock->objectName() + QStringLiteral(" scrolls sideways");
            if (room + 1 < contents->minimumSizeHint().width())
                problems << QStringLiteral("%1 has %2 pixels across, its controls need %3")
                                .arg(dock->objectName())
                                .arg(room)
                                .arg(contents->minimumSizeHint().width());
        }
        return problems;
    }

    // Where the heatmap's numbers are (each centred on its cell).
    static std::vector<QRectF> cellNumberRects(QCustomPlot* plot)
    {
        std::vector<QRectF> out;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot->item(i))) {
                const QFontMetricsF metrics(text->font());
                const QSizeF size(metrics.horizontalAdvance(text->text()),
                                  metrics.ascent() + metrics.descent());
                out.emplace_back(text->position->pixelPosition() -
                                     QPointF(size.width() / 2, size.height() / 2),
                                 size);
            }
        return out;
    }

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
            else if (std::abs(axis->tickLabelRotation()) >=
                     45) // across the axis, a line wide (1.41 lines at 45°)
                out.emplace_back(at - line * 0.71, rect.bottom() + pad,
                                 std::abs(axis->tickLabelRotation()) > 60 ? line : line * 1.41,
                                 length);
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
        QTest::newRow("translation")
            << QStringLiteral(":/examples/04-translation-cross-attention.json");
        QTest::newRow("8 heads, a warning") << QStringLiteral("8 heads");
    }

    void open(const QString& scene, const QString& backendNotice = QString())
    {
        m_window = std::make_unique<ui::ExplorerWindow>(std::make_unique<core::CpuBackend>(),
                                                        backendNotice);
        if (scene == QLatin1String("new")) {
            const auto actions = m_window->findChildren<QAction*>();
            for (QAction* action : actions)
                if (action->text().remove(u'&') == QStringLiteral("New"))
                    action->trigger();
        } else if (scene == QLatin1String("8 heads")) {
            core::Scene many = core::makeScene(
                QStringLiteral("every key of the first row is masked here"), 16, 8, 2);
            many.mask.customCells = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4},
                                     {0, 5}, {0, 6}, {0, 7}, {0, 8}};
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
        auto size = [](const QWidget* w) {
            return QStringLiteral("%1x%2")
                .arg(w->minimumSizeHint().width())
                .arg(w->minimumSizeHint().height());
        };
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
            qInfo(
                "scene scroll %dx%d, viewport %d, controls %dx%d (min %dx%d), bars h %d/%d v %d/%d",
                scroll->width(), scroll->height(), scroll->viewport()->width(),
                scroll->widget()->width(), scroll->widget()->height(),
                scroll->widget()->minimumSizeHint().width(),
                scroll->widget()->minimumSizeHint().height(),
                scroll->horizontalScrollBar()->isVisible(),
                scroll->horizontalScrollBar()->maximum(), scroll->verticalScrollBar()->isVisible(),
                scroll->verticalScrollBar()->maximum());
        }
        const QRect central(m_window->centralWidget()->mapTo(window, QPoint(0, 0)),
                            m_window->centralWidget()->size());
        const QRect status(m_window->statusBar()->mapTo(window, QPoint(0, 0)),
                           m_window->statusBar()->size());
        QVERIFY2(QRect(QPoint(0, 0), window->size()).contains(status),
                 "the status bar is outside the window");
        QVERIFY2(!central.intersects(status), "the status bar covers the figures");
        for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
            if (!dock->isVisible())
                continue;
            const QRect rect(dock->mapTo(window, QPoint(0, 0)), dock->size());
            QVERIFY2(!rect.intersects(status),
                     qPrintable(dock->objectName() + QStringLiteral(" under the status bar")));
            QVERIFY2(!rect.intersects(central),
                     qPrintable(dock->objectName() + QStringLiteral(" over the figures")));
        }
        QStringList problems;
        for (QWidget* widget : window->findChildren<QWidget*>()) {
            if (!widget->isVisible() || !isControl(widget) || widget->window() != window ||
                inTabBehind(widget, window))
                continue;
            if (qobject_cast<QToolBar*>(widget->parentWidget()) ||
                qobject_cast<QMenuBar*>(widget->parentWidget()) ||
                qobject_cast<QStatusBar*>(widget->parentWidget()) ||
                qobject_cast<QTabBar*>(widget->parentWidget()))
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
            const bool cutAcross =
                std::max(seen.left(), own.left()) > own.left() || seen.right() < own.right();
            const bool cutDown = seen.top() > own.top() || seen.bottom() < own.bottom();
            if (!seen.isEmpty() && cutAcross && !scrollable(widget, Qt::Horizontal))
                problems << describe(widget) +
                                QStringLiteral(" cut off at the side, no scroll bar");
            if (seen.isEmpty()
                    ? !scrollable(widget, Qt::Horizontal) && !scrollable(widget, Qt::Vertical)
                    : cutDown && !scrollable(widget, Qt::Vertical))
                problems << describe(widget) + QStringLiteral(" cut off, no scroll bar");
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    std::unique_ptr<ui::ExplorerWindow> m_window;
};

QTEST_MAIN(TestWindowLayout)
#include "tst_window_layout.moc"
