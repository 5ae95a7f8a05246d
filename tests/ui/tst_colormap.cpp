// The colour maps pinned to matplotlib's own tables (lib/matplotlib/_cm_listed.py, 256
// entries each; matplotlib maps t to entry min(int(t * 256), 255), and to_hex rounds each
// channel of the float entry times 255):
//   viridis  [0] 0.267004 0.004874 0.329415  [128] 0.127568 0.566949 0.550556  [255] 0.993248
//   0.906157 0.143936 cividis  [0] 0.000000 0.135112 0.304751  [128] 0.488697 0.485318 0.471008
//   [255] 0.995737 0.909344 0.217772 magma    [0] 0.001462 0.000466 0.013866  [128] 0.716387
//   0.214982 0.475290  [255] 0.987053 0.991438 0.749504
#include "ui/figures/colormap.h"
#include "ui/figures/figure_export.h"
#include "ui/figures/heatmap_painter.h"

#include <qcustomplot.h>

#include <QPainter>
#include <QtTest>

#include <limits>

using attn::ui::Colormap;

namespace {

QRgb fromTable(double r, double g, double b)
{
    return qRgb(int(std::lround(r * 255)), int(std::lround(g * 255)), int(std::lround(b * 255)));
}

QString hex(QRgb rgb)
{
    return QColor(rgb).name();
}

// A white canvas to paint heatmaps on, its pixels one to one with the painter's units.
QImage canvas(int width, int height)
{
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(Qt::white);
    return image;
}

} // namespace

Q_DECLARE_METATYPE(Colormap)

class TestColormap : public QObject
{
    Q_OBJECT

private slots:
    void matplotlibColours_data()
    {
        QTest::addColumn<Colormap>("map");
        QTest::addColumn<double>("t");
        QTest::addColumn<QRgb>("expected");
        QTest::addRow("viridis 0")
            << Colormap::Viridis << 0.0 << fromTable(0.267004, 0.004874, 0.329415);
        QTest::addRow("viridis 0.5")
            << Colormap::Viridis << 0.5 << fromTable(0.127568, 0.566949, 0.550556);
        QTest::addRow("viridis 1")
            << Colormap::Viridis << 1.0 << fromTable(0.993248, 0.906157, 0.143936);
        QTest::addRow("cividis 0")
            << Colormap::Cividis << 0.0 << fromTable(0.000000, 0.135112, 0.304751);
        QTest::addRow("cividis 0.5")
            << Colormap::Cividis << 0.5 << fromTable(0.488697, 0.485318, 0.471008);
        QTest::addRow("cividis 1")
            << Colormap::Cividis << 1.0 << fromTable(0.995737, 0.909344, 0.217772);
        QTest::addRow("magma 0") << Colormap::Magma << 0.0
                                 << fromTable(0.001462, 0.000466, 0.013866);
        QTest::addRow("magma 0.5")
            << Colormap::Magma << 0.5 << fromTable(0.716387, 0.214982, 0.475290);
        QTest::addRow("magma 1") << Colormap::Magma << 1.0
                                 << fromTable(0.987053, 0.991438, 0.749504);
    }

    void matplotlibColours()
    {
        QFETCH(Colormap, map);
        QFETCH(double, t);
        QFETCH(QRgb, expected);
        // The hex strings matplotlib prints, as a reader would check them.
        if (map == Colormap::Viridis && t == 0.5)
            QCOMPARE(hex(expected), QStringLiteral("#21918c"));
        if (map == Colormap::Magma && t == 0.5)
            QCOMPARE(hex(expected), QStringLiteral("#b73779"));
        QCOMPARE(hex(attn::ui::colorAt(map, t).rgb()), hex(expected));
        // The gradient the heatmaps draw with (256 levels): within one step of the table.
        const QRgb drawn = attn::ui::colorGradient(map).color(t, QCPRange(0.0, 1.0));
        QVERIFY2(std::abs(qRed(drawn) - qRed(expected)) <= 2 &&
                     std::abs(qGreen(drawn) - qGreen(expected)) <= 2 &&
                     std::abs(qBlue(drawn) - qBlue(expected)) <= 2,
                 qPrintable(hex(drawn) + QStringLiteral(" vs ") + hex(expected)));
    }

    // The figure kit's heatmap: a 2 x 2 matrix into 40 x 40 pixels, each cell 20 x 20, row i at
    // the top. The expected colours are the viridis stops of colormap.cpp (matplotlib's):
    // 0 is #440154 and 1 is #fde725; 0.5 is the 256-colour table's entry 128, t = 128 / 255,
    // 8 / 255 of the way from stop 8 (#21918c) to stop 9 (#1fa088): red 33 - 2 * 0.031 = 32.94,
    // green 145 + 15 * 0.031 = 145.47, blue 140 - 4 * 0.031 = 139.87, so #21918c again. A NaN
    // cell is masked: #d9d9d9. Raster (an image scaled) and vector (rectangles) paint alike.
    void heatmapCellsTakeTheColormapsColours_data()
    {
        QTest::addColumn<bool>("vector");
        QTest::addRow("image") << false;
        QTest::addRow("rectangles") << true;
    }

    void heatmapCellsTakeTheColormapsColours()
    {
        QFETCH(bool, vector);
        attn::core::Matrix m(2, 2);
        m << 0.0f, 1.0f, std::numeric_limits<float>::quiet_NaN(), 0.5f;
        QImage image = canvas(40, 40);
        {
            QPainter painter(&image);
            attn::ui::paint::drawCells(painter, QRectF(0, 0, 40, 40), m,
                                       attn::ui::ColourTable(Colormap::Viridis), 0.0, 1.0, vector);
        }
        for (const QPoint at : {QPoint(1, 1), QPoint(10, 10), QPoint(18, 18)})
            QCOMPARE(hex(image.pixel(at)), QStringLiteral("#440154"));
        QCOMPARE(hex(image.pixel(30, 10)), QStringLiteral("#fde725"));
        QCOMPARE(hex(image.pixel(10, 30)), QStringLiteral("#d9d9d9"));
        QCOMPARE(hex(image.pixel(30, 30)), QStringLiteral("#21918c"));
        // Values outside the range are clamped to the ends; NaN takes a style's masked colour.
        attn::core::Matrix wide(1, 3);
        wide << -5.0f, 7.0f, std::numeric_limits<float>::quiet_NaN();
        const QImage cells = attn::ui::paint::cellImage(
            wide, attn::ui::ColourTable(Colormap::Viridis), 0.0, 1.0, QColor(0x4a, 0x4d, 0x52));
        QCOMPARE(hex(cells.pixel(0, 0)), QStringLiteral("#440154"));
        QCOMPARE(hex(cells.pixel(1, 0)), QStringLiteral("#fde725"));
        QCOMPARE(hex(cells.pixel(2, 0)), QStringLiteral("#4a4d52"));
    }

    // A row of few cells in the map's exact colours, -1 to 1 through the diverging map:
    // -1 is its first stop #053061, 0 its middle one #f7f6f6, 1 its last #67001f; 3 is clamped.
    void heatmapRowTakesExactColours()
    {
        attn::core::RowVector v(4);
        v << -1.0f, 0.0f, 1.0f, 3.0f;
        QImage image = canvas(40, 10);
        {
            QPainter painter(&image);
            attn::ui::paint::drawCellRow(painter, QRectF(0, 0, 40, 10), v, Colormap::Diverging,
                                         -1.0, 1.0);
        }
        QCOMPARE(hex(image.pixel(5, 5)), QStringLiteral("#053061"));
        QCOMPARE(hex(image.pixel(15, 5)), QStringLiteral("#f7f6f6"));
        QCOMPARE(hex(image.pixel(25, 5)), QStringLiteral("#67001f"));
        QCOMPARE(hex(image.pixel(35, 5)), QStringLiteral("#67001f"));
    }

    // A masked cell of a greyscale theme: its fill, with the hatch's dark lines across it.
    void maskedCellIsHatched()
    {
        QImage image = canvas(32, 32);
        {
            QPainter painter(&image);
            attn::ui::paint::fillCell(painter, QRectF(0, 0, 16, 32), Qt::white, false);
            attn::ui::paint::fillCell(painter, QRectF(16, 0, 16, 32), Qt::white, true);
        }
        int plainInk = 0, hatchInk = 0, hatchWhite = 0;
        for (int y = 0; y < 32; ++y)
            for (int x = 0; x < 32; ++x) {
                const bool ink = image.pixel(x, y) != qRgb(255, 255, 255);
                if (x < 16)
                    plainInk += ink;
                else
                    ++(ink ? hatchInk : hatchWhite);
            }
        QCOMPARE(plainInk, 0);
        QVERIFY(hatchInk > 0);
        QVERIFY(hatchWhite > 0);
    }

    // Text in cells reads against each cell: white on viridis' dark end, black on its light end;
    // none at all where even the smallest legible size does not fit a cell.
    void cellTextContrastsWithItsCell()
    {
        const QColor dark(0x44, 0x01, 0x54), light(0xfd, 0xe7, 0x25);
        const auto background = [&](int, int j) { return j == 0 ? dark : light; };
        const auto text = [](int, int) { return QStringLiteral("8"); };
        QFont font;
        font.setPointSizeF(10.0);
        QImage image = canvas(80, 40);
        bool drawn = false;
        {
            QPainter painter(&image);
            attn::ui::paint::fillCell(painter, QRectF(0, 0, 40, 40), dark);
            attn::ui::paint::fillCell(painter, QRectF(40, 0, 40, 40), light);
            drawn = attn::ui::paint::drawCellText(painter, QRectF(0, 0, 80, 40), 1, 2, text,
                                                  background, font);
        }
        QVERIFY(drawn);
        int white = 0, black = 0;
        for (int y = 0; y < 40; ++y)
            for (int x = 0; x < 40; ++x) {
                white += qGray(image.pixel(x, y)) > 200;
                black += qGray(image.pixel(x + 40, y)) < 40;
            }
        QVERIFY(white > 0);
        QVERIFY(black > 0);

        QImage tiny = canvas(4, 2);
        {
            QPainter painter(&tiny);
            QVERIFY(!attn::ui::paint::drawCellText(painter, QRectF(0, 0, 4, 2), 1, 2, text,
                                                   background, font));
        }
        for (int x = 0; x < 4; ++x)
            QCOMPARE(tiny.pixel(x, 0), qRgb(255, 255, 255));
    }

    // Labels 10 high: every one at a pitch of 10 (10 >= 9.5), every 3rd at 4 (9.5 / 4 = 2.4).
    void labelsThinnedSoTheyNeverOverlap()
    {
        QCOMPARE(attn::ui::paint::labelStep(10.0, 10.0), 1);
        QCOMPARE(attn::ui::paint::labelStep(4.0, 10.0), 3);
    }

    // The presentation's handout goes through the one writer: three pages of 1920 x 1080 at
    // 144 DPI are 960 x 540 points each.
    void pdfPagesHaveTheirCountAndSize()
    {
        int painted = 0;
        const QByteArray pdf = attn::ui::writePdfPages(
            QSize(1920, 1080), 144.0, 3, QStringLiteral("Pages"), [&](QPainter& painter, int page) {
                QCOMPARE(page, painted++);
                // One unit of the painter is one pixel of the layout.
                QVERIFY(std::abs(painter.transform().m11() - 1.0) < 1e-9);
                painter.fillRect(QRectF(0, 0, 1920, 1080), Qt::black);
            });
        QCOMPARE(painted, 3);
        QVERIFY(pdf.startsWith("%PDF"));
        QVERIFY(pdf.contains("/Count 3"));
        QCOMPARE(pdf.count("/MediaBox [0 0 960.000000 540.000000]"), 3);
    }

    // Print greyscale: white for no weight, near-black for all of it.
    void grayRunsFromWhiteToInk()
    {
        QCOMPARE(attn::ui::colorAt(Colormap::Gray, 0.0).name(), QStringLiteral("#ffffff"));
        QCOMPARE(attn::ui::colorAt(Colormap::Gray, 1.0).name(), QStringLiteral("#181818"));
    }
};

QTEST_MAIN(TestColormap)
#include "tst_colormap.moc"
