#include "ui/workspace/figure_exports.h"

#include "ui/document/preferences.h"
#include "ui/export/export_dialog.h"
#include "ui/presentation/presentation_window.h"

#include "core/atomic_file.h"

#include <QDir>
#include <QFileDialog>
#include <QMainWindow>
#include <QStatusBar>

namespace attn::ui {

FigureExports::FigureExports(QMainWindow& window, Sources sources, Words words)
    : QObject(&window), m_window(window), m_sources(std::move(sources)), m_words(std::move(words))
{
}

void FigureExports::openDialog()
{
    if (!m_sources.hasFigure()) {
        if (!m_words.noFigure.isEmpty())
            m_sources.showError(m_words.noFigure);
        return;
    }
    if (!m_dialog) {
        m_dialog = new ExportDialog(m_sources.exportSource(), &m_window);
        m_dialog->setAttribute(Qt::WA_DeleteOnClose);
        if (m_words.reportDialogSaves)
            connect(m_dialog, &ExportDialog::saved, this,
                    [this](const QString& path) { showExported(path); });
    }
    m_dialog->show();
    m_dialog->raise();
    if (m_words.activateDialog)
        m_dialog->activateWindow();
}

void FigureExports::sourceChanged()
{
    if (m_dialog)
        m_dialog->setSource(m_sources.exportSource());
}

void FigureExports::copyFigure()
{
    if (!m_sources.hasFigure())
        return;
    const ExportSource source = m_sources.exportSource();
    try {
        copyFigureToClipboard(source, windowExportSettings(source));
    } catch (const std::exception& error) {
        m_sources.showError(
            tr("The figure was not copied: %1").arg(QString::fromUtf8(error.what())));
        return;
    }
    m_window.statusBar()->showMessage(tr("Figure copied as PNG and SVG"), 4000);
}

void FigureExports::togglePresentation()
{
    if (m_presentation) {
        m_presentation->close();
        return;
    }
    auto result = m_sources.presented();
    if (!result) {
        if (!m_words.nothingToPresent.isEmpty())
            m_sources.showError(m_words.nothingToPresent);
        return;
    }
    m_presentation = new PresentationWindow(std::move(result), &m_window);
    m_presentation->setAttribute(Qt::WA_DeleteOnClose);
    m_sources.setUpPresentation(*m_presentation);
    m_presentation->showOver(m_window, m_sources.presentationAnchor());
}

bool FigureExports::exportPresentation(const QString& path,
                                       const std::function<DeckOptions()>& windowDeck)
{
    const auto result = m_sources.presented();
    if (!result) {
        m_sources.showError(m_words.nothingToPresent);
        return false;
    }
    DeckOptions deck = windowDeck();
    if (m_presentation) { // what is on the screen: its head, theme and chosen cell
        deck.head = m_presentation->head();
        deck.theme = m_presentation->theme();
        deck.query = m_presentation->query();
        deck.key = m_presentation->key();
    }
    try {
        core::writeFileAtomically(path, presentationPdf(*result, deck));
    } catch (const std::exception& error) {
        m_sources.showError(
            tr("The presentation was not exported: %1").arg(QString::fromUtf8(error.what())));
        return false;
    }
    showExported(path);
    return true;
}

bool FigureExports::writeFigure(const QString& path,
                                const std::function<QByteArray(FigureFormat)>& bytes)
{
    const auto format = figureFormatForPath(path);
    if (!format) {
        m_sources.showError(tr("Export: the file name must end in .png, .svg or .pdf"));
        return false;
    }
    try {
        core::writeFileAtomically(path, bytes(*format));
    } catch (const std::exception& error) {
        m_sources.showError(
            tr("The figure was not exported: %1").arg(QString::fromUtf8(error.what())));
        return false;
    }
    showExported(path);
    return true;
}

QString FigureExports::askFigurePath(const QString& fileName)
{
    const QString path = QFileDialog::getSaveFileName(
        &m_window, tr("Export Figure"), QDir(preferences::sceneDirectory()).filePath(fileName),
        tr("PDF (*.pdf);;SVG (*.svg);;PNG (*.png)"));
    if (!path.isEmpty())
        preferences::rememberSceneFile(path);
    return path;
}

void FigureExports::showExported(const QString& path)
{
    m_window.statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 6000);
}

} // namespace attn::ui
