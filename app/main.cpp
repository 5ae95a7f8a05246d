// attention-explorer: the explorer window, or headless figures and dumps (README).
#include "command_line.h"

#include "ui/app/window_manager.h"
#include "ui/explorer/explorer_window.h"
#include "ui/i18n/translations.h"
#include "ui/model/encdec_view.h"
#include "ui/model/lens_tabs.h"
#include "ui/model/lens_view.h"
#include "ui/model/model_window.h"
#include "ui/model/patching_view.h"
#include "ui/seq2seq/seq2seq_window.h"
#include "ui/widgets/message_bar.h"

#include "core/allocator.h"
#include "core/scene_json.h"
#include "gpu/backend_factory.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QLineEdit>
#include <QLocale>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>
#include <memory>

namespace {

bool haveDisplay()
{
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (platform.startsWith("offscreen") || platform.startsWith("minimal"))
        return false;
    return !platform.isEmpty() || qEnvironmentVariableIsSet("DISPLAY") ||
           qEnvironmentVariableIsSet("WAYLAND_DISPLAY");
}

// A scene file that names a checkpoint opens in the model window.
bool namesCheckpoint(const QString& scenePath)
{
    try {
        return !scenePath.isEmpty() && attn::core::loadScene(scenePath).checkpoint.has_value();
    } catch (const std::exception&) {
        return false; // the explorer window opens it and says what is wrong
    }
}

// ATTN_SCREENSHOT=OUT.png (docs/images/make-screenshots.sh renders the README's pictures with
// it): the model window at ATTN_SCREENSHOT_SIZE (WxH, default 1920x1080) on the offscreen
// platform, with ATTN_SCREENSHOT_TAB (a view tab, from 0) and ATTN_SCREENSHOT_FOCUS (a token,
// from 0) chosen, is saved with QWidget::grab once its first figures are computed (with
// ATTN_SCREENSHOT_TRANSLATE, once the Translate tab has translated, with ATTN_SCREENSHOT_BEAMS
// beams where set); then quits. ATTN_SCREENSHOT_GALLERY: the window with no model, its gallery.
// ATTN_SCREENSHOT_PATCHING="CLEAN|CORRUPT|METRIC": the Patching tab run on them first.
void saveScreenshotWhenShown(attn::ui::ModelWindow* window, const QString& path)
{
    const QStringList size =
        qEnvironmentVariable("ATTN_SCREENSHOT_SIZE", QStringLiteral("1920x1080"))
            .split(QLatin1Char('x'));
    window->setWindowState(Qt::WindowNoState);
    window->resize(size.value(0).toInt(), size.value(1).toInt());
    window->fitPanels();
    QObject::connect(window, &attn::ui::ModelWindow::loadEnded, window, [window] {
        if (qEnvironmentVariableIsSet("ATTN_SCREENSHOT_TAB"))
            window->viewTabs()->setCurrentIndex(
                qEnvironmentVariableIntValue("ATTN_SCREENSHOT_TAB"));
    });
    // Polled: the selected head's figures follow the grid a pass later, so the window is up
    // to date only after the last resultShown.
    auto* poll = new QTimer(window);
    poll->setInterval(100);
    QObject::connect(poll, &QTimer::timeout, window, [window, path, poll] {
        if (!qEnvironmentVariableIsSet("ATTN_SCREENSHOT_GALLERY") &&
            (!window->isUpToDate() || !window->document()->result()))
            return;
        poll->stop();
        if (qEnvironmentVariableIsSet("ATTN_SCREENSHOT_FOCUS"))
            window->document()->setFocusToken(
                qEnvironmentVariableIntValue("ATTN_SCREENSHOT_FOCUS"));
        auto save = [window, path] {
            attn::ui::PatchingView* patching = window->lensTabs()->patching();
            const QStringList pair = qEnvironmentVariable("ATTN_SCREENSHOT_PATCHING").split(u'|');
            if (pair.size() == 3) {
                patching->cleanEdit()->setText(pair[0]);
                patching->corruptEdit()->setText(pair[1]);
                patching->metricEdit()->setText(pair[2]);
                patching->run();
            }
            // The patching sweep, where asked, and the lens, where shown, in the background.
            auto* ended = new QTimer(window);
            ended->setInterval(100);
            QObject::connect(ended, &QTimer::timeout, window, [window, path, patching, ended] {
                if (patching->isRunning() || window->lensTabs()->lens()->isComputing())
                    return;
                ended->stop();
                QTimer::singleShot(500, window, [window, path] {
                    const bool saved = window->grab().save(path);
                    std::fprintf(saved ? stdout : stderr,
                                 saved ? "wrote %s\n" : "cannot write %s\n", qPrintable(path));
                    QCoreApplication::exit(saved ? 0 : 4);
                });
            });
            ended->start();
        };
        // ATTN_SCREENSHOT_TRANSLATE: an encoder-decoder model's translation, done first.
        auto* translation = window->findChild<attn::ui::EncDecView*>();
        if (!qEnvironmentVariableIsSet("ATTN_SCREENSHOT_TRANSLATE") || !translation)
            return save();
        QObject::connect(translation, &attn::ui::EncDecView::translationDone, window, save);
        if (qEnvironmentVariableIsSet("ATTN_SCREENSHOT_BEAMS"))
            translation->setBeams(qEnvironmentVariableIntValue("ATTN_SCREENSHOT_BEAMS"));
        translation->translate();
    });
    poll->start();
}

// The same for the sequence-to-sequence window, which decodes on the UI thread: saved once shown,
// with ATTN_SCREENSHOT_STEP decoding steps shown (default: the first).
void saveScreenshotWhenShown(attn::ui::Seq2SeqWindow* window, const QString& path)
{
    const QStringList size =
        qEnvironmentVariable("ATTN_SCREENSHOT_SIZE", QStringLiteral("1920x1080"))
            .split(QLatin1Char('x'));
    window->resize(size.value(0).toInt(), size.value(1).toInt());
    QTimer::singleShot(500, window, [window, path] {
        if (qEnvironmentVariableIsSet("ATTN_SCREENSHOT_STEP"))
            window->showSteps(qEnvironmentVariableIntValue("ATTN_SCREENSHOT_STEP"));
        const bool saved = window->grab().save(path);
        std::fprintf(saved ? stdout : stderr, saved ? "wrote %s\n" : "cannot write %s\n",
                     qPrintable(path));
        QCoreApplication::exit(saved ? 0 : 4);
    });
}

} // namespace

int main(int argc, char** argv)
{
    using namespace attn::app;
    attn::core::keepFreedMemoryForReuse();
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));

    // The platform is chosen before QApplication exists: headless work and machines with no
    // display use the offscreen platform, so nothing needs an X server.
    CommandLineError error;
    bool exitNow = false;
    std::optional<CommandLine> commandLine = parseCommandLine(arguments, error, exitNow);
    const QString screenshot = qEnvironmentVariable("ATTN_SCREENSHOT");
    const bool realDisplay = haveDisplay();
    const bool display = realDisplay || !screenshot.isEmpty(); // a screenshot renders offscreen
    if ((exitNow || !commandLine || commandLine->headless() || !realDisplay) &&
        !qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
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
        std::fprintf(stderr, "attention-explorer: %s\nTry 'attention-explorer --help'.\n",
                     qPrintable(error.message));
        return error.code;
    }
    if (commandLine->headless())
        return runHeadless(*commandLine);

    if (!display && (commandLine->modelOptions.active() || commandLine->seq2seqOptions.active()))
        return runHeadless(*commandLine); // no window to open: the predictions on stdout, as ever
    if (!display) {
        // No display: the example (or the scene asked for) as a figure file instead.
        CommandLine figure = *commandLine;
        figure.exportPath =
            QDir::current().absoluteFilePath(QStringLiteral("attention-explorer-example.png"));
        const int code = runHeadless(figure);
        if (code == kOk)
            std::printf("No display found: wrote the figure to %s\n",
                        qPrintable(figure.exportPath));
        return code;
    }

    // The windows speak the system locale's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), from
    // here on, before any widget exists. The command line above stays English on purpose:
    // --help, its errors and the headless output are written for the man page and the bash
    // completion that tests/package checks against them, and for scripts that read them.
    attn::ui::installTranslations(QLocale::system());

    // The installed .desktop file's name (Wayland matches a window to its menu entry by it) and
    // its icon; the compiled-in copy where the icon theme lacks it (run from the build tree).
    QGuiApplication::setDesktopFileName(QStringLiteral(ATTN_APP_ID));
    QApplication::setWindowIcon(
        QIcon::fromTheme(QStringLiteral("attention-explorer"),
                         QIcon(QStringLiteral(":/icons/attention-explorer.svg"))));

    // The windows compute with the Vulkan backend's factory: ui knows no backend but the CPU's.
    attn::ui::WindowManager windows(attn::gpu::backendFactory(), commandLine->backend,
                                    commandLine->vkDevice);

    // An encoder-decoder (--seq2seq DIR without an output option): its window, translating --text.
    if (commandLine->seq2seqOptions.active()) {
        auto* window = windows.newSeq2SeqWindow();
        if (!screenshot.isEmpty())
            saveScreenshotWhenShown(window, screenshot);
        if (window->openFolder(QFileInfo(commandLine->seq2seqOptions.folder).absoluteFilePath()) &&
            commandLine->text)
            window->setSource(*commandLine->text);
        return app.exec();
    }

    // A model (--model without an output option), or a scene that names one: the model window.
    const bool sceneWithModel =
        commandLine->unchangedScene() && namesCheckpoint(commandLine->scenePath);
    const bool gallery =
        !screenshot.isEmpty() && qEnvironmentVariableIsSet("ATTN_SCREENSHOT_GALLERY");
    if (commandLine->modelOptions.active() || sceneWithModel || gallery) {
        auto* window = windows.newModelWindow();
        if (!screenshot.isEmpty())
            saveScreenshotWhenShown(window, screenshot);
        const ModelOptions& model = commandLine->modelOptions;
        if (model.active())
            window->openModel(model.model, commandLine->text.value_or(QString()),
                              model.interventions, model.layer.value_or(1) - 1,
                              std::max(0, commandLine->figure.head));
        else if (sceneWithModel)
            window->openScene(QFileInfo(commandLine->scenePath).absoluteFilePath());
        return app.exec();
    }

    std::string notice;
    auto backend = windows.backends().create(commandLine->backend,
                                             commandLine->vkDevice.toStdString(), &notice);
    if (!notice.empty())
        std::fprintf(stderr, "%s\n", notice.c_str());
    attn::ui::ExplorerWindow window(std::move(backend), QString::fromStdString(notice), &windows);
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
            window.messageBar()->showMessage(QStringLiteral("file"),
                                             attn::ui::MessageBar::Level::Error,
                                             QString::fromUtf8(e.what()));
        }
    }
    window.show();
    return app.exec();
}
