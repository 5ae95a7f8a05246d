// The token chips: one chip per token, laid out like text, clickable and keyboard-driven,
// and 5,000 of them set and painted at once.

#include "ui/explorer/token_chips.h"

#include <QElapsedTimer>
#include <QImage>
#include <QSignalSpy>
#include <QTest>

using namespace attn;

namespace {

std::vector<core::Token> tokensOf(const QStringList& words)
{
    std::vector<core::Token> tokens;
    qsizetype offset = 0;
    for (const QString& word : words) {
        const bool special = word.startsWith(QLatin1Char('['));
        tokens.push_back({word, special ? -1 : offset, special ? 0 : word.size(), special});
        if (!special)
            offset += word.size() + 1;
    }
    return tokens;
}

const QStringList kSentence{"[CLS]",   "The", "student",     "was",
                            "awarded", "a",   "scholarship", "[SEP]"};

} // namespace

class TestTokenChips : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_chips = std::make_unique<ui::TokenChips>();
        m_chips->resize(600, 120);
        m_chips->setTokens(tokensOf(kSentence),
                           {false, false, false, false, false, false, false, true},
                           {false, false, false, false, false, false, true, false});
        m_chips->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_chips.get()));
    }

    void cleanup() { m_chips.reset(); }

    void oneChipPerTokenInReadingOrder()
    {
        QCOMPARE(m_chips->chipCount(), 8);
        QRect previous;
        for (int i = 0; i < m_chips->chipCount(); ++i) {
            const QRect r = m_chips->chipRect(i);
            QVERIFY(!r.isEmpty());
            QVERIFY(m_chips->rect().contains(r));
            QCOMPARE(m_chips->chipAt(r.center()), i);
            if (i > 0) {
                QVERIFY(!r.intersects(previous));
                // Next to the previous chip on its row, or lower down on a new row.
                QVERIFY((r.top() == previous.top() && r.left() > previous.right()) ||
                        r.top() > previous.bottom());
            }
            previous = r;
        }
        // A wider word makes a wider chip.
        QVERIFY(m_chips->chipRect(6).width() > m_chips->chipRect(5).width());
        QCOMPARE(m_chips->chipAt(QPoint(m_chips->width() - 2, m_chips->height() - 2)), -1);
        QVERIFY(m_chips->isPadding(7));
        QVERIFY(!m_chips->isPadding(6));
    }

    void wrapsWhenNarrow()
    {
        const int wide = m_chips->chipRect(7).top();
        QCOMPARE(wide, m_chips->chipRect(0).top()); // one row at 600 px
        m_chips->resize(160, 300);
        QVERIFY(m_chips->chipRect(7).top() > m_chips->chipRect(0).top());
        QVERIFY(m_chips->heightForWidth(160) > m_chips->heightForWidth(600));
        for (int i = 0; i < m_chips->chipCount(); ++i)
            QVERIFY(m_chips->chipRect(i).right() < 160);
    }

    void clickingAChipAsksToTogglePadding()
    {
        QSignalSpy toggled(m_chips.get(), &ui::TokenChips::paddingToggled);
        QTest::mouseClick(m_chips.get(), Qt::LeftButton, {}, m_chips->chipRect(2).center());
        QCOMPARE(toggled.count(), 1);
        QCOMPARE(toggled[0][0].toInt(), 2);
        // Between chips nothing happens.
        const QPoint gap(m_chips->chipRect(2).right() + 2, m_chips->chipRect(2).center().y());
        QTest::mouseClick(m_chips.get(), Qt::LeftButton, {}, gap);
        QCOMPARE(toggled.count(), 1);
    }

    void keyboardWalksAndToggles()
    {
        QSignalSpy toggled(m_chips.get(), &ui::TokenChips::paddingToggled);
        m_chips->activateWindow();
        m_chips->setFocus(Qt::TabFocusReason);
        QVERIFY(QTest::qWaitForWindowActive(m_chips.get()));
        QTRY_VERIFY(m_chips->hasFocus());
        QCOMPARE(m_chips->currentChip(), 0);
        QTest::keyClick(m_chips.get(), Qt::Key_Tab);
        QTest::keyClick(m_chips.get(), Qt::Key_Tab);
        QCOMPARE(m_chips->currentChip(), 2);
        QTest::keyClick(m_chips.get(), Qt::Key_Space);
        QCOMPARE(toggled.count(), 1);
        QCOMPARE(toggled[0][0].toInt(), 2);
        QTest::keyClick(m_chips.get(), Qt::Key_Backtab);
        QTest::keyClick(m_chips.get(), Qt::Key_Right);
        QTest::keyClick(m_chips.get(), Qt::Key_Right);
        QCOMPARE(m_chips->currentChip(), 3);
        QTest::keyClick(m_chips.get(), Qt::Key_End);
        QCOMPARE(m_chips->currentChip(), 7);
    }

    void tooltipSaysIndexAndState()
    {
        const QString tip = m_chips->chipToolTip(6);
        QVERIFY2(tip.contains(QStringLiteral("6")) && tip.contains(QStringLiteral("scholarship")) &&
                     tip.contains(QStringLiteral("word vector")),
                 qPrintable(tip));
        QVERIFY(m_chips->chipToolTip(7).contains(QStringLiteral("padding")));
        QVERIFY(m_chips->chipToolTip(0).contains(QStringLiteral("special")));
    }

    void paddingChipsLookDifferent()
    {
        // The same word as padding and as a plain token: the padding chip is dimmer.
        m_chips->setTokens(tokensOf({"word", "word"}), {false, true});
        const QImage image = m_chips->grab().toImage();
        auto ink = [&](const QRect& r) {
            double sum = 0.0;
            for (int y = r.top(); y <= r.bottom(); ++y)
                for (int x = r.left(); x <= r.right(); ++x)
                    sum += qGray(image.pixel(x * image.width() / m_chips->width(),
                                             y * image.height() / m_chips->height()));
            return sum / double(r.width() * r.height());
        };
        QVERIFY(std::abs(ink(m_chips->chipRect(0)) - ink(m_chips->chipRect(1))) > 1.0);
    }

    void fiveThousandTokensAtOnce()
    {
        QStringList words;
        for (int i = 0; i < 5000; ++i)
            words << QStringLiteral("tok%1").arg(i * 7919 % 100000);
        const std::vector<core::Token> tokens = tokensOf(words);
        std::vector<bool> padding(tokens.size(), false);
        padding[4999] = true;
        QElapsedTimer timer;
        timer.start();
        m_chips->setTokens(tokens, padding);
        m_chips->resize(900, 200);
        m_chips->repaint();
        const qint64 first = timer.restart();
        padding[10] = true; // a padding toggle: the texts are unchanged
        m_chips->setTokens(tokens, padding);
        m_chips->repaint();
        const qint64 toggle = timer.elapsed();
        qInfo("5,000 tokens: %lld ms to set, lay out and paint; %lld ms for a padding toggle",
              first, toggle);
        QVERIFY2(first < 500, qPrintable(QStringLiteral("5,000 tokens took %1 ms").arg(first)));
        QVERIFY2(toggle < 200, qPrintable(QStringLiteral("a toggle took %1 ms").arg(toggle)));
        QCOMPARE(m_chips->chipCount(), 5000);
        QVERIFY(m_chips->isPadding(4999) && m_chips->isPadding(10));
        // Scrolls rather than growing: the widget stays a few rows high.
        QVERIFY(m_chips->heightForWidth(900) < 300);
        m_chips->setCurrentChip(4999); // scrolls it into view
        QVERIFY(m_chips->rect().contains(m_chips->chipRect(4999).center()));
        QCOMPARE(m_chips->chipAt(m_chips->chipRect(4999).center()), 4999);
    }

    // A 16,384-token sentence (the longest the app takes): only the chips in view are measured,
    // and a keystroke measures only its new text. Measuring every chip again on each keystroke
    // froze the window for half a minute at 12,000 tokens.
    void longSentenceMeasuresWhatIsInView()
    {
        QStringList words;
        for (int i = 0; i < 16384; ++i)
            words << QStringLiteral("w%1").arg(i);
        std::vector<core::Token> tokens = tokensOf(words);
        m_chips->resize(600, 120);
        const int before = m_chips->measuredTextCount();
        QElapsedTimer timer;
        timer.start();
        m_chips->setTokens(tokens, {});
        m_chips->repaint();
        const qint64 first = timer.restart();
        QCOMPARE(m_chips->chipCount(), 16384);
        // 120 pixels hold at most 5 rows of 600 / 30 = 20 chips (a chip is 16 pixels of padding
        // and its text, and at least 30 wide with the spacing): at most 100 measured.
        const int shown = m_chips->measuredTextCount() - before;
        QVERIFY2(shown > 0 && shown <= 100, qPrintable(QString::number(shown)));
        // The chips in view are measured exactly: a chip is its text and 8 pixels each side.
        const QFontMetrics fm(m_chips->font());
        QCOMPARE(m_chips->chipRect(3).width(), fm.horizontalAdvance(QStringLiteral("w3")) + 16);

        // A keystroke: "w3" becomes "w3x". One new text is measured.
        tokens[3].text = QStringLiteral("w3x");
        const int typed = m_chips->measuredTextCount();
        timer.restart();
        m_chips->setTokens(tokens, {});
        m_chips->repaint();
        const qint64 keystroke = timer.restart();
        QVERIFY2(m_chips->measuredTextCount() - typed <= 2,
                 qPrintable(QString::number(m_chips->measuredTextCount() - typed)));
        QCOMPARE(m_chips->chipRect(3).width(), fm.horizontalAdvance(QStringLiteral("w3x")) + 16);

        // The end of the sentence, scrolled into view, is measured when it is seen.
        m_chips->setCurrentChip(16383);
        QVERIFY(m_chips->rect().contains(m_chips->chipRect(16383).center()));
        QCOMPARE(m_chips->chipAt(m_chips->chipRect(16383).center()), 16383);
        QCOMPARE(m_chips->chipRect(16383).width(),
                 fm.horizontalAdvance(QStringLiteral("w16383")) + 16);
        QVERIFY(m_chips->measuredTextCount() - before <= 250);
        qInfo("16,384 tokens: %lld ms to set, lay out and paint; %lld ms for a keystroke", first,
              keystroke);
    }

    void emptyIsFine()
    {
        m_chips->setTokens({}, {});
        QCOMPARE(m_chips->chipCount(), 0);
        QCOMPARE(m_chips->chipAt(QPoint(10, 10)), -1);
        QVERIFY(m_chips->chipRect(0).isEmpty());
        m_chips->repaint();
    }

private:
    std::unique_ptr<ui::TokenChips> m_chips;
};

QTEST_MAIN(TestTokenChips)
#include "tst_token_chips.moc"
