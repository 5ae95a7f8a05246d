// The lines view: the same render() draws the screen and vector files, with the tokens as
// text and a line per (query, key) whose ink follows the weight.

#include "ui/views/lines_view.h"

#include "support/problems.h"

#include <QBuffer>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>
#include <QSvgGenerator>
#include <QTest>

using namespace attn;
using core::Matrix;

namespace {

// Four tokens; query 1 ("cat") puts 0.9 on key 2 ("sat"), the strongest weight.
std::shared_ptr<core::AttentionResult> handResult(int heads = 1)
{
    auto problem = std::make_shared<core::Problem>();
    problem->queryTokens = test::tokensOf({"The", "cat", "sat", "down"});
    problem->keyTokens = problem->queryTokens;
    problem->keyIsPadding.assign(4, false);
    auto result = std::make_shared<core::AttentionResult>();
    result->problem = problem;
    Matrix w(4, 4);
    w << 0.70f, 0.10f, 0.10f, 0.10f, //
        0.05f, 0.05f, 0.90f, 0.00f,  //
        0.25f, 0.25f, 0.25f, 0.25f,  //
        0.00f, 0.00f, 0.50f, 0.50f;
    for (int h = 0; h < heads; ++h) {
        core::HeadResult head;
        head.weights = h == 0 ? w : Matrix(Matrix::Identity(4, 4));
        result->heads.push_back(head);
    }
    return result;
}

bool isBackground(QRgb pixel)
{
    return qRed(pixel) > 250 && qGreen(pixel) > 250 && qBlue(pixel) > 250;
}

} // namespace

class TestLinesView : public QObject
{
    Q_OBJECT

private slots:
    void strongestLineIsDrawn()
    {
        const auto result = handResult();
        QImage image(640, 400, QImage::Format_ARGB32);
        image.fill(Qt::white);
        const QRectF target(0, 0, 640, 400);
        const QFont font(QStringLiteral("DejaVu Sans"), 10);
        {
            QPainter painter(&image);
            painter.setPen(Qt::black);
            ui::LinesView::render(painter, target, *result, 0, font, QColor(0x1f, 0x77, 0xb4));
        }
        const auto g = ui::LinesView::layout(target, *result, 0, font, &image);
        QVERIFY(g.message.isEmpty());
        QCOMPARE(int(g.queryAnchors.size()), 4);
        const QPointF from = g.queryAnchors[1];
        const QPointF to = g.keyAnchors[2];
        QVERIFY(to.x() - from.x() > 100.0);
        for (double t = 0.1; t < 0.95; t += 0.1) {
            const QPointF p = from + (to - from) * t;
            QVERIFY2(!isBackground(image.pixel(p.toPoint())),
                     qPrintable(QStringLiteral("t = %1").arg(t)));
        }
        // Above the first row, beside the anchors, nothing is drawn.
        const QPointF empty(from.x() + 4.0, g.queryAnchors[0].y() - g.rowHeight * 1.2);
        QVERIFY(isBackground(image.pixel(empty.toPoint())));
        // Ink follows the weight: the 0.9 line is darker than a 0.25 one at the same t.
        const QPointF strong = from + (to - from) * 0.5;
        const QPointF weak = g.queryAnchors[2] + (g.keyAnchors[0] - g.queryAnchors[2]) * 0.2;
        QVERIFY(qGray(image.pixel(strong.toPoint())) < qGray(image.pixel(weak.toPoint())));
        // The labels are inside the target and do not overlap the lines' span.
        for (const QRectF& r : g.queryLabels)
            QVERIFY(target.contains(r) && r.right() < from.x());
        for (const QRectF& r : g.keyLabels)
            QVERIFY(target.contains(r) && r.left() > to.x());
    }

    void svgKeepsTokensAsText()
    {
        const auto result = handResult();
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(QSize(480, 300));
        svg.setViewBox(QRect(0, 0, 480, 300));
        {
            QPainter painter(&svg);
            ui::LinesView::render(painter, QRectF(0, 0, 480, 300), *result, 0,
                                  QFont(QStringLiteral("DejaVu Sans"), 10), Qt::darkRed);
        }
        const QString text = QString::fromUtf8(buffer.data());
        for (const char* word : {">The<", ">cat<", ">sat<", ">down<", ">Queries<", ">Keys<"})
            QVERIFY2(text.contains(QLatin1String(word)), word);
        QVERIFY(text.contains(QLatin1String("<text")));
        QVERIFY(text.contains(QLatin1String("<polyline")) ||
                text.contains(QLatin1String("<line")) || text.contains(QLatin1String("<path")));
    }

    void meanOfEnabledHeads()
    {
        auto result = handResult(2);
        const Matrix mean = ui::LinesView::headWeights(*result, -1);
        QCOMPARE(mean, Matrix((result->heads[0].weights + result->heads[1].weights) / 2.0f));
        result->heads[1].enabled = false;
        QCOMPARE(ui::LinesView::headWeights(*result, -1), result->heads[0].weights);
        QCOMPARE(ui::LinesView::headWeights(*result, 1), Matrix(Matrix::Identity(4, 4)));
    }

    void pooledAndOversizedShowAMessage()
    {
        auto result = handResult();
        result->pooling.pooled = true;
        result->pooling.rowBlock = result->pooling.colBlock = 8;
        QVERIFY(ui::LinesView::unavailableReason(*result, 0).contains(QStringLiteral("pooled")));
        QVERIFY(!ui::LinesView::unavailableReason(*handResult(), 3).isEmpty()); // no head 4
        QVERIFY(ui::LinesView::unavailableReason(*handResult(), -1).isEmpty());

        // The message is drawn where the lines would be, and nothing else.
        QImage image(400, 240, QImage::Format_ARGB32);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            ui::LinesView::render(painter, QRectF(image.rect()), *result, 0, QFont(), Qt::blue);
        }
        bool anyBlue = false;
        for (int y = 0; y < image.height() && !anyBlue; ++y)
            for (int x = 0; x < image.width(); ++x)
                if (qBlue(image.pixel(x, y)) > qRed(image.pixel(x, y)) + 60) {
                    anyBlue = true;
                    break;
                }
        QVERIFY(!anyBlue);
    }

    void hoverShowsOnlyThatTokensLines()
    {
        ui::LinesView view;
        view.resize(560, 320);
        view.setResult(handResult(), 0);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto g =
            ui::LinesView::layout(QRectF(view.rect()), *view.result(), 0, view.font(), &view);
        const QPointF onCat = g.queryLabels[1].center();
        QMouseEvent move(QEvent::MouseMove, onCat, view.mapToGlobal(onCat), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(&view, &move);
        QCOMPARE(view.highlight().side, ui::LinesView::Side::Query);
        QCOMPARE(view.highlight().index, 1);

        // With "cat" hovered, the line from "The" to "The" (0.7) is gone; cat -> sat stays.
        const QImage image = view.grab().toImage();
        const double ratio = image.width() / double(view.width());
        auto pixel = [&](QPointF p) { return image.pixel((p * ratio).toPoint()); };
        const QColor base = view.palette().color(QPalette::Base);
        const QPointF theThe = (g.queryAnchors[0] + g.keyAnchors[0]) / 2.0;
        const QPointF catSat = (g.queryAnchors[1] + g.keyAnchors[2]) / 2.0;
        QCOMPARE(QColor(pixel(theThe)), base);
        QVERIFY(QColor(pixel(catSat)) != base);

        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(&view, &leave);
        QCOMPARE(view.highlight().side, ui::LinesView::Side::Neither);
    }

    void manyTokensStayReadable()
    {
        // 300 tokens in 400 px: labels thin out instead of overprinting, lines still drawn.
        auto result = handResult();
        auto problem = std::make_shared<core::Problem>(*result->problem);
        QStringList words;
        for (int i = 0; i < 300; ++i)
            words << QStringLiteral("w%1").arg(i);
        problem->queryTokens = problem->keyTokens = test::tokensOf(words);
        problem->keyIsPadding.assign(300, false);
        result->problem = problem;
        result->heads[0].weights = Matrix::Identity(300, 300);
        QImage image(600, 400, QImage::Format_ARGB32);
        const auto g = ui::LinesView::layout(QRectF(image.rect()), *result, 0,
                                             QFont(QStringLiteral("DejaVu Sans"), 10), &image);
        QVERIFY(g.message.isEmpty());
        QVERIFY(g.labelStep > 1);
        QVERIFY(g.queryLabels.back().bottom() <= 400.0);
    }
};

QTEST_MAIN(TestLinesView)
#include "tst_lines_view.moc"
