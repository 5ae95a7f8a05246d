#pragma once

#include "ui/figures/figure_export.h"
#include "ui/figures/figure_spec.h"
#include "ui/figures/stage_export.h"

#include "core/attention_result.h"

#include <QByteArray>
#include <QDialog>
#include <QImage>
#include <QSize>
#include <QSizeF>
#include <QString>
#include <QTimer>
#include <functional>
#include <memory>

class QCustomPlot;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace attn::ui {

// --- Sizing arithmetic ------------------------------------------------------------------
// A figure is laid out in pixels (FigureBuilder); its physical size is pixels / DPI inches.
// Pixels are rounded to the nearest whole pixel, so 10 cm at 300 DPI is
// round(10 / 2.54 * 300) = 1181 px, and a PDF or SVG page is pixels * 72 / DPI points
// (renderFigure), within half a pixel of the length asked for.

enum class SizeUnit { Centimeters, Inches, Pixels };

// One unit in inches: 1 cm = 1 / 2.54 in, 1 px = 1 / dpi in.
double unitInches(SizeUnit unit, double dpi);
// `size` in `unit` as whole pixels at `dpi` (each side at least 1).
QSize figurePixels(QSizeF size, SizeUnit unit, double dpi);
// The page of a vector file of `pixels` at `dpi`, in PostScript points.
QSizeF figurePoints(QSize pixels, double dpi);
// The same physical length in another unit (px at `dpi`).
QSizeF convertFigureSize(QSizeF size, SizeUnit from, SizeUnit to, double dpi);

// Figures are rendered through QCustomPlot's paint buffers, two or more images of the full
// size: past 8000 px a side an export would need gigabytes. The command line's 64 px floor.
inline constexpr int kMinFigurePixels = 64;
inline constexpr int kMaxFigurePixels = 8000;

// --- What is exported -------------------------------------------------------------------

// The window's figure: the dialog opens on it and may export any other view of the result.
struct ExportSource
{
    std::shared_ptr<const core::AttentionResult> result;
    std::shared_ptr<const core::AttentionResult> compare; // for the difference view, may be null
    FigureSpec spec;                                      // the window's current view
    QString suggestedName; // the file name offered, without a suffix ("scholarship")
    bool lines = false;    // the window shows the lines view (FigureView has no such view)
    // A concept view's tab (ui/concepts): draws what it shows into the plot; the view and head
    // settings do not apply to it.
    std::function<void(QCustomPlot&, const FigureSpec&)> drawConcept;
};

// Everything the dialog sets: what one Save writes.
struct ExportSettings
{
    FigureView view = FigureView::Head;
    int head = 0; // from 0; -1 = the mean of the enabled heads
    FigureFormat format = FigureFormat::Png;
    SizeUnit unit = SizeUnit::Centimeters;
    QSizeF size{16.0, 12.0}; // in `unit`
    int dpi = 300;
    QString title; // empty: the view's own title
    Colormap colormap = Colormap::Viridis;
    WeightScale weightScale = WeightScale::Fixed; // the window's, unless changed in the dialog
    bool colorBar = true;
    bool showValues = true;
    int precision = 2;
    double fontPoints = 10.0;
    bool transposed = false; // the window's: queries in columns
    QString compareLabel;    // the window's Difference tab: what it subtracts

    QSize pixels() const { return figurePixels(size, unit, dpi); }
    FigureSpec figureSpec() const;
};

// The bytes of the figure file. Throws core::Error when the result cannot be drawn that way
// (the pipeline of a pooled result, a difference without a second result, ...).
QByteArray exportFigureBytes(const ExportSource& source, const ExportSettings& settings,
                             FigureFormat format);

// The view that shows what the window shows (a difference without a second result: the head).
FigureView windowView(const ExportSource& source);

// The settings that export what the window shows (its view, head, colours and numbers) on
// the dialog's default page: 16 x 12 cm at 300 DPI.
ExportSettings windowExportSettings(const ExportSource& source);

// Puts the figure on the clipboard as PNG and SVG, and as a bitmap for applications that
// paste only those. Throws core::Error as exportFigureBytes does.
void copyFigureToClipboard(const ExportSource& source, const ExportSettings& settings);

// --- The dialog -------------------------------------------------------------------------

// File > Export Figure (Ctrl+E): what to export, the page, the style, and a live preview
// rendered by the same code that writes the file. Non-modal; the window keeps it up to date
// with setSource(). Its choices are remembered (preferences::exportChoices).
class ExportDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ExportDialog(ExportSource source, QWidget* parent = nullptr);
    ~ExportDialog() override;

    // A new result (or view) from the window; the user's choices are kept where they still
    // apply, and a head or view the user had not changed follows the window's.
    void setSource(ExportSource source);
    const ExportSource& source() const { return m_source; }

    ExportSettings settings() const;

    // What Save… does after its file dialog: writes the figure atomically (a suffix is
    // added when missing; .png/.svg/.pdf choose the format). On failure a message box says
    // why, nothing is overwritten, and it returns false.
    bool saveTo(const QString& path);
    void copyToClipboard();

    // Asks for a file name to save to (caption, suggested path, name filter); empty = cancel.
    // QFileDialog by default; tests and embedders may replace it.
    using FileChooser = std::function<QString(const QString& caption, const QString& suggested,
                                              const QString& filter)>;
    void setFileChooser(FileChooser chooser);

    // The latest preview, at the preview's resolution, and what is wrong when there is none.
    QImage previewImage() const;
    QString errorText() const;

signals:
    void previewUpdated();
    void saved(const QString& path);

private:
    class Preview;

    void buildUi();
    void loadSettings();
    void storeSettings() const;
    void populateViews();
    void populateHeads(bool followWindow);
    void sizeEdited();
    void settingsChanged();
    void unitChanged();
    void updateControls();
    void updateSizeInfo();
    void renderPreview();
    void showError(const QString& message);
    void showFailure(const QString& what, const QString& reason);
    void save();
    void exportMatrix();
    QString suggestedPath(const QString& suffix) const;
    void rememberDirectory(const QString& path) const;

    ExportSource m_source;
    FileChooser m_chooser;
    SizeUnit m_unit = SizeUnit::Centimeters; // what the size boxes hold now
    QSizeF m_size; // in m_unit, unrounded: cm -> in -> px must not drift by the boxes' decimals
    bool m_loading = false; // widgets being set: no re-render per widget
    QTimer m_previewTimer;

    QComboBox* m_view = nullptr;
    QComboBox* m_head = nullptr;
    QLineEdit* m_title = nullptr;
    QComboBox* m_format = nullptr;
    QDoubleSpinBox* m_width = nullptr;
    QDoubleSpinBox* m_height = nullptr;
    QComboBox* m_unitBox = nullptr;
    QSpinBox* m_dpi = nullptr;
    QLabel* m_sizeInfo = nullptr;
    QComboBox* m_colormap = nullptr;
    QDoubleSpinBox* m_font = nullptr;
    QCheckBox* m_colorBar = nullptr;
    QCheckBox* m_dataScale = nullptr;
    QCheckBox* m_values = nullptr;
    QSpinBox* m_precision = nullptr;
    Preview* m_preview = nullptr;
    QLabel* m_error = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_save = nullptr;
    QPushButton* m_copy = nullptr;
    QPushButton* m_matrix = nullptr;
    QString m_errorText;
};

} // namespace attn::ui
