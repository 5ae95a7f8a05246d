// Every control of both windows, on every tab, has a name a screen reader can say (its own
// text, its label's (a QLabel buddy), or an accessible name set for it) and a description of
// what it changes (its own, or its tooltip, which Qt reports as the description).

#include "ui/explorer/explorer_window.h"
#include "ui/model/model_document.h"
#include "ui/model/model_window.h"

#include "support/model_fixtures.h"

#include "core/cpu_backend.h"
#include "core/scene_json.h"

#include <QtTest>

#include <QAbstractButton>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextEdit>

namespace core = attn::core;
namespace ui = attn::ui;
namespace test = attn::test;

namespace {

// The visible controls of `window` that a screen reader would announce without a name or
// without a description.
QStringList unnamedControls(const QWidget& window)
{
    QStringList unnamed;
    int controls = 0;
    for (QWidget* widget : window.findChildren<QWidget*>()) {
        const bool control =
            qobject_cast<QAbstractButton*>(widget) || qobject_cast<QComboBox*>(widget) ||
            qobject_cast<QAbstractSpinBox*>(widget) || qobject_cast<QAbstractSlider*>(widget) ||
            qobject_cast<QLineEdit*>(widget) || qobject_cast<QPlainTextEdit*>(widget) ||
            qobject_cast<QTextEdit*>(widget) || qobject_cast<QTableView*>(widget);
        if (!control || !widget->isVisibleTo(&window) || widget->focusPolicy() == Qt::NoFocus)
            continue;
        // A tab bar's scroll arrows are Qt's own, named and described by Qt's translations.
        if (qobject_cast<QTabBar*>(widget->parentWidget()))
            continue;
        // A combo box's line edit and a spin box's are parts of their control.
        if (qobject_cast<QLineEdit*>(widget) &&
            (qobject_cast<QAbstractSpinBox*>(widget->parentWidget()) ||
             qobject_cast<QComboBox*>(widget->parentWidget())))
            continue;
        ++controls;
        QAccessibleInterface* accessible = QAccessible::queryAccessibleInterface(widget);
        if (!accessible) {
            unnamed << QStringLiteral("%1 has no accessible interface").arg(widget->objectName());
            continue;
        }
        const QString name = accessible->text(QAccessible::Name).trimmed();
        if (name.isEmpty() || accessible->text(QAccessible::Description).trimmed().isEmpty())
            unnamed << QStringLiteral("%1 %2 in %3: %4")
                           .arg(QString::fromLatin1(widget->metaObject()->className()),
                                widget->objectName(), widget->parentWidget()->objectName(),
                                name.isEmpty()
                                    ? QStringLiteral("no name")
                                    : QStringLiteral("\"%1\", no description").arg(name));
    }
    if (controls < 10)
        unnamed
            << QStringLiteral("only %1 controls found: the walk missed the window").arg(controls);
    return unnamed;
}

// unnamedControls() with each page of each tab widget shown in turn.
QStringList unnamedControlsOnEveryTab(QWidget& window)
{
    QStringList unnamed = unnamedControls(window);
    for (QTabWidget* tabs : window.findChildren<QTabWidget*>()) {
        if (!tabs->isVisibleTo(&window))
            continue;
        const int shown = tabs->currentIndex();
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QCoreApplication::processEvents();
            unnamed += unnamedControls(window);
        }
        tabs->setCurrentIndex(shown);
    }
    unnamed.removeDuplicates();
    return unnamed;
}

} // namespace

class TestAccessibility : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_accessibility"));
        QSettings().clear();
    }

    void cleanupTestCase() { QSettings().clear(); }

    void everyControlHasAName()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.setScene(core::loadScene(QStringLiteral(":/examples/02-student-scholarship.json")),
                        QString());
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY(window.isUpToDate() && window.document()->result());
        QStringList unnamed = unnamedControlsOnEveryTab(window);
        for (const QString& line : unnamed)
            qInfo("%s", qPrintable(line));
        QVERIFY2(unnamed.isEmpty(),
                 qPrintable(QStringLiteral("%1 without a name:\n").arg(unnamed.size()) +
                            unnamed.join(u'\n')));
        window.document()->undoStack()->setClean();
    }

    void everyModelWindowControlHasAName()
    {
        ui::ModelWindow window(std::make_unique<core::CpuBackend>(), core::BackendChoice::Cpu,
                               QString(), QString());
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy ended(&window, &ui::ModelWindow::loadEnded);
        window.openModel(test::modelFixturesDir() + QStringLiteral("/gpt2"),
                         QStringLiteral("The cat sat on the"));
        QVERIFY(ended.wait(20000));
        QTRY_VERIFY(window.isUpToDate() && window.document()->result());
        const QStringList unnamed = unnamedControlsOnEveryTab(window);
        for (const QString& line : unnamed)
            qInfo("%s", qPrintable(line));
        QVERIFY2(unnamed.isEmpty(),
                 qPrintable(QStringLiteral("%1 without a name:\n").arg(unnamed.size()) +
                            unnamed.join(u'\n')));
    }
};

QTEST_MAIN(TestAccessibility)
#include "tst_accessibility.moc"
