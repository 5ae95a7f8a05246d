#pragma once

#include "scene_document.h"

#include "core/tokenizer.h"

#include <QTimer>
#include <QWidget>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace attn::ui {

class TokenChips;

// The sentences and how they become tokens: self- or cross-attention, the text editors with
// their token chips (a key chip toggles padding), the tokenizer mode, lowercase, special
// tokens and the padding token. Tokenizing is cheap, so chips follow every keystroke; the
// attention is computed elsewhere, off the UI thread.
class InputPanel : public QWidget
{
    Q_OBJECT

public:
    explicit InputPanel(SceneDocument& document, QWidget* parent = nullptr);

    const std::vector<core::Token>& queryTokens() const { return m_queryTokens; }
    const std::vector<core::Token>& keyTokens() const { return m_keyTokens; }
    // Marks tokens whose table or word-vector lookup missed (from the latest result).
    void setFallback(const std::vector<bool>& queries, const std::vector<bool>& keys);

    QPlainTextEdit* textEdit() const { return m_text; }
    QPlainTextEdit* sourceEdit() const { return m_source; }
    TokenChips* queryChips() const { return m_queryChips; }
    TokenChips* keyChips() const { return m_keyChips; }
    QComboBox* modeCombo() const { return m_mode; }
    QComboBox* tokenizerCombo() const { return m_tokenizer; }

signals:
    // After the tokens changed (text, source or tokenizer).
    void tokensChanged();
    void message(const QString& text);

private:
    void syncFromScene(SceneChanges what);
    void retokenize();
    void updateChips();
    void onTextEdited();
    void onSourceEdited();
    void onModeChanged();
    void onTokenizerChanged();
    void onPaddingToggled(int index);
    void typing();
    std::vector<bool> paddingFlags() const;

    SceneDocument& m_document;
    QComboBox* m_mode = nullptr;
    QLabel* m_textLabel = nullptr;
    QPlainTextEdit* m_text = nullptr;
    TokenChips* m_queryChips = nullptr;
    QLabel* m_sourceLabel = nullptr;
    QPlainTextEdit* m_source = nullptr;
    TokenChips* m_keyChips = nullptr;
    QComboBox* m_tokenizer = nullptr;
    QCheckBox* m_lowercase = nullptr;
    QComboBox* m_special = nullptr;
    QLineEdit* m_paddingToken = nullptr;
    QLabel* m_summary = nullptr;
    bool m_syncing = false;
    QTimer m_typingPause; // a typing burst is one undo step
    int m_typingGesture = 0;
    std::vector<core::Token> m_queryTokens;
    std::vector<core::Token> m_keyTokens;
    std::vector<bool> m_queryFallback;
    std::vector<bool> m_keyFallback;
    QString m_tokenError;
};

} // namespace attn::ui
