#pragma once

#include <QWidget>

class QGridLayout;
class QLabel;
class QPushButton;

namespace attn::ui {

// The empty model window's first page: the download dialog's gallery (galleryEntries) as one
// button each, a model in the Hugging Face cache opening in one click and any other
// downloading in one (File > Download Model…).
class GalleryView : public QWidget
{
    Q_OBJECT

public:
    explicit GalleryView(QWidget* parent = nullptr);

    void refresh(); // reads the cache again
    QList<QPushButton*> buttons() const { return m_buttons; }

signals:
    void openRequested(const QString& folder);
    void downloadRequested(const QString& id);

private:
    QGridLayout* m_grid = nullptr;
    QList<QPushButton*> m_buttons;
};

} // namespace attn::ui
