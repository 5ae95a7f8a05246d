// The colour maps pinned to matplotlib's own tables (lib/matplotlib/_cm_listed.py, 256
// entries each; matplotlib maps t to entry min(int(t * 256), 255), and to_hex rounds each
// channel of the float entry times 255):
//   viridis  [0] 0.267004 0.004874 0.329415  [128] 0.127568 0.566949 0.550556  [255] 0.993248
//   0.906157 0.143936 cividis  [0] 0.000000 0.135112 0.304751  [128] 0.488697 0.485318 0.471008
//   [255] 0.995737 0.909344 0.217772 magma    [0] 0.001462 0.000466 0.013866  [128] 0.716387
//   0.214982 0.475290  [255] 0.987053 0.991438 0.749504
#include "ui/figures/colormap.h"

#include <qcustomplot.h>

#include <QtTest>

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

    // Print greyscale: white for no weight, near-black for all of it.
    void grayRunsFromWhiteToInk()
    {
        QCOMPARE(attn::ui::colorAt(Colormap::Gray, 0.0).name(), QStringLiteral("#ffffff"));
        QCOMPARE(attn::ui::colorAt(Colormap::Gray, 1.0).name(), QStringLiteral("#181818"));
    }
};

QTEST_MAIN(TestColormap)
#include "tst_colormap.moc"
