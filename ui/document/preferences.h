#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <optional>

namespace attn::ui::preferences {

// Every setting the app keeps between runs (QSettings, under the organization and application
// names main() sets), each behind a typed function, so that the keys live in this one file
// (Tiled's Preferences). Nothing here is part of a scene: a scene file holds its own settings.

// --- folders the file dialogs start in ---------------------------------------------------------

// The folder scene files were last opened from or saved to; the home folder at first.
QString sceneDirectory();
// Remembers the folder of `path` (a file).
void rememberSceneFile(const QString& path);
// The folder a model was last chosen from; the home folder at first.
QString modelDirectory();
void setModelDirectory(const QString& folder);
// The folder figures and matrices were last exported to; empty at first.
QString exportDirectory();
// Remembers the folder of `path` (a file).
void rememberExportFile(const QString& path);

// --- recent files, shared by both windows --------------------------------------------------------

inline constexpr int kMaxRecentFiles = 8;

// Scene files and model folders, newest first.
QStringList recentFiles();
void addRecentFile(const QString& path);
void clearRecentFiles();
// A model folder, with the sentence last used with it, so reopening brings it back.
void addRecentModel(const QString& folder, const QString& text);
// The sentence last used with a model folder; empty when none was kept.
QString recentModelText(const QString& folder);
// A folder with a config.json: opened as a model rather than a scene.
bool isModelFolder(const QString& path);

// --- window layout -------------------------------------------------------------------------------

struct WindowLayout
{
    QByteArray geometry; // QWidget::saveGeometry; empty before the first close
    QByteArray state;    // QMainWindow::saveState (docks and toolbars)
};
// `window` names the window ("explorer", "model").
WindowLayout windowLayout(const QString& window);
void setWindowLayout(const QString& window, const WindowLayout& layout);

// --- notices -------------------------------------------------------------------------------------

// Whether the notice that computing falls back to the CPU was dismissed: it is said once, not
// at every start (the status bar's tooltip and Help > About keep the details).
bool backendNoticeDismissed();
void setBackendNoticeDismissed(bool dismissed);

// --- the export dialog's last choices ------------------------------------------------------------

// Each is empty until the first export; the dialog then starts from the window's own choices.
struct ExportChoices
{
    std::optional<QString> format; // "png", "svg", "pdf"
    std::optional<QString> unit;   // "cm", "in", "px"
    std::optional<double> width;
    std::optional<double> height;
    std::optional<int> dpi;
    std::optional<QString> colormap;
    std::optional<double> fontPoints;
    std::optional<bool> colorBar;
    std::optional<bool> showValues;
    std::optional<int> precision;
    std::optional<QString> matrixStage;
    std::optional<QString> matrixFormat;
};
ExportChoices exportChoices();
// Stores the fields that are set; the others keep what is stored.
void storeExportChoices(const ExportChoices& choices);

} // namespace attn::ui::preferences
