// The shipped German translation (resources/translations/attention-explorer_de.ts):
// every message is finished and keeps its source's placeholders, accelerators and HTML tags;
// the compiled-in .qm answers every message under the context the program asks with; and the
// explorer and model windows built after the translator is installed show no English: each
// text, tooltip and accessible name or description of each widget, action, menu, tab, dock and
// plot (title, axes, colour bar) differs from the same object's text in a window built without
// it (a string built outside tr(), or a tr() evaluated before the translator loads, would be
// the same in both). Menus keep unique accelerators.

#include "ui/explorer/explorer_window.h"
#include "ui/export/export_dialog.h"
#include "ui/i18n/translations.h"
#include "ui/model/model_window.h"
#include "ui/presentation/presentation_steps.h"

#include "core/cpu_backend.h"
#include "support/model_fixtures.h"

#include <qcustomplot.h>

#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTest>
#include <QTranslator>
#include <QUndoStack>
#include <QXmlStreamReader>

#include <algorithm>
#include <memory>

using namespace attn;

namespace {

const QString kTsFile = QStringLiteral(ATTN_RESOURCES_DIR "/translations/attention-explorer_de.ts");

struct Message
{
    QString context;
    QString source;
    QString comment;
    QString translation;
    QString type; // the translation's type attribute: empty when finished
};

QList<Message> readTs(const QString& path)
{
    QList<Message> messages;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return messages;
    QXmlStreamReader xml(&file);
    QString context;
    Message message;
    while (!xml.atEnd()) {
        xml.readNext();
        const auto name = xml.name();
        if (xml.isEndElement() && name == QLatin1String("message")) {
            messages.append(message);
        } else if (!xml.isStartElement()) {
            continue;
        } else if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            message = Message{context, {}, {}, {}, {}};
        } else if (name == QLatin1String("source")) {
            message.source = xml.readElementText();
        } else if (name == QLatin1String("comment")) {
            message.comment = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            message.type = xml.attributes().value(QLatin1String("type")).toString();
            message.translation = xml.readElementText();
        }
    }
    return messages;
}

// The sorted list of a text's %1..%9 placeholders (each as often as it occurs).
QStringList placeholders(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("%[1-9]"));
    QStringList found;
    for (auto it = pattern.globalMatch(text); it.hasNext();)
        found.append(it.next().captured());
    found.sort();
    return found;
}

QStringList htmlTags(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("</?[a-z0-9]+>"));
    QStringList found;
    for (auto it = pattern.globalMatch(text); it.hasNext();)
        found.append(it.next().captured());
    found.sort();
    return found;
}

// A text that reads the same in German: every word is a term kept in German (Attention,
// Token, Head, Softmax...), a proper name, a unit, or a symbol of one or two letters (d_k, W^q).
bool sameInGerman(const QString& text)
{
    if (text.startsWith(QLatin1Char('/')))
        return true; // a file's path
    static const QSet<QString> kept = {
        // terms German keeps (the brief: attention, query/key/value, token, head, softmax)
        QStringLiteral("Attention"), QStringLiteral("Query"), QStringLiteral("Queries"),
        QStringLiteral("Key"), QStringLiteral("Keys"), QStringLiteral("Value"),
        QStringLiteral("Values"), QStringLiteral("Token"), QStringLiteral("Tokens"),
        QStringLiteral("Head"), QStringLiteral("Heads"), QStringLiteral("Softmax"),
        QStringLiteral("ReLU"), QStringLiteral("Sparsemax"), QStringLiteral("Score"),
        QStringLiteral("Scores"), QStringLiteral("Rollout"), QStringLiteral("Padding"),
        QStringLiteral("model"), QStringLiteral("CLS"), QStringLiteral("SEP"),
        // proper names, formats and units
        QStringLiteral("Explorer"), QStringLiteral("Qt"), QStringLiteral("Eigen"),
        QStringLiteral("QCustomPlot"), QStringLiteral("Vulkan"), QStringLiteral("CPU"),
        QStringLiteral("GPU"), QStringLiteral("PNG"), QStringLiteral("SVG"), QStringLiteral("PDF"),
        QStringLiteral("CSV"), QStringLiteral("JSON"), QStringLiteral("NumPy"),
        QStringLiteral("LaTeX"), QStringLiteral("DPI"), QStringLiteral("cm"), QStringLiteral("px"),
        QStringLiteral("pt"), QStringLiteral("ms"), QStringLiteral("gpt"),
        QStringLiteral("viridis"), QStringLiteral("cividis"), QStringLiteral("magma"),
        QStringLiteral("Luong"), QStringLiteral("Top") /* top-k, top-p sampling */,
        QStringLiteral("PCA"), QStringLiteral("t"), QStringLiteral("SNE"), QStringLiteral("FFN"),
        QStringLiteral("Patching") /* activation patching, the method's name */,
        // German words spelt as in English
        QStringLiteral("Version"), QStringLiteral("System"), QStringLiteral("Format"),
        QStringLiteral("Bilinear"), QStringLiteral("bilinear"), QStringLiteral("Gradient"),
        QStringLiteral("Attribution")};
    static const QRegularExpression word(QStringLiteral("\\p{L}+"));
    for (auto it = word.globalMatch(QString(text).remove(QLatin1Char('&'))); it.hasNext();) {
        const QString w = it.next().captured();
        if (w.size() > 2 && !kept.contains(w))
            return false;
    }
    return true;
}

bool hasLetters(const QString& text)
{
    return std::any_of(text.begin(), text.end(), [](QChar c) { return c.isLetter(); });
}

// Every user-visible text under `root`, keyed by the object's path (class and objectName, or
// its index among siblings of its class) and the property it came from.
using Texts = QMap<QString, QString>;

void addText(Texts& texts, const QString& key, const QString& text)
{
    if (hasLetters(text))
        texts.insert(key, text);
}

void collect(QObject* object, const QString& path, Texts& texts)
{
    // The chips and the focus bar's buttons show the sentence's tokens: data, not the window's
    // words (their tooltips are checked).
    if (object->inherits("attn::ui::TokenChips"))
        return;
    // Buttons Qt makes itself (a dock's Close and Float, a tab bar's scroll arrows) speak
    // through Qt's own qtbase_LANG.qm, which Debian ships apart (qt6-translations-l10n).
    if (object->inherits("QDockWidgetTitleButton") ||
        object->objectName().startsWith(QLatin1String("Scroll")))
        return;
    const bool tokenButton =
        object->parent() && object->parent()->inherits("attn::ui::TokenFocusBar");
    if (auto* widget = qobject_cast<QWidget*>(object)) {
        addText(texts, path + QStringLiteral(".toolTip"), widget->toolTip());
        addText(texts, path + QStringLiteral(".accessibleName"), widget->accessibleName());
        addText(texts, path + QStringLiteral(".accessibleDescription"),
                widget->accessibleDescription());
        if (widget->isWindow())
            addText(texts, path + QStringLiteral(".windowTitle"), widget->windowTitle());
    }
    if (auto* button = qobject_cast<QAbstractButton*>(object); button && !tokenButton)
        addText(texts, path + QStringLiteral(".text"), button->text());
    if (auto* label = qobject_cast<QLabel*>(object))
        addText(texts, path + QStringLiteral(".text"), label->text());
    if (auto* group = qobject_cast<QGroupBox*>(object))
        addText(texts, path + QStringLiteral(".title"), group->title());
    if (auto* dock = qobject_cast<QDockWidget*>(object))
        addText(texts, path + QStringLiteral(".windowTitle"), dock->windowTitle());
    if (auto* menu = qobject_cast<QMenu*>(object))
        addText(texts, path + QStringLiteral(".title"), menu->title());
    if (auto* line = qobject_cast<QLineEdit*>(object))
        addText(texts, path + QStringLiteral(".placeholderText"), line->placeholderText());
    if (auto* edit = qobject_cast<QPlainTextEdit*>(object))
        addText(texts, path + QStringLiteral(".placeholderText"), edit->placeholderText());
    // Combo boxes whose items are data (the sentence's tokens, the command line's task words)
    // say so with the "dataItems" property; their tooltips are still checked.
    if (auto* combo = qobject_cast<QComboBox*>(object);
        combo && !combo->property("dataItems").toBool()) {
        for (int i = 0; i < combo->count(); ++i)
            addText(texts, path + QStringLiteral(".item%1").arg(i), combo->itemText(i));
    }
    if (auto* bar = qobject_cast<QTabBar*>(object)) {
        for (int i = 0; i < bar->count(); ++i) {
            addText(texts, path + QStringLiteral(".tab%1").arg(i), bar->tabText(i));
            addText(texts, path + QStringLiteral(".tabToolTip%1").arg(i), bar->tabToolTip(i));
        }
    }
    if (auto* action = qobject_cast<QAction*>(object)) {
        addText(texts, path + QStringLiteral(".text"), action->text());
        addText(texts, path + QStringLiteral(".toolTip"), action->toolTip());
    }
    if (auto* plot = qobject_cast<QCustomPlot*>(object)) {
        // The figure's title, its axes' names and its colour bar's label.
        const QList<QCPLayoutElement*> elements = plot->plotLayout()->elements(true);
        for (int e = 0; e < elements.size(); ++e) {
            const QString key = path + QStringLiteral(".element%1").arg(e);
            if (auto* text = qobject_cast<QCPTextElement*>(elements[e]))
                addText(texts, key, text->text());
            if (auto* scale = qobject_cast<QCPColorScale*>(elements[e]))
                addText(texts, key, scale->axis()->label());
            if (auto* rect = qobject_cast<QCPAxisRect*>(elements[e])) {
                const QList<QCPAxis*> axes = rect->axes();
                for (int a = 0; a < axes.size(); ++a)
                    addText(texts, key + QStringLiteral(".axis%1").arg(a), axes[a]->label());
            }
        }
    }
    QMap<QString, int> seen;
    for (QObject* child : object->children()) {
        const QString kind = QString::fromLatin1(child->metaObject()->className());
        const int index = seen[kind]++;
        const QString name =
            child->objectName().isEmpty() ? QString::number(index) : child->objectName();
        collect(child, path + QLatin1Char('/') + kind + QLatin1Char('[') + name + QLatin1Char(']'),
                texts);
    }
}

Texts textsOf(QWidget* window)
{
    Texts texts;
    collect(window, QStringLiteral("window"), texts);
    return texts;
}

// A text without its accelerators and with its numbers as #: "Computed in 3 ms" is the same
// English as "Computed in 4 ms".
QString normalized(QString text)
{
    static const QRegularExpression number(QStringLiteral("[0-9]+"));
    return text.remove(QLatin1Char('&')).replace(number, QStringLiteral("#"));
}

// English and German texts of the same objects: every English text with letters has a German
// counterpart that differs, unless it reads the same in German.
void compareWindows(const Texts& english, const Texts& german)
{
    QStringList untranslated;
    for (auto it = english.begin(); it != english.end(); ++it) {
        const QString theirs = german.value(it.key());
        if (theirs.isEmpty()) {
            untranslated.append(it.key() + QStringLiteral(": no German text for \"") + it.value() +
                                QLatin1Char('"'));
            continue;
        }
        if (normalized(theirs) == normalized(it.value()) && !sameInGerman(theirs))
            untranslated.append(it.key() + QStringLiteral(": \"") + theirs + QLatin1Char('"'));
    }
    for (auto it = german.begin(); it != german.end(); ++it) {
        if (!english.contains(it.key()))
            untranslated.append(it.key() + QStringLiteral(": only in the German window, \"") +
                                it.value() + QLatin1Char('"'));
    }
    qInfo("%lld texts compared", qlonglong(english.size()));
    if (!untranslated.isEmpty())
        qWarning().noquote() << "English in the German window:\n  " +
                                    untranslated.join(QStringLiteral("\n  "));
    QVERIFY2(untranslated.isEmpty(),
             qPrintable(QStringLiteral("%1 texts untranslated").arg(untranslated.size())));
    QVERIFY(english.size() >= 12);
}

// Each menu's accelerators (the letter after a single &) are unique, as is the menu bar's.
void checkAccelerators(QWidget* window)
{
    auto accelerator = [](const QString& text) -> QChar {
        for (qsizetype i = 0; i + 1 < text.size(); ++i) {
            if (text[i] == QLatin1Char('&')) {
                if (text[i + 1] != QLatin1Char('&'))
                    return text[i + 1].toLower();
                ++i;
            }
        }
        return {};
    };
    QList<QWidget*> menus;
    for (QMenu* menu : window->findChildren<QMenu*>())
        menus.append(menu);
    for (QMenuBar* bar : window->findChildren<QMenuBar*>())
        menus.append(bar);
    for (QWidget* menu : menus) {
        QMap<QChar, QString> taken;
        for (QAction* action : menu->actions()) {
            const QChar key = accelerator(action->text());
            if (key.isNull())
                continue;
            QVERIFY2(!taken.contains(key),
                     qPrintable(QStringLiteral("\"%1\" and \"%2\" share the accelerator %3")
                                    .arg(taken.value(key), action->text(), key)));
            taken.insert(key, action->text());
        }
    }
}

QStringList removeAll(QList<QTranslator*> translators)
{
    QStringList names;
    for (QTranslator* translator : translators) {
        names.append(translator->filePath());
        QCoreApplication::removeTranslator(translator);
        delete translator;
    }
    return names;
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_translations"));
        m_messages = readTs(kTsFile);
        QVERIFY2(m_messages.size() > 500, qPrintable(kTsFile));
    }

    // Every message has a finished translation that keeps what the program fills in or reads.
    void everyMessageTranslated()
    {
        QStringList problems;
        for (const Message& m : std::as_const(m_messages)) {
            const QString where =
                m.context + QStringLiteral(" \"") + m.source + QStringLiteral("\": ");
            if (!m.type.isEmpty())
                problems.append(where + m.type);
            else if (m.translation.isEmpty())
                problems.append(where + QStringLiteral("empty"));
            else if (placeholders(m.translation) != placeholders(m.source))
                problems.append(where +
                                QStringLiteral("placeholders differ in \"%1\"").arg(m.translation));
            else if (m.translation.count(QLatin1Char('&')) != m.source.count(QLatin1Char('&')))
                problems.append(where +
                                QStringLiteral("accelerators differ in \"%1\"").arg(m.translation));
            else if (htmlTags(m.translation) != htmlTags(m.source))
                problems.append(where +
                                QStringLiteral("HTML tags differ in \"%1\"").arg(m.translation));
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The compiled-in .qm holds the same file, under the contexts the program translates with.
    void compiledTranslationAnswersEveryMessage()
    {
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/attention-explorer_de.qm")));
        for (const Message& m : std::as_const(m_messages)) {
            const QByteArray context = m.context.toUtf8();
            const QByteArray source = m.source.toUtf8();
            const QByteArray comment = m.comment.toUtf8();
            QCOMPARE(translator.translate(context.constData(), source.constData(),
                                          comment.isEmpty() ? nullptr : comment.constData()),
                     m.translation);
        }
    }

    // The system locale picks the file: German for de_DE, nothing of ours for English.
    void localePicksTranslation()
    {
        const QStringList english =
            removeAll(ui::installTranslations(QLocale(QLocale::English, QLocale::UnitedStates)));
        QVERIFY2(!english.join(QLatin1Char(' ')).contains(QStringLiteral("attention-explorer")),
                 qPrintable(english.join(QLatin1Char(' '))));
        const QStringList german =
            removeAll(ui::installTranslations(QLocale(QLocale::German, QLocale::Germany)));
        QVERIFY2(german.contains(QStringLiteral(":/i18n/attention-explorer_de.qm")),
                 qPrintable(german.join(QLatin1Char(' '))));
    }

    // The presentation's step names, drawn on each slide (its words come from tr() too).
    void presentationStepsAreGerman()
    {
        Texts english;
        for (int step = 1; step <= ui::kPresentationSteps; ++step)
            english.insert(QString::number(step), ui::presentationStepName(step));
        const QList<QTranslator*> translators =
            ui::installTranslations(QLocale(QLocale::German, QLocale::Germany));
        Texts german;
        for (int step = 1; step <= ui::kPresentationSteps; ++step)
            german.insert(QString::number(step), ui::presentationStepName(step));
        removeAll(translators);
        QCOMPARE(german.value(QStringLiteral("5")), QStringLiteral("Skalierung"));
        compareWindows(english, german);
    }

    // The explorer window and its export dialog.
    void explorerWindowIsGerman()
    {
        struct Built
        {
            std::unique_ptr<ui::ExplorerWindow> window;
            std::unique_ptr<ui::ExportDialog> dialog;
        };
        auto build = [] {
            Built built;
            built.window = std::make_unique<ui::ExplorerWindow>(
                std::make_unique<core::CpuBackend>(), QString());
            // Not maximized to the offscreen screen's 800 pixels: both windows at 1280, where the
            // German panels, wider than the English, also stand beside the figures, not as tabs.
            built.window->setWindowState(Qt::WindowNoState);
            built.window->resize(1280, 800);
            built.window->show();
            ui::ExplorerWindow* window = built.window.get();
            if (!QTest::qWaitFor(
                    [window] { return window->isUpToDate() && window->document()->result(); },
                    20000))
                return built;
            ui::ExportSource source;
            source.result = window->document()->result();
            source.spec.view = ui::FigureView::Head;
            source.spec.head = 0;
            source.suggestedName = QStringLiteral("scene");
            built.dialog = std::make_unique<ui::ExportDialog>(std::move(source));
            built.dialog->show();
            return built;
        };
        Built english = build();
        // Read before the translator goes in: a text the English window sets later (a figure
        // redrawn a pass later) would be German too.
        QTest::qWait(200);
        const Texts englishWindow = textsOf(english.window.get());
        const Texts englishDialog = textsOf(english.dialog.get());
        const QList<QTranslator*> translators =
            ui::installTranslations(QLocale(QLocale::German, QLocale::Germany));
        Built german = build();
        QVERIFY(english.dialog && german.dialog);
        QCOMPARE(german.window->menuBar()->actions().value(0)->text(), QStringLiteral("&Datei"));
        QTest::qWait(200);
        compareWindows(englishWindow, textsOf(german.window.get()));
        compareWindows(englishDialog, textsOf(german.dialog.get()));
        checkAccelerators(german.window.get());
        english.window->document()->undoStack()->setClean();
        german.window->document()->undoStack()->setClean();
        removeAll(translators);
    }

    void modelWindowIsGerman()
    {
        auto build = [] {
            auto window =
                std::make_unique<ui::ModelWindow>(std::make_unique<core::CpuBackend>(),
                                                  core::BackendChoice::Cpu, QString(), QString());
            window->resize(1600, 1000);
            window->show();
            QSignalSpy ended(window.get(), &ui::ModelWindow::loadEnded);
            window->openModel(test::modelFixturesDir() + QStringLiteral("/gpt2"));
            if (!ended.wait(30000))
                qWarning("the model did not load");
            // Computed before its texts are read.
            ui::ModelWindow* shown = window.get();
            if (!QTest::qWaitFor(
                    [shown] { return shown->isUpToDate() && shown->document()->result(); }, 30000))
                qWarning("the model was not computed");
            return window;
        };
        auto english = build();
        QTest::qWait(200);
        const Texts englishTexts = textsOf(english.get());
        const QList<QTranslator*> translators =
            ui::installTranslations(QLocale(QLocale::German, QLocale::Germany));
        auto german = build();
        QTRY_VERIFY_WITH_TIMEOUT(english->isUpToDate() && english->document()->result(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(german->isUpToDate() && german->document()->result(), 30000);
        QTest::qWait(200);
        compareWindows(englishTexts, textsOf(german.get()));
        checkAccelerators(german.get());
        english->document()->undoStack()->setClean();
        german->document()->undoStack()->setClean();
        removeAll(translators);
    }

private:
    QList<Message> m_messages;
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
