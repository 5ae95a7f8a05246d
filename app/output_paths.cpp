#include "app/output_paths.h"

#include "core/atomic_file.h"
#include "core/error.h"

#include <QDir>
#include <QFileInfo>
#include <new>

namespace attn::app {

void printLine(FILE* stream, const QString& text)
{
    std::fputs(qPrintable(text + QLatin1Char('\n')), stream);
    std::fflush(stream);
}

int reportInputError()
{
    try {
        throw;
    } catch (const std::bad_alloc&) {
        printLine(stderr, QStringLiteral("error: not enough memory"));
    } catch (const core::Error& e) {
        printLine(stderr, QStringLiteral("error: ") + QString::fromUtf8(e.what()));
    }
    return kInvalidInput;
}

int writeOutputs(const std::vector<std::pair<QString, QByteArray>>& outputs)
{
    try {
        core::writeFilesAtomically(outputs);
    } catch (const core::Error& e) {
        printLine(stderr, QStringLiteral("error: ") + QString::fromUtf8(e.what()));
        return kCannotWrite;
    }
    return kOk;
}

namespace {

// A path as the file system resolves it, so that "./a.png" and "a.png", or a link and its
// target, compare equal: the existing file resolved (core::writeFilesAtomically replaces a
// link's target), else its resolved folder and its name, else the cleaned absolute path.
QString resolvedPath(const QString& path)
{
    const QFileInfo info(path);
    if (info.exists())
        return info.canonicalFilePath();
    const QString folder = QFileInfo(info.absolutePath()).canonicalFilePath();
    return folder.isEmpty() ? QDir::cleanPath(info.absoluteFilePath())
                            : QDir(folder).filePath(info.fileName());
}

} // namespace

QString sharedOutput(const std::vector<std::pair<QString, QString>>& outputs)
{
    std::vector<QString> resolved;
    for (const auto& [option, path] : outputs)
        resolved.push_back(path.isEmpty() ? QString() : resolvedPath(path));
    for (std::size_t i = 0; i < outputs.size(); ++i)
        for (std::size_t j = 0; j < i && !resolved[i].isEmpty(); ++j)
            if (resolved[j] == resolved[i] && outputs[j].first != outputs[i].first)
                return QStringLiteral("--%1 and --%2 both write to %3; give each its own file")
                    .arg(outputs[j].first, outputs[i].first, outputs[i].second);
    return {};
}

std::vector<std::pair<QString, QString>> fileOutputs(const CommandLine& commandLine)
{
    return {{QStringLiteral("export"), commandLine.exportPath},
            {QStringLiteral("dump"), commandLine.dumpPath},
            {QStringLiteral("export-matrix"), commandLine.matrixPath},
            {QStringLiteral("export-presentation"), commandLine.presentationPath},
            {QStringLiteral("train-save"), commandLine.trainOptions.savePath}};
}

std::vector<ExportAllFile> exportAllFiles(const QString& dir, int heads, bool pooled)
{
    std::vector<std::pair<ui::FigureView, int>> views{{ui::FigureView::Heads, 0}};
    for (int h = 0; h < heads; ++h) {
        views.insert(views.end(), {{ui::FigureView::Head, h}, {ui::FigureView::Difference, h}});
        if (!pooled)
            views.emplace_back(ui::FigureView::Pipeline, h);
    }
    if (heads > 1)
        views.emplace_back(ui::FigureView::Head, -1);
    std::vector<ExportAllFile> files;
    for (const auto& [view, head] : views) {
        const QString name =
            ui::figureViewName(view, head).replace(QLatin1Char(':'), QLatin1Char('-'));
        for (const auto& [suffix, format] :
             {std::pair{QStringLiteral(".pdf"), ui::FigureFormat::Pdf},
              std::pair{QStringLiteral(".png"), ui::FigureFormat::Png}})
            files.push_back({view, head, format, QDir(dir).filePath(name + suffix)});
    }
    return files;
}

} // namespace attn::app
