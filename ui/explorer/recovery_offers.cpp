#include "ui/explorer/recovery_offers.h"

#include "ui/widgets/message_bar.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>

namespace attn::ui {

RecoveryOffers::RecoveryOffers(RecoveryStore& store, MessageBar& messages, Restore restore,
                               QObject* parent)
    : QObject(parent), m_store(store), m_messages(messages), m_restore(std::move(restore))
{
}

void RecoveryOffers::offer(std::vector<RecoveryStore::LeftCopy> copies)
{
    const bool showing = !m_waiting.empty();
    for (RecoveryStore::LeftCopy& copy : copies)
        m_waiting.push_back(std::move(copy));
    if (!showing)
        offerNext();
}

void RecoveryOffers::offerNext()
{
    if (m_waiting.empty())
        return;
    const RecoveryStore::LeftCopy copy = m_waiting.front();
    m_waiting.pop_front();
    // As the window called the work (its title bar: "gpt2", a scene's title or file name).
    QString name = copy.name;
    if (name.isEmpty())
        name = copy.originalPath.isEmpty() ? tr("an untitled scene")
                                           : QFileInfo(copy.originalPath).fileName();
    QString text =
        tr("Attention Explorer did not close normally. Restore the unsaved changes to %1 from %2?")
            .arg(name, QLocale().toString(copy.written, QLocale::ShortFormat));
    if (!m_waiting.empty())
        text += QLatin1Char(' ') + tr("(copies waiting after this one: %1)").arg(m_waiting.size());
    m_messages.showMessage(
        QStringLiteral("recovery"), MessageBar::Level::Warning, text,
        {{tr("Restore"), [this, copy] { m_restore(copy); }}, {tr("Discard"), [this, copy] {
                                                                  m_store.remove(copy);
                                                                  offerNext();
                                                              }}});
}

void RecoveryOffers::offerAgain(const RecoveryStore::LeftCopy& copy)
{
    m_waiting.push_front(copy);
    offerNext();
}

void RecoveryOffers::restoreFailed(const RecoveryStore::LeftCopy& copy, const QString& why)
{
    std::vector<MessageBar::Action> next;
    if (!m_waiting.empty())
        next.push_back({tr("Next Copy"), [this] { offerNext(); }});
    m_messages.showMessage(QStringLiteral("recovery"), MessageBar::Level::Error,
                           tr("Could not restore: %1. The copy is kept at %2.")
                               .arg(why, QDir::toNativeSeparators(copy.path)),
                           std::move(next));
}

} // namespace attn::ui
