#include "ui/model/open_model_dialog.h"

#include "ui/document/preferences.h"

#include "core/model/model_config.h"
#include "core/model/model_loader.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace attn::ui {

namespace {

enum Column { IdColumn, FamilyColumn, SizeColumn, DtypeColumn, FolderColumn };

} // namespace

QString OpenModelDialog::formatParameters(long long parameters)
{
    if (parameters >= 1'000'000'000LL)
        return QString::number(double(parameters) / 1e9, 'f', parameters >= 10'000'000'000LL ? 0 : 1) + QStringLiteral("B");
    if (parameters >= 1'000'000LL)
        return QString::number(double(parameters) / 1e6, 'f', 0) + QStringLiteral("M");
    if (parameters >= 1'000LL)
        return QString::number(double(parameters) / 1e3, 'f', 0) + QStringLiteral("K");
    return QString::number(parameters);
}

OpenModelDialog::OpenModelDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Open Model"));
    setObjectName(QStringLiteral("OpenModelDialog"));
    auto* layout = new QVBoxLayout(this);
    m_where = new QLabel(this);
    m_where->setWordWrap(true);
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_where);
    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("cachedModels"));
    m_list->setRootIsDecorated(false);
    m_list->setAlternatingRowColors(true);
    m_list->setHeaderLabels({tr("Model"), tr("Family"), tr("Parameters"), tr("Weights"), tr("Folder")});
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(true);
    layout->addWidget(m_list, 1);
    auto* buttons = new QDialogButtonBox(this);
    QPushButton* folder = buttons->addButton(tr("Other &Folder…"), QDialogButtonBox::ActionRole);
    folder->setToolTip(tr("A Hugging Face model folder: config.json, model.safetensors and the tokenizer files"));
    m_open = buttons->addButton(tr("&Open"), QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &OpenModelDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(folder, &QPushButton::clicked, this, [this] {
        const QString chosen =
            QFileDialog::getExistingDirectory(this, tr("Open Model Folder"), preferences::modelDirectory());
        if (chosen.isEmpty())
            return;
        preferences::setModelDirectory(chosen);
        chooseFolder(chosen);
    });
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, [this] { accept(); });
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this] {
        m_open->setEnabled(m_list->currentItem() && !m_list->currentItem()->isDisabled());
    });
    resize(760, 420);
    refresh();
}

void OpenModelDialog::refresh()
{
    m_list->clear();
    const QString hub = core::huggingFaceHubFolder();
    std::vector<core::CachedModel> cached;
    try {
        cached = core::listCachedModels();
    } catch (const std::exception&) {
    }
    m_where->setText(cached.empty()
                         ? tr("No models in the Hugging Face cache (%1). Choose a model folder, or download one with "
                              "huggingface-cli download (README, “Real models”).")
                               .arg(QDir::toNativeSeparators(hub))
                         : tr("Models in the Hugging Face cache (%1):").arg(QDir::toNativeSeparators(hub)));
    for (const core::CachedModel& model : cached) {
        auto* item = new QTreeWidgetItem(m_list);
        item->setText(IdColumn, model.id);
        item->setText(FolderColumn, QDir::toNativeSeparators(model.folder));
        item->setData(IdColumn, Qt::UserRole, model.folder);
        item->setToolTip(FolderColumn, model.folder);
        try {
            const core::ModelConfig config = core::readModelConfig(model.folder);
            item->setText(FamilyColumn, QString::fromUtf8(core::toString(config.family)));
            item->setText(SizeColumn, formatParameters(config.parameterCount()));
            item->setText(DtypeColumn, config.dtype);
            item->setToolTip(SizeColumn, tr("%1 layers, %2 heads, d_model %3")
                                             .arg(config.layers)
                                             .arg(config.heads)
                                             .arg(config.dModel));
        } catch (const std::exception& error) {
            item->setText(FamilyColumn, tr("cannot open"));
            item->setToolTip(IdColumn, QString::fromUtf8(error.what()));
            item->setToolTip(FamilyColumn, QString::fromUtf8(error.what()));
            item->setDisabled(true);
        }
    }
    if (m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(0));
    m_open->setEnabled(m_list->currentItem() && !m_list->currentItem()->isDisabled());
}

void OpenModelDialog::chooseFolder(const QString& folder)
{
    m_selected = folder;
    QDialog::accept();
}

void OpenModelDialog::accept()
{
    QTreeWidgetItem* item = m_list->currentItem();
    if (!item || item->isDisabled())
        return;
    m_selected = item->data(IdColumn, Qt::UserRole).toString();
    QDialog::accept();
}

} // namespace attn::ui
