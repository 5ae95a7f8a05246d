#pragma once

#include <QDialog>
#include <QString>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace attn::ui {

// File > Open Model…: the models already in the Hugging Face cache ($HF_HUB_CACHE, else
// $HF_HOME/hub, else ~/.cache/huggingface/hub) with their family, size and dtype read from
// each config.json, and a button for any folder. Nothing is downloaded; a config that
// cannot be read is listed with the reason, greyed.
class OpenModelDialog : public QDialog
{
    Q_OBJECT

public:
    explicit OpenModelDialog(QWidget* parent = nullptr);

    // The folder chosen (a cache snapshot or a folder picked), after exec() accepted.
    QString selectedFolder() const { return m_selected; }
    QTreeWidget* modelList() const { return m_list; }
    // Reads the cache again (tests change HF_HOME).
    void refresh();
    // Picks a folder as the Folder… button does, without the file dialog.
    void chooseFolder(const QString& folder);

    // "124M", "1.1B": a parameter count as people say it.
    static QString formatParameters(long long parameters);

    // Open: the model selected in the list.
    void accept() override;

private:
    QTreeWidget* m_list = nullptr;
    QLabel* m_where = nullptr;
    QPushButton* m_open = nullptr;
    QString m_selected;
};

} // namespace attn::ui
