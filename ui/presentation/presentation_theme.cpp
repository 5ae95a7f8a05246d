#include "ui/presentation/presentation_theme.h"

namespace attn::ui {

QString presentationThemeName(PresentationTheme theme)
{
    switch (theme) {
    case PresentationTheme::Light:
        return QStringLiteral("Light");
    case PresentationTheme::Dark:
        return QStringLiteral("Dark");
    case PresentationTheme::HighContrast:
        return QStringLiteral("High contrast");
    case PresentationTheme::Print:
        return QStringLiteral("Print");
    }
    return {};
}

FigureStyle presentationStyle(PresentationTheme theme)
{
    FigureStyle style; // Light: the figures' own colours
    switch (theme) {
    case PresentationTheme::Light:
        break;
    case PresentationTheme::Dark:
        style.background = QColor(0x15, 0x17, 0x1a);
        style.text = QColor(0xec, 0xec, 0xec);
        style.mutedText =
            QColor(0x9a, 0x9e, 0xa6); // 7:1 on the background: a hall's back row reads it
        style.masked = QColor(0x4a, 0x4d, 0x52);
        style.placeholder = QColor(0x23, 0x26, 0x2b);
        style.accent = QColor(0xe6, 0x9f, 0x00); // Okabe-Ito orange
        break;
    case PresentationTheme::HighContrast:
        // A projector washes out greys and thin lines: black on white, lines twice as thick.
        style.background = Qt::white;
        style.text = Qt::black;
        style.mutedText = QColor(0x59, 0x59, 0x59); // still 7:1 on white
        style.placeholder = Qt::white;
        style.accent = Qt::black;
        style.lineScale = 2.0;
        break;
    case PresentationTheme::Print:
        style.background = Qt::white;
        style.text = Qt::black;
        style.mutedText = QColor(0x59, 0x59, 0x59);
        style.masked = Qt::white;
        style.hatchMasked = true;
        style.placeholder = Qt::white;
        style.accent = Qt::black;
        style.signedColormap = Colormap::Gray;
        break;
    }
    if (theme == PresentationTheme::Light)
        style.mutedText =
            QColor(0x5f, 0x63, 0x68); // 6:1 on white: readable, still quieter than the text
    return style;
}

Colormap presentationColormap(PresentationTheme theme)
{
    switch (theme) {
    case PresentationTheme::HighContrast:
        return Colormap::Cividis;
    case PresentationTheme::Print:
        return Colormap::Gray;
    case PresentationTheme::Light:
    case PresentationTheme::Dark:
        break;
    }
    return Colormap::Viridis;
}

} // namespace attn::ui
