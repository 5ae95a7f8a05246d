// The heatmap from the keyboard alone: Tab reaches it, arrows move a cell cursor that says
// what hovering says (to a screen reader too), Space masks and unmasks the cell.

#include "ui/document/scene_document.h"
#include "ui/explorer/explorer_window.h"
#include "ui/views/heatmap_view.h"

#include "core/cpu_backend.h"
#include "core/scene.h"
#include "core/scene_json.h"

#include <QtTest>

#include <QAccessible>
#include <QApplication>

namespace core = attn::core;
namespace ui = attn::ui;

class TestHeatmapKeyboard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_heatmap_keyboard"));
        QSettings().clear();
    }

    void cleanupTestCase() { QSettings().clear(); }

    // Tab and arrows only, from the window's first focus to a masked cell and back.
    void tabAndArrowsOnly()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.setScene(core::loadScene(QStringLiteral(":/examples/01-this-is-a-cat.json")),
                        QString());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY(window.isUpToDate() && window.document()->result());
        ui::HeatmapView* heatmap = window.headView();

        // Tab walks the controls until the heatmap has focus.
        int presses = 0;
        while (QApplication::focusWidget() != heatmap && presses < 200) {
            QWidget* focus = QApplication::focusWidget() ? QApplication::focusWidget() : &window;
            QTest::keyClick(focus, Qt::Key_Tab);
            ++presses;
        }
        QVERIFY2(QApplication::focusWidget() == heatmap, "Tab never reaches the heatmap");
        QCOMPARE(heatmap->accessibleName(), QStringLiteral("Attention heatmap"));
        QVERIFY(!heatmap->cursorCell());

        // The first arrow shows the cursor on the first cell; then each moves one cell.
        QTest::keyClick(heatmap, Qt::Key_Down);
        QCOMPARE(heatmap->cursorCell()->row, 0);
        QCOMPARE(heatmap->cursorCell()->column, 0);
        QTest::keyClick(heatmap, Qt::Key_Right);
        QTest::keyClick(heatmap, Qt::Key_Right);
        QTest::keyClick(heatmap, Qt::Key_Left);
        QCOMPARE(heatmap->cursorCell()->column, 1);
        QTest::keyClick(heatmap, Qt::Key_Up); // stays on the first row
        QCOMPARE(heatmap->cursorCell()->row, 0);
        QTest::keyClick(heatmap, Qt::Key_End);
        QCOMPARE(heatmap->cursorCell()->column, 3); // "This is a cat." is four tokens
        QTest::keyClick(heatmap, Qt::Key_Home);
        QTest::keyClick(heatmap, Qt::Key_Right);

        // What a screen reader learns: the cell's tokens and value, as plain text.
        const auto result = window.document()->result();
        const QString description = heatmap->accessibleDescription();
        QVERIFY2(description.contains(QStringLiteral("This")) &&
                     description.contains(QStringLiteral("is")) &&
                     description.contains(QStringLiteral("head 1")) &&
                     !description.contains(QLatin1Char('<')),
                 qPrintable(description));
        const float before = result->heads.front().weights(0, 1);
        QVERIFY(before > 0.0f);

        // Space masks the cell: its weight becomes 0 and the row still sums to 1.
        QTest::keyClick(heatmap, Qt::Key_Space);
        QTRY_VERIFY(window.isUpToDate() && window.document()->result() != result);
        const auto& mask = window.document()->scene().mask.customCells;
        QVERIFY(std::find(mask.begin(), mask.end(), std::pair{0, 1}) != mask.end());
        const core::Matrix& masked = window.document()->result()->heads.front().weights;
        QCOMPARE(masked(0, 1), 0.0f);
        QVERIFY(std::abs(masked.row(0).sum() - 1.0f) < 1e-6f);
        QCOMPARE(heatmap->cursorCell()->column, 1); // the cursor stays through the recompute

        // Space again clears it, and Ctrl+Z is not needed to get the weight back.
        QTest::keyClick(heatmap, Qt::Key_Space);
        QTRY_VERIFY(window.isUpToDate() &&
                    std::abs(window.document()->result()->heads.front().weights(0, 1) - before) <
                        1e-7f);
        QVERIFY(window.document()->scene().mask.customCells.empty());
        window.document()->undoStack()->setClean();
    }
};

QTEST_MAIN(TestHeatmapKeyboard)
#include "tst_heatmap_keyboard.moc"
