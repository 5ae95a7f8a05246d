#include "ui/explorer/explorer_menus.h"

#include "ui/document/compute_controller.h"
#include "ui/document/preferences.h"
#include "ui/explorer/about_dialog.h"
#include "ui/explorer/explorer_window.h"
#include "ui/explorer/scene_files.h"
#include "ui/explorer/view_bar.h"
#include "ui/views/heatmap_view.h"
#include "ui/widgets/menu_commands.h"
#include "ui/widgets/standard_keys.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QStyle>
#include <QToolBar>
#include <QUndoStack>

namespace attn::ui {

ExplorerMenus::ExplorerMenus(ExplorerWindow& window, SceneFiles& files, ViewBar& viewBar,
                             const std::vector<QDockWidget*>& docks)
    : QObject(&window), m_window(window)
{
    buildMenus(files, viewBar, docks);
    buildToolBar();
}

void ExplorerMenus::buildMenus(SceneFiles& files, ViewBar& viewBar,
                               const std::vector<QDockWidget*>& docks)
{
    ExplorerWindow& window = m_window;
    SceneDocument& document = *window.document();
    const MenuCommands commands(this);

    QMenu* file = window.menuBar()->addMenu(tr("&File"));
    m_newAction = commands.addStandard(file, tr("&New"), QKeySequence::New,
                                       QKeySequence(Qt::CTRL | Qt::Key_N), [&window, &files] {
                                           if (files.maybeSave())
                                               window.newScene();
                                       });
    m_openAction =
        commands.addStandard(file, tr("&Open…"), QKeySequence::Open,
                             QKeySequence(Qt::CTRL | Qt::Key_O), [&files] { files.openDialog(); });
    QAction* openModel =
        commands.add(file, tr("Open &Model…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
                     [&window] { window.openModel(); });
    openModel->setObjectName(QStringLiteral("openModelAction"));
    openModel->setToolTip(
        tr("Every layer and head of a Hugging Face model, in a window of its own"));
    QAction* seq2seq = commands.add(file, tr("Sequence to Se&quence…"), QKeySequence(),
                                    [&window] { window.openSeq2Seq(); });
    seq2seq->setObjectName(QStringLiteral("openSeq2SeqAction"));
    seq2seq->setToolTip(tr("An encoder-decoder translating word by word, with its alignment, in a "
                           "window of its own"));
    QMenu* recent = file->addMenu(tr("Open &Recent"));
    connect(recent, &QMenu::aboutToShow, this, [recent, &files] { files.fillRecentMenu(*recent); });
    QMenu* examples = file->addMenu(tr("&Examples"));
    connect(examples, &QMenu::aboutToShow, this,
            [examples, &files] { files.fillExamplesMenu(*examples); });
    file->addSeparator();
    m_saveAction =
        commands.addStandard(file, tr("&Save"), QKeySequence::Save,
                             QKeySequence(Qt::CTRL | Qt::Key_S), [&files] { files.save(); });
    commands.addStandard(file, tr("Save &As…"), QKeySequence::SaveAs,
                         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
                         [&files] { files.saveAs(); });
    file->addSeparator();
    m_exportAction = commands.add(file, tr("&Export Figure…"), QKeySequence(Qt::CTRL | Qt::Key_E),
                                  [&window] { window.openExportDialog(); });
    m_exportAction->setToolTip(tr(
        "Export the figure as PNG, SVG or PDF, or a matrix as CSV, NPY, JSON or LaTeX (Ctrl+E)"));
    QAction* deck =
        commands.add(file, tr("Export &Presentation as PDF…"), QKeySequence(), [&window] {
            const QString suggested = QDir(preferences::sceneDirectory())
                                          .filePath(QFileInfo(window.suggestedSavePath())
                                                        .completeBaseName()
                                                        .section(QLatin1Char('.'), 0, 0) +
                                                    QStringLiteral("-presentation.pdf"));
            const QString path = QFileDialog::getSaveFileName(&window, tr("Export Presentation"),
                                                              suggested, tr("PDF (*.pdf)"));
            if (!path.isEmpty())
                window.exportPresentation(path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)
                                              ? path
                                              : path + QStringLiteral(".pdf"));
        });
    deck->setObjectName(QStringLiteral("exportPresentationAction"));
    deck->setToolTip(
        tr("Every step of the presentation as one page of a PDF, for handouts and slides"));
    file->addSeparator();
    QAction* quit =
        commands.addStandard(file, tr("&Quit"), QKeySequence::Quit,
                             QKeySequence(Qt::CTRL | Qt::Key_Q), [&window] { window.close(); });
    quit->setMenuRole(QAction::QuitRole);

    QMenu* edit = window.menuBar()->addMenu(tr("&Edit"));
    m_undoAction = document.undoStack()->createUndoAction(&window, tr("&Undo"));
    m_undoAction->setShortcuts(
        standardKeys(QKeySequence::Undo, QKeySequence(Qt::CTRL | Qt::Key_Z)));
    m_redoAction = document.undoStack()->createRedoAction(&window, tr("&Redo"));
    m_redoAction->setShortcuts(
        standardKeys(QKeySequence::Redo, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)));
    edit->addAction(m_undoAction);
    edit->addAction(m_redoAction);
    edit->addSeparator();
    m_copyFigureAction =
        commands.add(edit, tr("&Copy Figure"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                     [&window] { window.copyFigure(); });
    edit->addSeparator();
    commands.add(edit, tr("Clear Custom &Mask"), QKeySequence(), [&document] {
        core::MaskSpec mask = document.scene().mask;
        mask.customCells.clear();
        document.setMask(mask);
    });

    QMenu* view = window.menuBar()->addMenu(tr("&View"));
    HeatmapView* heatmap = window.headView();
    commands.addStandard(view, tr("Zoom &In"), QKeySequence::ZoomIn,
                         QKeySequence(Qt::CTRL | Qt::Key_Plus),
                         [heatmap] { heatmap->zoomBy(0.8); });
    commands.addStandard(view, tr("Zoom &Out"), QKeySequence::ZoomOut,
                         QKeySequence(Qt::CTRL | Qt::Key_Minus),
                         [heatmap] { heatmap->zoomBy(1.25); });
    commands.add(view, tr("&Fit Matrix"), QKeySequence(Qt::CTRL | Qt::Key_0),
                 [heatmap] { heatmap->resetZoom(); });
    view->addSeparator();
    // The same switches as the view bar's checks, each following the other.
    auto checkable = [view](const QString& text, QCheckBox* check) {
        QAction* action = view->addAction(text);
        action->setCheckable(true);
        connect(action, &QAction::toggled, check, &QCheckBox::setChecked);
        connect(check, &QCheckBox::toggled, action, &QAction::setChecked);
    };
    checkable(tr("&Numbers in Cells"), viewBar.valuesCheck());
    checkable(tr("Colours Scaled to the &Data"), viewBar.dataScaleCheck());
    view->addSeparator();
    for (QDockWidget* dock : docks)
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    m_presentAction = commands.add(view, tr("&Present"), QKeySequence(Qt::Key_F11),
                                   [&window] { window.togglePresentation(); });
    m_presentAction->setToolTip(
        tr("Step through the computation full screen: arrow keys, Space or a clicker (F11)"));
    // F11 presents; the window itself goes full screen with Ctrl+Shift+F.
    commands.add(view, tr("&Full Screen Window"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F),
                 [&window] { window.setWindowState(window.windowState() ^ Qt::WindowFullScreen); });

    QMenu* help = window.menuBar()->addMenu(tr("&Help"));
    QAction* about = commands.add(help, tr("&About Attention Explorer"), QKeySequence(), [&window] {
        const ComputeController* compute = window.computeController();
        auto* dialog = new AboutDialog(window.backends(), compute->backendName(),
                                       compute->deviceName(), window.backendNotice(), &window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    about->setObjectName(QStringLiteral("aboutAction"));
    about->setMenuRole(QAction::AboutRole);
    commands.add(help, tr("About &Qt"), QKeySequence(), [] { QApplication::aboutQt(); })
        ->setMenuRole(QAction::AboutQtRole);
}

void ExplorerMenus::buildToolBar()
{
    QToolBar* bar = m_window.addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    // Theme icons where the desktop has them, Qt's own otherwise.
    auto icon = [this](const char* theme, QStyle::StandardPixmap fallback) {
        return QIcon::fromTheme(QString::fromLatin1(theme),
                                m_window.style()->standardIcon(fallback));
    };
    m_newAction->setIcon(icon("document-new", QStyle::SP_FileIcon));
    m_openAction->setIcon(icon("document-open", QStyle::SP_DialogOpenButton));
    m_saveAction->setIcon(icon("document-save", QStyle::SP_DialogSaveButton));
    m_undoAction->setIcon(icon("edit-undo", QStyle::SP_ArrowBack));
    m_redoAction->setIcon(icon("edit-redo", QStyle::SP_ArrowForward));
    m_exportAction->setIcon(icon("document-export", QStyle::SP_DriveFDIcon));
    m_presentAction->setIcon(icon("view-presentation", QStyle::SP_MediaPlay));
    for (QAction* action : {m_newAction, m_openAction, m_saveAction})
        bar->addAction(action);
    bar->addSeparator();
    bar->addAction(m_undoAction);
    bar->addAction(m_redoAction);
    bar->addSeparator();
    bar->addAction(m_exportAction);
    bar->addAction(m_presentAction);
}

} // namespace attn::ui
