#include "ui/model/gallery_view.h"

#include "ui/hub/download_model_dialog.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace attn::ui {

GalleryView::GalleryView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* title = new QLabel(tr("<b>No model open.</b> Open one in a click: a model in the "
                                "Hugging Face cache opens at once, another downloads first."),
                             this);
    title->setWordWrap(true);
    layout->addWidget(title);
    m_grid = new QGridLayout;
    layout->addLayout(m_grid);
    layout->addStretch(1);
    refresh();
}

void GalleryView::refresh()
{
    qDeleteAll(m_buttons);
    m_buttons.clear();
    int n = 0;
    for (const GalleryEntry& entry : galleryEntries()) {
        const bool cached = !entry.folder.isEmpty();
        const QString how = cached                 ? tr("open from the cache")
                            : entry.size.isEmpty() ? tr("download")
                                                   : tr("download %1").arg(entry.size);
        auto* button = new QPushButton(QStringLiteral("%1\n%2").arg(entry.id, how), this);
        button->setObjectName(QStringLiteral("gallery:") + entry.id);
        button->setToolTip(
            cached ? entry.folder
                   : tr("Download %1 into the Hugging Face cache and open it").arg(entry.id));
        if (cached)
            connect(button, &QPushButton::clicked, this,
                    [this, folder = entry.folder] { emit openRequested(folder); });
        else
            connect(button, &QPushButton::clicked, this,
                    [this, id = entry.id] { emit downloadRequested(id); });
        m_grid->addWidget(button, n / 2, n % 2);
        m_buttons << button;
        ++n;
    }
}

} // namespace attn::ui
