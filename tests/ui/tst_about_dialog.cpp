// Help > About: the version, the licence and every library's version, and the backend in use.
#include "core/cpu_backend.h"
#include "gpu/backend_factory.h"
#include "ui/explorer/about_dialog.h"
#include "ui/explorer/explorer_window.h"

#include <Eigen/Core>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTest>
#include <qcustomplot.h>

using namespace attn;

class TestAboutDialog : public QObject
{
    Q_OBJECT

private slots:
    // The Vulkan headers' version comes from the factory app hands the windows (gpu's).
    void showsVersionsLicenceAndBackend()
    {
        ui::AboutDialog dialog(gpu::backendFactory(), QStringLiteral("CPU"), QStringLiteral("CPU"));
        const QString details = dialog.details();
        const QString eigen = QStringLiteral("%1.%2.%3")
                                  .arg(EIGEN_WORLD_VERSION)
                                  .arg(EIGEN_MAJOR_VERSION)
                                  .arg(EIGEN_MINOR_VERSION);
        for (const QString& expected :
             {QStringLiteral("Version: " ATTN_PROJECT_VERSION "\n"),
              QStringLiteral("GPL-3.0-or-later"), QStringLiteral("Computing with: CPU\n"),
              QStringLiteral("Qt: ") + QString::fromLatin1(qVersion()),
              QStringLiteral("Eigen: ") + eigen,
              QStringLiteral("QCustomPlot: " QCUSTOMPLOT_VERSION_STR),
              QStringLiteral("Vulkan headers: 1."), QStringLiteral("Vulkan device: not in use\n")})
            QVERIFY2(details.contains(expected),
                     qPrintable(expected + QStringLiteral(" not in:\n") + details));
        // What is shown is what is copied.
        const auto* qt = dialog.findChild<QLabel*>(QStringLiteral("about:Qt"));
        QVERIFY(qt);
        QVERIFY(qt->text().startsWith(QString::fromLatin1(qVersion())));
    }

    void showsTheDeviceComputing()
    {
        ui::AboutDialog dialog(gpu::backendFactory(), QStringLiteral("Vulkan"),
                               QStringLiteral("No Such Device"));
        QVERIFY(
            dialog.details().contains(QStringLiteral("Computing with: Vulkan · No Such Device\n")));
        // Not among the devices: said, not guessed.
        QVERIFY(dialog.details().contains(QStringLiteral("Vulkan device: unknown\n")));

        // Among the factory's devices: its Vulkan version and driver.
        core::BackendFactory backends;
        backends.devices = [] {
            return std::vector<core::BackendFactory::Device>{
                {"Other", "1.1.0", "", ""}, {"Card", "1.3.230", "radv", "Mesa 22.3.6"}};
        };
        backends.vulkanHeaders = "1.3.239";
        ui::AboutDialog found(backends, QStringLiteral("Vulkan"), QStringLiteral("Card"));
        QVERIFY2(found.details().contains(QStringLiteral("Vulkan headers: 1.3.239\n"
                                                         "Vulkan device: Vulkan 1.3.230, driver "
                                                         "radv (Mesa 22.3.6)\n")),
                 qPrintable(found.details()));
        // A factory without Vulkan (the CPU backend only) names no headers.
        ui::AboutDialog cpuOnly(core::BackendFactory(), QStringLiteral("CPU"),
                                QStringLiteral("CPU"));
        QVERIFY(!cpuOnly.details().contains(QStringLiteral("Vulkan headers")));
        QVERIFY(cpuOnly.details().contains(QStringLiteral("Vulkan device: not in use\n")));
    }

    // Why this backend: the backend notice in full, which the window says in one short line.
    void saysWhyThisBackend()
    {
        const QString notice = QStringLiteral("No Vulkan device: computing on the CPU backend");
        ui::AboutDialog dialog(gpu::backendFactory(), QStringLiteral("CPU"), QStringLiteral("CPU"),
                               notice);
        QVERIFY2(
            dialog.details().contains(QStringLiteral("Computing with: CPU\nWhy this backend: ") +
                                      notice + QLatin1Char('\n')),
            qPrintable(dialog.details()));
        ui::AboutDialog plain(gpu::backendFactory(), QStringLiteral("CPU"), QStringLiteral("CPU"));
        QVERIFY(!plain.details().contains(QStringLiteral("Why this backend")));
        // The window's Help > About has it.
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), notice);
        window.findChild<QAction*>(QStringLiteral("aboutAction"))->trigger();
        auto* shown = window.findChild<ui::AboutDialog*>();
        QVERIFY(shown);
        QVERIFY2(shown->details().contains(QStringLiteral("Why this backend: ") + notice),
                 qPrintable(shown->details()));
        shown->close();
    }

    void licenceIsTheWholeGpl()
    {
        const QString text = ui::AboutDialog::licenceText();
        QVERIFY(text.contains(QStringLiteral("GNU GENERAL PUBLIC LICENSE")));
        QVERIFY(text.contains(QStringLiteral("Version 3, 29 June 2007")));
        QVERIFY(text.contains(QStringLiteral("END OF TERMS AND CONDITIONS")));
        ui::AboutDialog dialog(gpu::backendFactory(), QStringLiteral("CPU"), QStringLiteral("CPU"));
        const auto* shown = dialog.findChild<QPlainTextEdit*>(QStringLiteral("licenceText"));
        QVERIFY(shown && shown->isReadOnly());
        QCOMPARE(shown->toPlainText(), text);
    }

    void copyDetailsPutsThemOnTheClipboard()
    {
        ui::AboutDialog dialog(gpu::backendFactory(), QStringLiteral("CPU"), QStringLiteral("CPU"));
        QApplication::clipboard()->clear();
        auto* copy = dialog.findChild<QPushButton*>(QStringLiteral("copyDetails"));
        QVERIFY(copy);
        copy->click();
        QCOMPARE(QApplication::clipboard()->text(), dialog.details());
    }

    // The Help menu's entry opens it, naming the backend the window computes with.
    void helpMenuOpensIt()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        auto* action = window.findChild<QAction*>(QStringLiteral("aboutAction"));
        QVERIFY(action);
        QCOMPARE(action->menuRole(), QAction::AboutRole);
        action->trigger();
        auto* dialog = window.findChild<ui::AboutDialog*>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY2(dialog->details().contains(QStringLiteral("Computing with: CPU")),
                 qPrintable(dialog->details()));
        dialog->close();
    }
};

QTEST_MAIN(TestAboutDialog)
#include "tst_about_dialog.moc"
