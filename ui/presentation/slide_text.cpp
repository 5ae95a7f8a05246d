#include "ui/presentation/slide_builder_p.h"

#include "core/token_display.h"

#include <QLocale>
#include <algorithm>
#include <cmath>

// Type and numbers as a slide sets them.
namespace attn::ui::slide_detail {

// Set like a textbook: a serif with real italics, whichever of these is installed.
QFont mathFont(double pixels)
{
    QFont font;
    font.setFamilies({QStringLiteral("Latin Modern Roman"), QStringLiteral("CMU Serif"),
                      QStringLiteral("STIX Two Text"), QStringLiteral("Cambria"),
                      QStringLiteral("TeX Gyre Termes"), QStringLiteral("Nimbus Roman"),
                      QStringLiteral("Times New Roman"), QStringLiteral("DejaVu Serif")});
    font.setStyleHint(QFont::Serif);
    font.setPixelSize(std::max(1, int(std::lround(pixels))));
    return font;
}

QFont sansFont(double pixels, bool bold)
{
    QFont font;
    font.setPixelSize(std::max(1, int(std::floor(pixels))));
    font.setBold(bold);
    // A hair of letter spacing turns ligatures off (as in the figures): "fi" stays f-i in
    // the PDF, so its labels can be searched and copied.
    font.setLetterSpacing(QFont::AbsoluteSpacing, 0.05);
    return font;
}

// A number as a cell shows it: `decimals` places, a real minus sign, never "-0".
QString cellNumber(double value, int decimals)
{
    QString text = QLocale::c().toString(value, 'f', decimals);
    if (text.startsWith(QLatin1Char('-'))) {
        const bool zero = std::all_of(text.begin() + 1, text.end(), [](QChar c) {
            return c == QLatin1Char('0') || c == QLatin1Char('.');
        });
        text = zero ? text.mid(1) : QChar(0x2212) + text.mid(1);
    }
    return text;
}

// An attention weight as a slide writes it: a proportion, so without the leading zero
// (".85", as tables of proportions are set), which keeps 24-pixel numbers in cells of 34
// tokens side by side. 0 and 1 stay whole.
QString weightNumber(double value, int decimals)
{
    QString text = cellNumber(value, decimals);
    if (text.startsWith(QLatin1String("0.")))
        text.remove(0, 1);
    else if (text.startsWith(QString(QChar(0x2212)) + QLatin1String("0.")))
        text.remove(1, 1);
    return text;
}

// The fewest decimals, up to two, that write every shown number of a matrix exactly: a
// one-hot embedding is 0 and 1, not 0.00 and 1.00, and its cells can be narrower.
int decimalsFor(const Matrix& m, const core::Mask* mask)
{
    // Numbers of 10 and more keep one decimal, of 100 and more none: three digits say enough
    // on a slide, and the chosen cell's exact value is in the equation above it.
    double top = 0.0;
    for (int i = 0; i < int(m.rows()); ++i)
        for (int j = 0; j < int(m.cols()); ++j)
            if (std::isfinite(m(i, j)) && !(mask && mask->isMasked(i, j)))
                top = std::max(top, std::abs(double(m(i, j))));
    const int most = top >= 100.0 ? 0 : top >= 10.0 ? 1 : 2;
    int decimals = 0;
    for (int i = 0; i < int(m.rows()); ++i)
        for (int j = 0; j < int(m.cols()); ++j) {
            const double v = double(m(i, j));
            if (!std::isfinite(v) || (mask && mask->isMasked(i, j)))
                continue;
            while (decimals < most) {
                const double scaled = v * std::pow(10.0, decimals);
                if (std::abs(scaled - std::round(scaled)) <= 1e-4 * std::max(1.0, std::abs(scaled)))
                    break;
                ++decimals;
            }
            if (decimals == most)
                return most;
        }
    return decimals;
}

QString cut(const QString& text, int characters)
{
    if (characters <= 0 || text.size() <= characters)
        return text;
    return text.left(characters - 1) + QChar(0x2026);
}

QStringList tokenTexts(const std::vector<core::Token>& tokens)
{
    QStringList out;
    for (const core::Token& token : tokens)
        out.append(token.text.isEmpty() ? QStringLiteral("␣") : core::tokenDisplayText(token.text));
    return out;
}

double widest(const QFontMetricsF& metrics, const QStringList& texts, int step)
{
    double w = 0.0;
    for (qsizetype i = 0; i < texts.size(); i += std::max(1, step))
        w = std::max(w, metrics.horizontalAdvance(texts[i]));
    return w;
}

} // namespace attn::ui::slide_detail
