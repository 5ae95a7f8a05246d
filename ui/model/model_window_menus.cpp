// The model window's menu bar: its commands and their keys, and the Compute menu's choice
// of backend.

#include "ui/model/model_window.h"

#include "ui/export/export_dialog.h"
#include "ui/model/head_grid_view.h"
#include "ui/model/model_scene_files.h"
#include "ui/widgets/menu_commands.h"
#include "ui/widgets/message_bar.h"
#include "ui/widgets/standard_keys.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QUndoStack>

namespace attn::ui {

void ModelWindow::buildMenus()
{
    const MenuCommands commands(this);
    QMenu* file = menuBar()->addMenu(tr("&File"));
    commands.add(file, tr("Open &Model…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
                 [this] { openModelDialog(); });
    commands.add(file, tr("&Download Model…"), QKeySequence(), [this] { downloadModelDialog(); });
    commands.addStandard(file, tr("&Open Scene…"), QKeySequence::Open,
                         QKeySequence(Qt::CTRL | Qt::Key_O), [this] { m_files->openDialog(); });
    QMenu* recent = file->addMenu(tr("Open &Recent"));
    connect(recent, &QMenu::aboutToShow, this,
            [this, recent] { m_files->fillRecentMenu(*recent); });
    file->addSeparator();
    commands.addStandard(file, tr("&Save"), QKeySequence::Save, QKeySequence(Qt::CTRL | Qt::Key_S),
                         [this] { m_files->save(); });
    commands.addStandard(file, tr("Save &As…"), QKeySequence::SaveAs,
                         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
                         [this] { m_files->saveAs(); });
    file->addSeparator();
    m_exportAction =
        commands.add(file, tr("&Export Head Figure…"), QKeySequence(Qt::CTRL | Qt::Key_E),
                     [this] { openExportDialog(); });
    QMenu* exportMenu = file->addMenu(tr("Export &Model Figure"));
    commands.add(exportMenu, tr("&Layers × Heads Grid…"),
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
                 [this] { exportModelFigureDialog(ModelFigure::Grid); });
    commands.add(exportMenu, tr("&Rollout…"), QKeySequence(),
                 [this] { exportModelFigureDialog(ModelFigure::Rollout); });
    commands.add(exportMenu, tr("&Predictions…"), QKeySequence(),
                 [this] { exportModelFigureDialog(ModelFigure::Predictions); });
    commands.add(exportMenu, tr("Head &Importance…"), QKeySequence(),
                 [this] { exportModelFigureDialog(ModelFigure::Importance); });
    commands.add(exportMenu, tr("L&ogit Lens…"), QKeySequence(),
                 [this] { exportModelFigureDialog(ModelFigure::LogitLens); });
    commands.add(exportMenu, tr("&Activation Patching…"), QKeySequence(),
                 [this] { exportModelFigureDialog(ModelFigure::Patching); });
    commands.add(exportMenu, tr("&Direct Logit Attribution…"), QKeySequence(),
                 [this] { exportModelFigureDialog(ModelFigure::Attribution); });
    file->addSeparator();
    commands.addStandard(file, tr("&Close"), QKeySequence::Close,
                         QKeySequence(Qt::CTRL | Qt::Key_W), [this] { close(); });

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document.undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcuts(standardKeys(QKeySequence::Undo, QKeySequence(Qt::CTRL | Qt::Key_Z)));
    QAction* redo = m_document.undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts(
        standardKeys(QKeySequence::Redo, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(m_resetAction);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    commands.add(view, tr("&Grid"), QKeySequence(Qt::CTRL | Qt::Key_G),
                 [this] { m_grid->setFocus(); });
    commands.add(view, tr("&Clear Token Focus"), QKeySequence(Qt::Key_Escape),
                 [this] { m_document.setFocusToken(-1); });
    view->addSeparator();
    view->addAction(m_inputDock->toggleViewAction());
    view->addAction(m_headDock->toggleViewAction());
    view->addSeparator();
    m_presentAction = commands.add(view, tr("&Present Head"), QKeySequence(Qt::Key_F11),
                                   [this] { togglePresentation(); });

    QMenu* compute = menuBar()->addMenu(tr("&Compute"));
    m_backendGroup = new QActionGroup(this);
    for (auto [choice, text] : {std::pair{core::BackendChoice::Auto, tr("&Auto (the faster here)")},
                                std::pair{core::BackendChoice::Cpu, tr("&CPU")},
                                std::pair{core::BackendChoice::Vulkan, tr("&Vulkan")}}) {
        QAction* action = compute->addAction(text);
        action->setCheckable(true);
        action->setChecked(choice == m_choice);
        action->setData(int(choice));
        m_backendGroup->addAction(action);
        connect(action, &QAction::triggered, this,
                [this, choice = choice] { setBackendChoice(choice); });
    }
}

void ModelWindow::setBackendChoice(core::BackendChoice choice)
{
    m_choice = choice;
    std::string notice;
    auto backend = makeBackend(m_backends, m_choice, m_selector, &notice);
    m_backendNotice = QString::fromStdString(notice);
    m_compute->setBackend(std::move(backend));
    for (QAction* action : m_backendGroup->actions())
        action->setChecked(action->data().toInt() == int(choice));
    if (!m_backendNotice.isEmpty())
        m_messages->showMessage(QStringLiteral("backend"), MessageBar::Level::Information,
                                m_backendNotice);
    else
        m_messages->clearMessage(QStringLiteral("backend"));
    updateStatus();
    requestCompute();
}
} // namespace attn::ui
