#include "ui/model/open_model_dialog.h"

#include "ui/document/latest_request_worker.h"
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

#include <optional>

namespace attn::ui {

struct OpenModelDialog::Reading
{
    std::optional<core::ModelConfig> config;
    QString error; // when there is no config
};

namespace {

enum Column { IdColumn, FamilyColumn, SizeColumn, DtypeColumn, FolderColumn };

} // namespace

QString OpenModelDialog::formatParameters(long long parameters)
{
    if (parameters >= 1'000'000'000LL)
        return QString::number(double(parameters) / 1e9, 'f',
                               parameters >= 10'000'000'000LL ? 0 : 1) +
               QStringLiteral("B");
    if (parameters >= 1'000'000LL)
        return QString::number(double(parameters) / 1e6, 'f', 0) + QStringLiteral("M");
    if (parameters >= 1'000LL)
        return QString::number(double(parameters) / 1e3, 'f', 0) + QStringLiteral("K");
    return QString::number(parameters);
}

OpenModelDialog::OpenModelDialog(QWidget* parent)
    : QDialog(parent), m_worker(std::make_unique<LatestRequestWorker>())
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
    m_list->setHeaderLabels(
        {tr("Model"), tr("Family"), tr("Parameters"), tr("Weights"), tr("Folder")});
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(true);
    layout->addWidget(m_list, 1);
    auto* buttons = new QDialogButtonBox(this);
    QPushButton* folder = buttons->addButton(tr("Other &Folder…"), QDialogButtonBox::ActionRole);
    folder->setToolTip(
        tr("A Hugging Face model folder: config.json, model.safetensors and the tokenizer files"));
    m_open = buttons->addButton(tr("&Open"), QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &OpenModelDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(folder, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getExistingDirectory(this, tr("Open Model Folder"),
                                                                 preferences::modelDirectory());
        if (chosen.isEmpty())
            return;
        preferences::setModelDirectory(chosen);
        chooseFolder(chosen);
    });
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, [this] { accept(); });
    connect(m_list, &QTreeWidget::currentItemChanged, this, &OpenModelDialog::updateOpenButton);
    resize(760, 420);
    refresh();
}

OpenModelDialog::~OpenModelDialog()
{
    m_worker->stop(); // its jobs post to this dialog; what they posted and was not run is dropped
}

bool OpenModelDialog::isReading() const
{
    return m_worker->isBusy();
}

void OpenModelDialog::refresh()
{
    m_list->clear();
    m_hub = core::huggingFaceHubFolder();
    m_where->setText(
        tr("Reading the Hugging Face cache (%1)…").arg(QDir::toNativeSeparators(m_hub)));
    updateOpenButton();
    m_worker->submit([this](quint64 generation, const std::atomic<bool>* cancel) {
        // Worker thread: only core calls and the mailbox from here.
        std::vector<core::CachedModel> cached;
        try {
            cached = core::listCachedModels();
        } catch (const std::exception&) {
        }
        m_mailbox.post([this, generation, cached] { showModels(generation, cached); });
        for (std::size_t row = 0; row < cached.size(); ++row) {
            if (cancel->load())
                return; // a newer refresh lists the cache again
            Reading reading;
            try {
                reading.config = core::readModelConfig(cached[row].folder);
            } catch (const std::exception& error) {
                reading.error = QString::fromUtf8(error.what());
            }
            m_mailbox.post(
                [this, generation, row, reading] { showReading(generation, int(row), reading); });
        }
        m_mailbox.post([this, generation] {
            if (generation == m_worker->latestGeneration() && m_worker->answer(generation))
                emit listed();
        });
    });
}

void OpenModelDialog::showModels(quint64 generation, const std::vector<core::CachedModel>& models)
{
    if (generation != m_worker->latestGeneration())
        return; // an older refresh's
    m_where->setText(
        models.empty()
            ? tr("No models in the Hugging Face cache (%1). Choose a model folder, or download one "
                 "with "
                 "huggingface-cli download (README, “Real models”).")
                  .arg(QDir::toNativeSeparators(m_hub))
            : tr("Models in the Hugging Face cache (%1):").arg(QDir::toNativeSeparators(m_hub)));
    for (const core::CachedModel& model : models) {
        auto* item = new QTreeWidgetItem(m_list);
        item->setText(IdColumn, model.id);
        item->setText(FamilyColumn, tr("reading…"));
        item->setText(FolderColumn, QDir::toNativeSeparators(model.folder));
        item->setData(IdColumn, Qt::UserRole, model.folder);
        item->setToolTip(FolderColumn, model.folder);
        item->setDisabled(true); // until its config has been read
    }
    if (m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(0));
    updateOpenButton();
}

void OpenModelDialog::showReading(quint64 generation, int row, const Reading& reading)
{
    QTreeWidgetItem* item = m_list->topLevelItem(row);
    if (generation != m_worker->latestGeneration() || !item)
        return;
    if (reading.config) {
        const core::ModelConfig& config = *reading.config;
        item->setText(FamilyColumn, QString::fromUtf8(core::toString(config.family)));
        item->setText(SizeColumn, formatParameters(config.parameterCount()));
        item->setText(DtypeColumn, config.dtype);
        item->setToolTip(SizeColumn, tr("%1 layers, %2 heads, d_model %3")
                                         .arg(config.layers)
                                         .arg(config.heads)
                                         .arg(config.dModel));
        item->setDisabled(false);
    } else {
        item->setText(FamilyColumn, tr("cannot open"));
        item->setToolTip(IdColumn, reading.error);
        item->setToolTip(FamilyColumn, reading.error);
    }
    updateOpenButton();
}

void OpenModelDialog::updateOpenButton()
{
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
