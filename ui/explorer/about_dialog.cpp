#include "ui/explorer/about_dialog.h"

#include "core/backend_factory.h"

#include <Eigen/Core>
#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFile>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSysInfo>
#include <QTabWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#ifndef ATTN_VERSION
#error "ATTN_VERSION is set by ui/CMakeLists.txt from the project version"
#endif

namespace attn::ui {

namespace {

// The Vulkan version and driver of the device computing now. The backend names its device
// only, so it is looked up among the devices (a second, short-lived instance).
QString vulkanDevice(const core::BackendFactory& backends, const QString& backend,
                     const QString& device)
{
    if (backend != QLatin1String("Vulkan"))
        return QObject::tr("not in use");
    for (const core::BackendFactory::Device& info : backends.devices()) {
        if (QString::fromStdString(info.name) != device)
            continue;
        QString text = QObject::tr("Vulkan %1").arg(QString::fromStdString(info.apiVersion));
        if (!info.driverName.empty())
            text += QObject::tr(", driver %1").arg(QString::fromStdString(info.driverName));
        if (!info.driverInfo.empty())
            text += QStringLiteral(" (%1)").arg(QString::fromStdString(info.driverInfo));
        return text;
    }
    return QObject::tr("unknown");
}

} // namespace

AboutDialog::AboutDialog(const core::BackendFactory& backends, const QString& backend,
                         const QString& device, const QString& reason, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("About Attention Explorer"));
    setObjectName(QStringLiteral("aboutDialog"));

    const QString qtRuntime = QString::fromLatin1(qVersion());
    const QString qtBuilt = QStringLiteral(QT_VERSION_STR);
    QList<std::pair<QString, QString>> rows{
        {tr("Version"), QStringLiteral(ATTN_VERSION)},
        {tr("Licence"), tr("GNU General Public License, version 3 or later (GPL-3.0-or-later)")},
        {tr("Computing with"), device.isEmpty() || device == backend
                                   ? backend
                                   : QStringLiteral("%1 · %2").arg(backend, device)},
        {tr("Qt"),
         qtRuntime == qtBuilt ? qtRuntime : tr("%1 (built with %2)").arg(qtRuntime, qtBuilt)},
        {tr("Eigen"), QStringLiteral("%1.%2.%3")
                          .arg(EIGEN_WORLD_VERSION)
                          .arg(EIGEN_MAJOR_VERSION)
                          .arg(EIGEN_MINOR_VERSION)},
        {tr("QCustomPlot"), QStringLiteral(QCUSTOMPLOT_VERSION_STR)},
        {tr("Vulkan headers"), QString::fromStdString(backends.vulkanHeaders)},
        {tr("Vulkan device"), vulkanDevice(backends, backend, device)},
        {tr("System"), QStringLiteral("%1, %2").arg(QSysInfo::prettyProductName(),
                                                    QSysInfo::currentCpuArchitecture())},
    };
    if (!reason.isEmpty())
        rows.insert(3, {tr("Why this backend"), reason});
    if (backends.vulkanHeaders.empty()) // a program without the Vulkan backend has none
        rows.removeIf(
            [label = tr("Vulkan headers")](const auto& row) { return row.first == label; });

    auto* about = new QWidget;
    auto* aboutLayout = new QVBoxLayout(about);
    auto* heading = new QLabel(
        tr("<h3>Attention Explorer %1</h3>"
           "<p>See how attention in neural networks is computed: a sentence becomes queries, keys "
           "and "
           "values, scores, masks and weights, every matrix a heatmap.</p>"
           "<p>Attention Explorer is free software: you can redistribute it and modify it under "
           "the terms "
           "of the GNU General Public License, version 3 or any later version. It comes with no "
           "warranty.</p>")
            .arg(QStringLiteral(ATTN_VERSION)));
    heading->setWordWrap(true);
    heading->setTextFormat(Qt::RichText);
    aboutLayout->addWidget(heading);
    auto* form = new QFormLayout;
    for (const auto& [name, value] : rows) {
        auto* label = new QLabel(value);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        label->setWordWrap(true);
        label->setObjectName(QStringLiteral("about:") + name);
        form->addRow(name + QLatin1Char(':'), label);
        m_details += name + QStringLiteral(": ") + value + QLatin1Char('\n');
    }
    aboutLayout->addLayout(form);
    aboutLayout->addStretch();

    auto* licence = new QPlainTextEdit(licenceText());
    licence->setReadOnly(true);
    licence->setObjectName(QStringLiteral("licenceText"));
    licence->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    licence->setLineWrapMode(QPlainTextEdit::NoWrap);

    auto* tabs = new QTabWidget;
    tabs->addTab(about, tr("&About"));
    tabs->addTab(licence, tr("&Licence"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* copy = buttons->addButton(tr("&Copy Details"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("copyDetails"));
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_details); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs);
    layout->addWidget(buttons);
    // Wide enough for the licence's 80 columns; it fits a 1024 x 768 screen.
    resize(QFontMetrics(licence->font()).horizontalAdvance(QLatin1Char('M')) * 84, 520);
}

QString AboutDialog::licenceText()
{
    QFile file(QStringLiteral(":/about/LICENSE"));
    if (!file.open(QIODevice::ReadOnly))
        return tr("GNU General Public License, version 3 or later: "
                  "https://www.gnu.org/licenses/gpl-3.0.html");
    return QString::fromUtf8(file.readAll());
}

} // namespace attn::ui
