#pragma once

#include "ui/document/recovery_store.h"

#include <QObject>
#include <deque>
#include <functional>
#include <vector>

namespace attn::ui {

class MessageBar;

// Offers the copies crashed sessions left, one at a time in a window's message bar, newest
// first: Restore hands one to the window, Discard deletes it. Shared by the explorer's and the
// model window's crash recovery.
class RecoveryOffers : public QObject
{
    Q_OBJECT

public:
    using Restore = std::function<void(const RecoveryStore::LeftCopy& copy)>;

    RecoveryOffers(RecoveryStore& store, MessageBar& messages, Restore restore,
                   QObject* parent = nullptr);

    // Copies claimed by the store, offered after those already waiting.
    void offer(std::vector<RecoveryStore::LeftCopy> copies);
    void offerNext();
    // Offered again first (the window's own unsaved work was not given up).
    void offerAgain(const RecoveryStore::LeftCopy& copy);
    // The copy could not be restored: it stays on disk, and the others wait behind the reason.
    void restoreFailed(const RecoveryStore::LeftCopy& copy, const QString& why);

private:
    RecoveryStore& m_store;
    MessageBar& m_messages;
    Restore m_restore;
    std::deque<RecoveryStore::LeftCopy> m_waiting; // not yet offered
};

} // namespace attn::ui
