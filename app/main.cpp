// attention-explorer: the explorer window, or headless figures and dumps (README).
#include "command_line.h"

#include "ui/explorer/explorer_window.h"
#include "ui/explorer/message_bar.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <cstdio>

namespace {

bool haveDisplay()
{
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (platform.startsWith("offscreen") || platform.startsWith("minimal"))
        return false;
    return !platform.isEmpty() || qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY");
}

} // namespace

int main(int argc, char** argv)
{
    using namespace attn::app;
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));

    // The platform is chosen before QApplication exists: headless work and machines with no
    // display use the offscreen platform, so nothing needs an X server.
    CommandLineError error;
    bool exitNow = false;
    std::optional<CommandLine> commandLine = parseCommandLine(arguments, error, exitNow);
    const bool display = haveDisplay();
    if ((exitNow || !commandLine || commandLine->headless() || !display) && !qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("attention-explorer"));
    QApplication::setApplicationDisplayName(QStringLiteral("Attention Explorer"));
    QApplication::setOrganizationName(QStringLiteral("attention-explorer"));
    QApplication::setApplicationVersion(QStringLiteral(ATTN_VERSION));
    if (exitNow) {
        // Parsed again now that the QApplication exists, so the usage line names the program.
        parseCommandLine(arguments, error, exitNow);
        std::fputs(qPrintable(error.message + QLatin1Char('\n')), stdout);
        return kOk;
    }
    if (!commandLine) {
        std::fprintf(stderr, "attention-explorer: %s\nTry 'attention-explorer --help'.\n", qPrintable(error.message));
        return error.code;
    }
    if (commandLine->headless())
        return runHeadless(*commandLine);

    if (!display) {
        // No display: the example (or the scene asked for) as a figure file instead.
        CommandLine figure = *commandLine;
        figure.exportPath = QDir::current().absoluteFilePath(QStringLiteral("attention-explorer-example.png"));
        const int code = runHeadless(figure);
        if (code == kOk)
            std::printf("No display found: wrote the figure to %s\n", qPrintable(figure.exportPath));
        return code;
    }

    // The installed .desktop file's name (Wayland matches a window to its menu entry by it) and
    // its icon; the compiled-in copy where the icon theme lacks it (run from the build tree).
    QGuiApplication::setDesktopFileName(QStringLiteral(ATTN_APP_ID));
    QApplication::setWindowIcon(
        QIcon::fromTheme(QStringLiteral("attention-explorer"), QIcon(QStringLiteral(":/icons/attention-explorer.svg"))));

    std::string notice;
    auto backend = attn::gpu::createBackend(commandLine->backend, commandLine->vkDevice.toStdString(), &notice);
    if (!notice.empty())
        std::fprintf(stderr, "%s\n", notice.c_str());
    attn::ui::ExplorerWindow window(std::move(backend), QString::fromStdString(notice));
    window.setScene(builtInExample(), QString());
    if (!commandLine->scenePath.isEmpty() && commandLine->unchangedScene()) {
        // Opened as that file, so Save writes it back; a bad file leaves the example open
        // and says why in the window.
        window.openFile(QFileInfo(commandLine->scenePath).absoluteFilePath());
    } else if (!commandLine->unchangedScene()) {
        // Overrides make an untitled scene: Save asks where.
        try {
            window.setScene(sceneFor(*commandLine), QString());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "error: %s\n", e.what());
            window.messageBar()->showMessage(QStringLiteral("file"), attn::ui::MessageBar::Level::Error,
                                             QString::fromUtf8(e.what()));
        }
    }
    window.show();
    return app.exec();
}
