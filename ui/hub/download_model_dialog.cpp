#include "ui/hub/download_model_dialog.h"

#include "core/error.h"
#include "core/hub/hub_downloader.h"
#include "core/hub/hub_repo.h"
#include "core/model/model_loader.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>

#include <QVBoxLayout>
#include <map>

namespace attn::ui {

namespace {

QString timeLeft(qint64 seconds)
{
    return QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
}

} // namespace

std::vector<GalleryEntry> galleryEntries()
{
    // The checkpoints people study most, with what --download fetches of each (config,
    // tokenizer, safetensors), rounded as the Hub's file pages show them.
    static constexpr std::pair<const char*, const char*> kGallery[] = {
        {"openai-community/gpt2", "548 MB"},
        {"distilbert/distilgpt2", "353 MB"},
        {"google-bert/bert-base-uncased", "440 MB"},
        {"distilbert/distilbert-base-uncased", "268 MB"},
        {"HuggingFaceTB/SmolLM2-135M", "269 MB"},
        {"Qwen/Qwen2.5-0.5B", "988 MB"},
        {"TinyLlama/TinyLlama-1.1B-Chat-v1.0", "2.2 GB"},
        {"EleutherAI/pythia-70m", "166 MB"},
        {"Helsinki-NLP/opus-mt-en-fr", "301 MB"},
        {"google-t5/t5-small", "242 MB"},
    };
    std::map<QString, core::CachedModel> cached; // by lower-case id, sorted
    for (core::CachedModel& model : core::listCachedModels())
        cached.emplace(model.id.toLower(), std::move(model));
    std::vector<GalleryEntry> entries;
    for (const auto& [id, size] : kGallery) {
        GalleryEntry entry{QString::fromLatin1(id), QString::fromLatin1(size), QString()};
        if (const auto found = cached.find(entry.id.toLower()); found != cached.end()) {
            entry.folder = found->second.folder;
            cached.erase(found);
        }
        entries.push_back(std::move(entry));
    }
    for (const auto& [lower, model] : cached)
        entries.push_back({model.id, QString(), model.folder});
    return entries;
}

DownloadModelDialog::DownloadModelDialog(QWidget* parent)
    : DownloadModelDialog(core::hub::HubSettings::fromEnvironment(), parent)
{
}

DownloadModelDialog::DownloadModelDialog(core::hub::HubSettings settings, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Download Model"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Downloads a model's configuration, tokenizer and safetensors weights from the "
           "Hugging Face Hub (%1) into the cache Python's huggingface_hub uses too (%2).")
            .arg(settings.endpoint, settings.cacheFolder),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_gallery = new QTreeWidget(this);
    m_gallery->setHeaderLabels({tr("Model"), tr("Download"), tr("In the cache")});
    m_gallery->setRootIsDecorated(false);
    m_gallery->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_gallery->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_gallery->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_gallery->setAccessibleName(tr("Models"));
    layout->addWidget(m_gallery, 1);

    auto* idRow = new QHBoxLayout;
    auto* idLabel = new QLabel(tr("Model &id:"), this);
    m_id = new QLineEdit(this);
    m_id->setPlaceholderText(tr("ORG/NAME, or ORG/NAME@REVISION"));
    idLabel->setBuddy(m_id);
    idRow->addWidget(idLabel);
    idRow->addWidget(m_id, 1);
    layout->addLayout(idRow);

    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setTextVisible(false);
    layout->addWidget(m_progress);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_download = buttons->addButton(tr("&Download"), QDialogButtonBox::AcceptRole);
    m_download->setDefault(true);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &DownloadModelDialog::reject);
    connect(m_download, &QPushButton::clicked, this, &DownloadModelDialog::startDownload);
    connect(m_gallery, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item)
            m_id->setText(item->text(0));
    });
    connect(m_gallery, &QTreeWidget::itemActivated, this, &DownloadModelDialog::startDownload);
    connect(m_id, &QLineEdit::textChanged, this,
            [this](const QString& text) { m_download->setEnabled(!text.trimmed().isEmpty()); });
    m_download->setEnabled(false);

    m_downloader = new core::hub::HubDownloader(std::move(settings), this);
    connect(m_downloader, &core::hub::HubDownloader::progress, this,
            &DownloadModelDialog::showProgress);
    connect(m_downloader, &core::hub::HubDownloader::finished, this,
            [this](const QString& snapshot) {
                m_folder = snapshot;
                setRunning(false);
                accept();
            });
    connect(m_downloader, &core::hub::HubDownloader::failed, this, [this](const QString& message) {
        setRunning(false);
        m_status->setText(message);
    });
    fillGallery();
    resize(640, 480);
}

DownloadModelDialog::~DownloadModelDialog() = default;

void DownloadModelDialog::fillGallery()
{
    for (const GalleryEntry& entry : galleryEntries()) {
        auto* item = new QTreeWidgetItem(m_gallery, {entry.id, entry.size, QString()});
        item->setText(2, entry.folder.isEmpty() ? QString() : tr("yes"));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    }
}

void DownloadModelDialog::startDownload()
{
    if (m_downloader->isRunning())
        return;
    core::hub::ModelRef ref;
    try {
        ref = core::hub::parseModelRef(m_id->text().trimmed());
    } catch (const core::Error& error) {
        m_status->setText(QString::fromStdString(error.what()));
        return;
    }
    m_folder.clear();
    m_meterStarted = false;
    m_clock.start();
    m_progress->setValue(0);
    m_status->setText(tr("Asking the Hub for %1…").arg(ref.id));
    setRunning(true);
    m_downloader->start(ref);
}

void DownloadModelDialog::showProgress(qint64 done, qint64 total)
{
    if (!m_meterStarted) {
        m_meter.start(done, m_clock.elapsed());
        m_meterStarted = true;
    }
    m_meter.update(done, m_clock.elapsed());
    m_progress->setValue(total > 0 ? static_cast<int>(1000 * done / total) : 0);
    const double rate = m_meter.bytesPerSecond();
    const qint64 left = m_meter.secondsLeft(done, total);
    QString text = tr("%1 of %2").arg(core::hub::formatSize(done), core::hub::formatSize(total));
    if (rate >= 0)
        text += tr(", %1/s").arg(core::hub::formatSize(static_cast<qint64>(rate)));
    if (left >= 0)
        text += tr(", %1 left").arg(timeLeft(left));
    m_status->setText(text);
}

void DownloadModelDialog::setRunning(bool running)
{
    m_download->setEnabled(!running && !m_id->text().trimmed().isEmpty());
    m_gallery->setEnabled(!running);
    m_id->setEnabled(!running);
}

void DownloadModelDialog::reject()
{
    if (m_downloader->isRunning()) {
        m_downloader->cancel(); // its failed() shows what was kept; the dialog stays open
        return;
    }
    QDialog::reject();
}

} // namespace attn::ui
