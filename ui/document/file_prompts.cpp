#include "ui/document/file_prompts.h"

#include "ui/document/file_names.h"
#include "ui/document/preferences.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>

namespace attn::ui {

bool askToSaveChanges(QWidget* parent, bool modified, const QString& documentName,
                      const std::function<bool()>& save)
{
    if (!modified)
        return true;
    const auto answer = QMessageBox::warning(
        parent, QCoreApplication::translate("FilePrompts", "Unsaved changes"),
        QCoreApplication::translate("FilePrompts",
                                    "“%1” has changes that are not saved. Save them first?")
            .arg(documentName),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

QString askForSceneToOpen(QWidget* parent)
{
    const QString path = QFileDialog::getOpenFileName(
        parent, QCoreApplication::translate("FilePrompts", "Open Scene"),
        preferences::sceneDirectory(),
        sceneFileFilter() + QStringLiteral(";;") +
            QCoreApplication::translate("FilePrompts", "All files (*)"));
    if (!path.isEmpty())
        preferences::rememberSceneFile(path);
    return path;
}

void fillRecentFilesMenu(QMenu& menu,
                         const std::function<void(const QString& path, bool isModel)>& open)
{
    menu.clear();
    const QStringList recent = preferences::recentFiles();
    int n = 0;
    for (const QString& path : recent) {
        const bool isModel = preferences::isModelFolder(path);
        QAction* action = menu.addAction(
            QStringLiteral("&%1 %2").arg(++n).arg(QFileInfo(path).fileName()) +
                (isModel ? QCoreApplication::translate("FilePrompts", " (model)") : QString()),
            &menu, [open, path, isModel] { open(path, isModel); });
        action->setToolTip(path);
        action->setEnabled(QFileInfo::exists(path));
    }
    if (recent.isEmpty()) {
        menu.addAction(QCoreApplication::translate("FilePrompts", "No recent files"))
            ->setEnabled(false);
    } else {
        menu.addSeparator();
        menu.addAction(QCoreApplication::translate("FilePrompts", "&Clear List"), &menu,
                       [] { preferences::clearRecentFiles(); });
    }
}

} // namespace attn::ui
