#pragma once

#include "core/hub/hub_settings.h"
#include "core/hub/transfer_meter.h"

#include <QDialog>
#include <QElapsedTimer>
#include <QString>

#include <vector>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace attn::core::hub {
class HubDownloader;
} // namespace attn::core::hub

namespace attn::ui {

// A model of the gallery (File > Download Model…, the empty model window).
struct GalleryEntry
{
    QString id;     // "openai-community/gpt2"
    QString size;   // what a download fetches, "548 MB"; empty for a model found in the cache
    QString folder; // its snapshot in the Hugging Face cache; empty when not there
};

// The ten models people study most, in that order, then every other model in the cache
// (sorted by id). Reads the cache's folders.
std::vector<GalleryEntry> galleryEntries();

// File > Download Model…: a gallery of the models people study most (with their download
// sizes, and whether each is in the cache already, beside the other cached models), any Hub
// id typed in, and the download's progress: size, speed, time left, Cancel. The download runs
// on the network's own events (core/hub), so the window never waits; accepted once the
// snapshot is complete, selectedFolder() is then the folder to open.
class DownloadModelDialog : public QDialog
{
    Q_OBJECT

public:
    explicit DownloadModelDialog(core::hub::HubSettings settings, QWidget* parent = nullptr);
    explicit DownloadModelDialog(QWidget* parent = nullptr);
    ~DownloadModelDialog() override;

    QString selectedFolder() const { return m_folder; }
    QTreeWidget* gallery() const { return m_gallery; }
    QLineEdit* idEdit() const { return m_id; }
    QPushButton* downloadButton() const { return m_download; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* statusLabel() const { return m_status; }
    core::hub::HubDownloader* downloader() const { return m_downloader; }

    // Cancel stops a running download (what was fetched is kept for the next one) before it
    // closes the dialog.
    void reject() override;

private:
    void fillGallery();
    void startDownload();
    void showProgress(qint64 done, qint64 total);
    void setRunning(bool running);

    core::hub::HubDownloader* m_downloader = nullptr;
    QTreeWidget* m_gallery = nullptr;
    QLineEdit* m_id = nullptr;
    QPushButton* m_download = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QString m_folder;
    QElapsedTimer m_clock;
    core::hub::TransferMeter m_meter;
    bool m_meterStarted = false;
};

} // namespace attn::ui
