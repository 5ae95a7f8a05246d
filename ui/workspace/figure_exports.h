#pragma once

#include "ui/figures/figure_export.h"
#include "ui/presentation/presentation_export.h"

#include "core/attention_result.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <memory>

class QMainWindow;
class QWidget;

namespace attn::ui {

class ExportDialog;
class PresentationWindow;
struct ExportSource;

// The export and presentation plumbing a figure window shares: the non-modal export dialog
// kept on the window's current figure, figure files written whole or not at all (the outcome
// in the status bar, a failure in the window's message bar), the clipboard, and the
// presentation opened over the figure with its PDF. A window owns one and configures it with
// its own figure sources and its own words; keeping the open dialog and presentation on a new
// result stays with the window (sourceChanged(), presentation()).
class FigureExports : public QObject
{
    Q_OBJECT

public:
    struct Sources
    {
        // Whether there is a figure to export or copy.
        std::function<bool()> hasFigure;
        // The figure the export dialog and the clipboard take: the view on screen.
        std::function<ExportSource()> exportSource;
        // What the presentation shows; null while there is nothing to present.
        std::function<std::shared_ptr<const core::AttentionResult>()> presented;
        // A new presentation's head, theme and steps, set before it shows.
        std::function<void(PresentationWindow&)> setUpPresentation;
        // The widget the presentation opens over.
        std::function<QWidget*()> presentationAnchor;
        // Shows a failure or a refusal to the user (the window's message bar).
        std::function<void(const QString&)> showError;
    };
    // The window's own words and manners. An empty message: the command does nothing, silently.
    struct Words
    {
        QString noFigure;              // the export dialog asked for before there is a figure
        QString nothingToPresent;      // the presentation or its PDF asked for before a result
        bool reportDialogSaves = true; // "Exported FILE" in the status bar after the dialog saves
        bool activateDialog = true;    // an open dialog takes the focus when asked for again
    };

    FigureExports(QMainWindow& window, Sources sources, Words words);

    // Non-null while open.
    ExportDialog* dialog() const { return m_dialog; }
    PresentationWindow* presentation() const { return m_presentation; }

    // Opens the export dialog on exportSource(), or brings the open one forward.
    void openDialog();
    // The open dialog follows the window's figure (a new result, another view).
    void sourceChanged();
    // The figure on screen to the clipboard as PNG and SVG.
    void copyFigure();
    // Opens the presentation over the window; closes it when it is open.
    void togglePresentation();
    // The presentation's steps as a PDF at `path`: `deck` as the window would open it, else
    // what the open presentation shows (head, theme, chosen cell). False after a failure,
    // which leaves an old file intact.
    bool exportPresentation(const QString& path, const std::function<DeckOptions()>& deck);
    // A figure file at `path`, in the format its suffix names; `bytes` renders it. False
    // after a failure (an unknown suffix, a render or write error), an old file intact.
    bool writeFigure(const QString& path, const std::function<QByteArray(FigureFormat)>& bytes);
    // Asks where to write a figure, starting with `fileName` in the last folder used, and
    // remembers the folder; empty when cancelled.
    QString askFigurePath(const QString& fileName);

private:
    void showExported(const QString& path);

    QMainWindow& m_window;
    Sources m_sources;
    Words m_words;
    QPointer<ExportDialog> m_dialog;
    QPointer<PresentationWindow> m_presentation;
};

} // namespace attn::ui
