#pragma once

#include "ui/document/thread_mailbox.h"

#include <QDialog>
#include <QString>

#include <memory>
#include <vector>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace attn::core {
struct CachedModel;
} // namespace attn::core

namespace attn::ui {

class LatestRequestWorker;

// File > Open Model…: the models already in the Hugging Face cache ($HF_HUB_CACHE, else
// $HF_HOME/hub, else ~/.cache/huggingface/hub) with their family, size and dtype read from
// each config.json, and a button for any folder. Nothing is downloaded; a config that
// cannot be read is listed with the reason, greyed. The cache is listed and the configs read on
// a worker thread, each row filled in as its config arrives: a slow disk or a file that will
// not open never holds up the window.
class OpenModelDialog : public QDialog
{
    Q_OBJECT

public:
    explicit OpenModelDialog(QWidget* parent = nullptr);
    ~OpenModelDialog() override;

    // The folder chosen (a cache snapshot or a folder picked), after exec() accepted.
    QString selectedFolder() const { return m_selected; }
    QTreeWidget* modelList() const { return m_list; }
    // Reads the cache again (tests change HF_HOME); listed() says when it has been read.
    void refresh();
    // True until the newest refresh has listed the cache and read every config.
    bool isReading() const;
    // Picks a folder as the Folder… button does, without the file dialog.
    void chooseFolder(const QString& folder);

    // "124M", "1.1B": a parameter count as people say it.
    static QString formatParameters(long long parameters);

    // Open: the model selected in the list.
    void accept() override;

signals:
    // The cache has been listed and every config read (or found unreadable).
    void listed();

private:
    struct Reading; // one model's config, or why it cannot be read

    void showModels(quint64 generation, const std::vector<core::CachedModel>& models);
    void showReading(quint64 generation, int row, const Reading& reading);
    void updateOpenButton();

    QTreeWidget* m_list = nullptr;
    QLabel* m_where = nullptr;
    QPushButton* m_open = nullptr;
    QString m_selected;
    QString m_hub;           // the cache folder the newest refresh lists
    ThreadMailbox m_mailbox; // the worker's findings to the UI thread
    std::unique_ptr<LatestRequestWorker> m_worker;
};

} // namespace attn::ui
