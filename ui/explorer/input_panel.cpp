#include "ui/explorer/input_panel.h"

#include "ui/explorer/token_chips.h"
#include "ui/widgets/embedding_options.h"

#include "core/error.h"
#include "core/fallback_words.h"
#include "core/limits.h"
#include "core/word_vectors.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QVBoxLayout>
#include <algorithm>

namespace attn::ui {

namespace {

QPlainTextEdit* makeEditor(const QString& name, const QString& placeholder, QWidget* parent)
{
    auto* edit = new QPlainTextEdit(parent);
    edit->setObjectName(name);
    edit->setPlaceholderText(placeholder);
    edit->setTabChangesFocus(true);
    // About three lines; a pasted essay scrolls inside.
    const int line = edit->fontMetrics().lineSpacing();
    edit->setFixedHeight(line * 3 + 2 * edit->frameWidth() + 10);
    return edit;
}

void setTextKeepingCursor(QPlainTextEdit* edit, const QString& text)
{
    if (edit->toPlainText() == text)
        return;
    const int position = edit->textCursor().position();
    edit->setPlainText(text);
    QTextCursor cursor = edit->textCursor();
    cursor.setPosition(std::min(position, int(text.size())));
    edit->setTextCursor(cursor);
}

} // namespace

InputPanel::InputPanel(SceneDocument& document, QWidget* parent)
    : QWidget(parent), m_document(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    m_mode = new QComboBox(this);
    m_mode->setObjectName(QStringLiteral("modeCombo"));
    // Narrow combos (the list shows whole names): the panel must fit a projector.
    m_mode->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_mode->setMinimumContentsLength(12);
    m_mode->addItem(tr("Self-attention: one sentence"));
    m_mode->addItem(tr("Cross-attention: source and target"));
    m_mode->setToolTip(
        tr("Cross-attention takes queries from the target sentence and keys and values from the "
           "source, as a translation model's decoder does (Bahdanau et al. 2015)."));
    layout->addWidget(m_mode);

    m_textLabel = new QLabel(this);
    layout->addWidget(m_textLabel);
    m_text = makeEditor(QStringLiteral("textEdit"), tr("Type a sentence…"), this);
    m_textLabel->setBuddy(m_text);
    m_text->setToolTip(
        tr("The text split into tokens: each token is a query (and a key and value)"));
    layout->addWidget(m_text);
    m_queryChips = new TokenChips(this);
    m_queryChips->setObjectName(QStringLiteral("queryChips"));
    layout->addWidget(m_queryChips);

    m_sourceLabel = new QLabel(tr("&Source (keys and values)"), this);
    layout->addWidget(m_sourceLabel);
    m_source = makeEditor(QStringLiteral("sourceEdit"), tr("Type the source sentence…"), this);
    m_sourceLabel->setBuddy(m_source);
    layout->addWidget(m_source);
    m_keyChips = new TokenChips(this);
    m_keyChips->setObjectName(QStringLiteral("keyChips"));
    layout->addWidget(m_keyChips);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(
        QFormLayout::WrapLongRows); // a field goes under its label in a narrow panel
    m_tokenizer = new QComboBox(this);
    m_tokenizer->setObjectName(QStringLiteral("tokenizerCombo"));
    m_tokenizer->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_tokenizer->setMinimumContentsLength(6);
    m_tokenizer->addItem(tr("Words"), int(core::TokenizerMode::Word));
    m_tokenizer->addItem(tr("Characters"), int(core::TokenizerMode::Character));
    m_tokenizer->addItem(tr("White space"), int(core::TokenizerMode::Whitespace));
    m_tokenizer->setToolTip(
        tr("Words: Unicode word boundaries, punctuation split off. Characters: one token per "
           "character. White space: split on spaces only."));
    m_lowercase = new QCheckBox(tr("Lowercase"), this);
    m_lowercase->setToolTip(
        tr("Lowercase the text before it is split, so \"The\" and \"the\" are one token"));
    auto* tokenizerRow = new QHBoxLayout;
    tokenizerRow->addWidget(m_tokenizer, 1);
    tokenizerRow->addWidget(m_lowercase);
    auto* tokensLabel = new QLabel(tr("&Tokens:"), this);
    tokensLabel->setBuddy(m_tokenizer); // a row of two widgets gets no buddy of its own
    form->addRow(tokensLabel, tokenizerRow);
    m_special = new QComboBox(this);
    m_special->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_special->setMinimumContentsLength(8);
    m_special->addItem(tr("None"), int(core::SpecialTokens::None));
    m_special->addItem(QStringLiteral("[CLS] … [SEP]"), int(core::SpecialTokens::Bert));
    m_special->addItem(QStringLiteral("<s> … </s>"), int(core::SpecialTokens::Sentence));
    m_special->setToolTip(tr("Tokens added around the sentence, as BERT adds [CLS] and [SEP]"));
    form->addRow(tr("S&pecial:"), m_special);
    m_paddingToken = new QLineEdit(this);
    m_paddingToken->setPlaceholderText(tr("none, e.g. [PAD]"));
    m_paddingToken->setToolTip(
        tr("Tokens with exactly this text are padding keys. Clicking a key chip marks "
           "single positions as padding."));
    form->addRow(tr("Pa&dding token:"), m_paddingToken);

    // How tokens become vectors (seed 001's one-hot words, hashed vectors, a table, a file)
    // and what is added for their positions.
    m_embedding = new QComboBox(this);
    m_embedding->setObjectName(QStringLiteral("embeddingCombo"));
    m_embedding->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_embedding->setMinimumContentsLength(8);
    for (const auto& [kind, label] :
         {std::pair{core::EmbeddingKind::Hashed, tr("Hashed")},
          std::pair{core::EmbeddingKind::OneHot, tr("One-hot")},
          std::pair{core::EmbeddingKind::Table, tr("Table (editable)")},
          std::pair{core::EmbeddingKind::WordVectors, tr("Word-vector file…")}}) {
        m_embedding->addItem(label, int(kind));
        m_embedding->setItemData(m_embedding->count() - 1, embeddingKindToolTip(kind),
                                 Qt::ToolTipRole);
    }
    form->addRow(tr("&Embedding:"), m_embedding);
    m_positional = new QComboBox(this);
    m_positional->setObjectName(QStringLiteral("positionalCombo"));
    m_positional->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_positional->setMinimumContentsLength(8);
    for (const auto& [kind, label] :
         {std::pair{core::PositionalKind::None, tr("None")},
          std::pair{core::PositionalKind::Sinusoidal, tr("Sinusoidal")},
          std::pair{core::PositionalKind::Table, tr("Table (editable)")}}) {
        m_positional->addItem(label, int(kind));
        m_positional->setItemData(m_positional->count() - 1, positionalKindToolTip(kind),
                                  Qt::ToolTipRole);
    }
    form->addRow(tr("P&ositions:"), m_positional);
    layout->addLayout(form);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("tokenSummary"));
    m_summary->setWordWrap(true);
    m_summary->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_summary);
    m_fallbackNote = new QLabel(this);
    m_fallbackNote->setObjectName(QStringLiteral("fallbackNote"));
    m_fallbackNote->setWordWrap(true);
    m_fallbackNote->hide();
    layout->addWidget(m_fallbackNote);

    m_typingPause.setSingleShot(true);
    m_typingPause.setInterval(1000);
    connect(&m_typingPause, &QTimer::timeout, this, [this] {
        m_document.endGesture(m_typingGesture);
        m_typingGesture = 0;
    });

    connect(m_text, &QPlainTextEdit::textChanged, this, &InputPanel::onTextEdited);
    connect(m_source, &QPlainTextEdit::textChanged, this, &InputPanel::onSourceEdited);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &InputPanel::onModeChanged);
    connect(m_tokenizer, &QComboBox::currentIndexChanged, this, &InputPanel::onTokenizerChanged);
    connect(m_special, &QComboBox::currentIndexChanged, this, &InputPanel::onTokenizerChanged);
    connect(m_lowercase, &QCheckBox::toggled, this, &InputPanel::onTokenizerChanged);
    connect(m_paddingToken, &QLineEdit::editingFinished, this, [this] {
        if (!m_syncing)
            m_document.setPadding(m_paddingToken->text().trimmed(),
                                  m_document.scene().paddingPositions);
    });
    connect(m_embedding, &QComboBox::activated, this, &InputPanel::onEmbeddingChosen);
    connect(m_positional, &QComboBox::activated, this, &InputPanel::onPositionalChosen);
    connect(m_keyChips, &TokenChips::paddingToggled, this, &InputPanel::onPaddingToggled);
    connect(m_queryChips, &TokenChips::paddingToggled, this, [this](int index) {
        if (m_document.scene().source)
            emit message(
                tr("Padding masks keys: in cross-attention, mark padding on the source sentence."));
        else
            onPaddingToggled(index);
    });
    connect(&m_document, &SceneDocument::sceneChanged, this, &InputPanel::syncFromScene);
    syncFromScene(SceneChange::All);
}

void InputPanel::syncFromScene(SceneChanges what)
{
    if (what & (SceneChange::Weights | SceneChange::Text))
        syncVectors();
    if (!(what & SceneChange::Text))
        return;
    const core::Scene& scene = m_document.scene();
    m_syncing = true;
    const bool cross = scene.source.has_value();
    m_mode->setCurrentIndex(cross ? 1 : 0);
    m_textLabel->setText(cross ? tr("T&arget (queries)") : tr("Se&ntence"));
    setTextKeepingCursor(m_text, scene.text);
    setTextKeepingCursor(m_source, scene.source.value_or(QString()));
    m_sourceLabel->setVisible(cross);
    m_source->setVisible(cross);
    m_keyChips->setVisible(cross);
    m_tokenizer->setCurrentIndex(m_tokenizer->findData(int(scene.tokenizer.mode)));
    m_special->setCurrentIndex(m_special->findData(int(scene.tokenizer.special)));
    m_lowercase->setChecked(scene.tokenizer.lowercase);
    if (!m_paddingToken->hasFocus())
        m_paddingToken->setText(scene.paddingToken);
    m_syncing = false;
    retokenize();
}

void InputPanel::retokenize()
{
    const core::Scene& scene = m_document.scene();
    m_tokenError.clear();
    auto run = [&](const QString& text, const char* what) {
        try {
            return core::tokenize(text, scene.tokenizer, core::kMaxTokens);
        } catch (const core::Error& error) {
            m_tokenError =
                QString::fromUtf8(what) + QStringLiteral(": ") + QString::fromUtf8(error.what());
        }
        return std::vector<core::Token>{};
    };
    const std::size_t oldQueries = m_queryTokens.size();
    const std::size_t oldKeys = m_keyTokens.size();
    m_queryTokens = run(scene.text, scene.source ? "target" : "sentence");
    m_keyTokens = scene.source ? run(*scene.source, "source") : m_queryTokens;
    // Fallback flags belong to the tokens they were computed for.
    if (m_queryTokens.size() != oldQueries)
        m_queryFallback.clear();
    if (m_keyTokens.size() != oldKeys)
        m_keyFallback.clear();
    updateChips();
    updateFallbackNote();
    emit tokensChanged();
}

std::vector<bool> InputPanel::paddingFlags() const
{
    // As resolveProblem flags keys: the padding token's text, or a position marked by hand.
    const core::Scene& scene = m_document.scene();
    std::vector<bool> padding(m_keyTokens.size(), false);
    for (std::size_t j = 0; j < m_keyTokens.size(); ++j)
        padding[j] = !scene.paddingToken.isEmpty() && m_keyTokens[j].text == scene.paddingToken;
    for (int j : scene.paddingPositions)
        if (j >= 0 && j < int(padding.size()))
            padding[std::size_t(j)] = true;
    return padding;
}

void InputPanel::updateChips()
{
    const bool cross = m_document.scene().source.has_value();
    const std::vector<bool> padding = paddingFlags();
    if (cross) {
        m_queryChips->setTokens(m_queryTokens, std::vector<bool>(m_queryTokens.size(), false),
                                m_queryFallback);
        m_keyChips->setTokens(m_keyTokens, padding, m_keyFallback);
    } else {
        m_queryChips->setTokens(m_queryTokens, padding, m_queryFallback);
    }
    const QLocale locale;
    QString summary;
    if (!m_tokenError.isEmpty())
        summary = m_tokenError;
    else if (cross)
        summary = tr("%1 target × %2 source tokens")
                      .arg(locale.toString(qlonglong(m_queryTokens.size())),
                           locale.toString(qlonglong(m_keyTokens.size())));
    else
        summary = tr("%1 tokens").arg(locale.toString(qlonglong(m_queryTokens.size())));
    const auto padded = std::count(padding.begin(), padding.end(), true);
    if (padded > 0)
        summary += tr(" · %1 padding").arg(padded);
    summary += tr(" · click a %1chip to mark it as padding").arg(cross ? tr("source ") : QString());
    m_summary->setText(summary);
}

void InputPanel::setFallback(const std::vector<bool>& queries, const std::vector<bool>& keys)
{
    if (queries == m_queryFallback && keys == m_keyFallback)
        return;
    m_queryFallback = queries.size() == m_queryTokens.size() ? queries : std::vector<bool>{};
    m_keyFallback = keys.size() == m_keyTokens.size() ? keys : std::vector<bool>{};
    updateChips();
    updateFallbackNote();
}

// The embedding and positions as the scene has them.
void InputPanel::syncVectors()
{
    const core::Scene& scene = m_document.scene();
    const bool was = m_syncing;
    m_syncing = true;
    m_embedding->setCurrentIndex(m_embedding->findData(int(scene.embedding.kind)));
    const int file = m_embedding->findData(int(core::EmbeddingKind::WordVectors));
    m_embedding->setItemText(
        file, scene.embedding.kind == core::EmbeddingKind::WordVectors &&
                      !scene.embedding.wordVectorPath.isEmpty()
                  ? tr("Word vectors: %1").arg(QFileInfo(scene.embedding.wordVectorPath).fileName())
                  : tr("Word-vector file…"));
    m_embedding->setToolTip(embeddingKindToolTip(scene.embedding.kind));
    m_positional->setCurrentIndex(m_positional->findData(int(scene.positional.kind)));
    m_positional->setToolTip(positionalKindToolTip(scene.positional.kind));
    m_syncing = was;
    updateFallbackNote();
}

// Says which words got stand-in (hashed) vectors and why, so that a sentence the scene was
// not made for computes and the user knows what its vectors are.
void InputPanel::updateFallbackNote()
{
    const core::Scene& scene = m_document.scene();
    QStringList words;
    core::appendFallbackWords(words, m_queryTokens, m_queryFallback);
    if (scene.source)
        core::appendFallbackWords(words, m_keyTokens, m_keyFallback);
    QStringList notes;
    if (!words.isEmpty()) {
        constexpr int kListed = 6;
        QString listed = QStringList(words.mid(0, kListed)).join(QStringLiteral(", "));
        if (words.size() > kListed)
            listed += tr(" and %1 more").arg(words.size() - kListed);
        // No translations are loaded, so no %n plurals: "1 word", "11 words".
        const QString counted = words.size() == 1 ? tr("1 word") : tr("%1 words").arg(words.size());
        switch (scene.embedding.kind) {
        case core::EmbeddingKind::OneHot: {
            const int kept =
                std::min(scene.weights.dModel, int(scene.embedding.vocabulary.empty()
                                                       ? scene.weights.dModel
                                                       : scene.embedding.vocabulary.size()));
            // Choosing One-hot again gives new words the dimensions still free.
            notes << (kept < scene.weights.dModel ? tr("%1 outside the scene's one-hot vocabulary "
                                                       "of %2 words got hashed vectors, marked on "
                                                       "their chips: %3. Choose One-hot again to "
                                                       "give them the free dimensions.")
                                                  : tr("%1 outside the scene's one-hot vocabulary "
                                                       "of %2 words (one per dimension of d_model) "
                                                       "got hashed vectors, marked on their chips: "
                                                       "%3. A wider d_model gives them dimensions "
                                                       "of their own."))
                         .arg(counted)
                         .arg(kept)
                         .arg(listed);
            break;
        }
        case core::EmbeddingKind::Table:
            notes << tr("%1 not in the embedding table got hashed vectors, marked on their chips: "
                        "%2.")
                         .arg(counted, listed);
            break;
        case core::EmbeddingKind::WordVectors:
            notes << tr("%1 not in %2 got hashed vectors, marked on their chips: %3.")
                         .arg(counted, QFileInfo(scene.embedding.wordVectorPath).fileName(),
                              listed);
            break;
        case core::EmbeddingKind::Hashed:
            break;
        }
    }
    const int positions = std::max(m_queryTokens.size(), m_keyTokens.size());
    if (scene.positional.kind == core::PositionalKind::Table &&
        positions > scene.positional.table.rows())
        notes << tr("The positional table has %1 rows: positions from %1 on are sinusoidal.")
                     .arg(scene.positional.table.rows());
    m_fallbackNote->setText(QStringLiteral("⚠ ") + notes.join(QLatin1Char(' ')));
    m_fallbackNote->setVisible(!notes.isEmpty());
}

void InputPanel::onEmbeddingChosen()
{
    if (m_syncing)
        return;
    const core::Scene& scene = m_document.scene();
    const auto kind = core::EmbeddingKind(m_embedding->currentData().toInt());
    try {
        switch (kind) {
        case core::EmbeddingKind::WordVectors: {
            const QString start = scene.embedding.wordVectorPath.isEmpty()
                                      ? QDir::homePath()
                                      : QFileInfo(scene.embedding.wordVectorPath).absolutePath();
            const QString path = QFileDialog::getOpenFileName(
                this, tr("Word Vectors"), start,
                tr("GloVe or word2vec text (*.txt *.vec);;All files (*)"));
            if (!path.isEmpty())
                useWordVectorFile(path);
            break;
        }
        case core::EmbeddingKind::Table:
            // Exactly the vectors in use now, kept in the scene (as editing one does).
            if (scene.embedding.kind != core::EmbeddingKind::Table)
                m_document.setWeightMatrix(
                    {WeightKind::Embedding, 0},
                    weightView(scene, {WeightKind::Embedding, 0}).matrix,
                    tr("Change embedding to %1").arg(embeddingKindLabel(kind)));
            break;
        case core::EmbeddingKind::Hashed:
        case core::EmbeddingKind::OneHot: {
            core::Scene changed;
            changed.text = scene.text;
            changed.source = scene.source;
            changed.tokenizer = scene.tokenizer;
            changed.weights.dModel = scene.weights.dModel;
            changed.embedding = scene.embedding;
            changed.embedding.kind = kind;
            core::fitOneHotVocabulary(changed); // the words typed now get the dimensions
            m_document.setEmbedding(changed.embedding);
            break;
        }
        }
    } catch (const core::Error& e) {
        emit error(tr("Embedding: %1").arg(QString::fromUtf8(e.what())));
    }
    syncVectors(); // a cancelled dialog or a refused choice shows the embedding in use
}

bool InputPanel::useWordVectorFile(const QString& path)
{
    const int dModel = m_document.scene().weights.dModel;
    std::shared_ptr<const core::WordVectors> vectors;
    try {
        vectors = std::make_shared<const core::WordVectors>(core::WordVectors::load(path));
    } catch (const core::Error& e) {
        emit error(tr("Embedding: %1").arg(QString::fromUtf8(e.what())));
        syncVectors();
        return false;
    }
    if (vectors->dimension() != dModel) {
        emit error(tr("Embedding: %1 has %2-dimensional vectors and d_model is %3; set d_model to "
                      "%2 first.")
                       .arg(QFileInfo(path).fileName())
                       .arg(vectors->dimension())
                       .arg(dModel));
        syncVectors();
        return false;
    }
    core::EmbeddingSettings embedding = m_document.scene().embedding;
    embedding.kind = core::EmbeddingKind::WordVectors;
    embedding.wordVectorPath = QFileInfo(path).absoluteFilePath();
    embedding.wordVectors = std::move(vectors);
    m_document.setEmbedding(embedding,
                            tr("Use word vectors from %1").arg(QFileInfo(path).fileName()));
    return true;
}

void InputPanel::onPositionalChosen()
{
    if (m_syncing)
        return;
    const core::Scene& scene = m_document.scene();
    const auto kind = core::PositionalKind(m_positional->currentData().toInt());
    try {
        if (kind == core::PositionalKind::Table) {
            if (scene.positional.kind != core::PositionalKind::Table)
                m_document.setWeightMatrix(
                    {WeightKind::Positional, 0},
                    weightView(scene, {WeightKind::Positional, 0}).matrix,
                    tr("Change positions to %1").arg(positionalKindLabel(kind)));
        } else {
            core::PositionalSettings positional = scene.positional;
            positional.kind = kind;
            m_document.setPositional(positional);
        }
    } catch (const core::Error& e) {
        emit error(tr("Positions: %1").arg(QString::fromUtf8(e.what())));
    }
    syncVectors();
}

void InputPanel::typing()
{
    if (m_typingGesture == 0 || !m_document.inGesture())
        m_typingGesture = m_document.beginGesture();
    m_typingPause.start();
}

void InputPanel::onTextEdited()
{
    if (m_syncing)
        return;
    typing();
    m_document.setText(m_text->toPlainText());
}

void InputPanel::onSourceEdited()
{
    if (m_syncing || !m_document.scene().source)
        return;
    typing();
    m_document.setSource(m_source->toPlainText());
}

void InputPanel::onModeChanged()
{
    if (m_syncing)
        return;
    const bool cross = m_mode->currentIndex() == 1;
    if (cross == m_document.scene().source.has_value())
        return;
    // The sentence so far becomes the source; the user types the target.
    m_document.setSource(cross ? std::optional<QString>(m_source->toPlainText().isEmpty()
                                                            ? m_document.scene().text
                                                            : m_source->toPlainText())
                               : std::nullopt);
}

void InputPanel::onTokenizerChanged()
{
    if (m_syncing)
        return;
    core::TokenizerSettings settings;
    settings.mode = core::TokenizerMode(m_tokenizer->currentData().toInt());
    settings.special = core::SpecialTokens(m_special->currentData().toInt());
    settings.lowercase = m_lowercase->isChecked();
    m_document.setTokenizer(settings);
}

void InputPanel::onPaddingToggled(int index)
{
    const core::Scene& scene = m_document.scene();
    if (index < 0 || index >= int(m_keyTokens.size()))
        return;
    if (!scene.paddingToken.isEmpty() &&
        m_keyTokens[std::size_t(index)].text == scene.paddingToken) {
        emit message(tr("“%1” is padding because it is the padding token; clear the padding token "
                        "to unmark it.")
                         .arg(scene.paddingToken));
        return;
    }
    std::vector<int> positions = scene.paddingPositions;
    const auto found = std::find(positions.begin(), positions.end(), index);
    if (found != positions.end())
        positions.erase(found);
    else
        positions.insert(std::upper_bound(positions.begin(), positions.end(), index), index);
    m_document.setPadding(scene.paddingToken, positions);
}

} // namespace attn::ui
