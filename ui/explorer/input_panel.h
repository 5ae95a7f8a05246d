#pragma once

#include "ui/document/scene_document.h"

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

// The sentences and how they become tokens and vectors: self- or cross-attention, the text
// editors with their token chips (a key chip toggles padding), the tokenizer mode, lowercase,
// special tokens, the padding token, the embedding and the positional encoding. Tokenizing is
// cheap, so chips follow every keystroke; the attention is computed elsewhere, off the UI
// thread. Words the embedding does not know get hashed vectors, and a note says which.
class InputPanel : public QWidget
{
    Q_OBJECT

public:
    explicit InputPanel(SceneDocument& document, QWidget* parent = nullptr);

    const std::vector<core::Token>& queryTokens() const { return m_queryTokens; }
    const std::vector<core::Token>& keyTokens() const { return m_keyTokens; }
    // Marks tokens whose one-hot, table or word-vector lookup missed (from the latest
    // result) and says so in the fallback note.
    void setFallback(const std::vector<bool>& queries, const std::vector<bool>& keys);
    // Embedding > Word vectors: reads a GloVe or word2vec text file and uses it; on failure
    // says why (error) and keeps the embedding.
    bool useWordVectorFile(const QString& path);

    QPlainTextEdit* textEdit() const { return m_text; }
    QPlainTextEdit* sourceEdit() const { return m_source; }
    TokenChips* queryChips() const { return m_queryChips; }
    TokenChips* keyChips() const { return m_keyChips; }
    QComboBox* modeCombo() const { return m_mode; }
    QComboBox* embeddingCombo() const { return m_embedding; }
    QComboBox* positionalCombo() const { return m_positional; }
    QLineEdit* paddingTokenEdit() const { return m_paddingToken; }
    QLabel* fallbackNote() const { return m_fallbackNote; }

signals:
    // After the tokens changed (text, source or tokenizer).
    void tokensChanged();
    void message(const QString& text);
    void error(const QString& text);

private:
    void syncFromScene(SceneChanges what);
    void retokenize();
    void updateChips();
    void onTextEdited();
    void onSourceEdited();
    void onModeChanged();
    void onTokenizerChanged();
    void onPaddingToggled(int index);
    void onEmbeddingChosen();
    void onPositionalChosen();
    void syncVectors();
    void updateFallbackNote();
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
    QComboBox* m_embedding = nullptr;
    QComboBox* m_positional = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_fallbackNote = nullptr;
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
