#include "input_panel.h"

#include "token_chips.h"

#include "core/error.h"
#include "core/limits.h"

#include <QCheckBox>
#include <QComboBox>
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

InputPanel::InputPanel(SceneDocument& document, QWidget* parent) : QWidget(parent), m_document(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    m_mode = new QComboBox(this);
    m_mode->setObjectName(QStringLiteral("modeCombo"));
    m_mode->addItem(tr("Self-attention: one sentence"));
    m_mode->addItem(tr("Cross-attention: source and target"));
    m_mode->setToolTip(tr("Cross-attention takes queries from the target sentence and keys and values from the "
                          "source, as a translation model's decoder does (seed 001)."));
    layout->addWidget(m_mode);

    m_textLabel = new QLabel(this);
    layout->addWidget(m_textLabel);
    m_text = makeEditor(QStringLiteral("textEdit"), tr("Type a sentence…"), this);
    m_textLabel->setBuddy(m_text);
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
    m_tokenizer = new QComboBox(this);
    m_tokenizer->setObjectName(QStringLiteral("tokenizerCombo"));
    m_tokenizer->addItem(tr("Words"), int(core::TokenizerMode::Word));
    m_tokenizer->addItem(tr("Characters"), int(core::TokenizerMode::Character));
    m_tokenizer->addItem(tr("White space"), int(core::TokenizerMode::Whitespace));
    m_tokenizer->setToolTip(tr("Words: Unicode word boundaries, punctuation split off. Characters: one token per "
                               "character. White space: split on spaces only."));
    m_lowercase = new QCheckBox(tr("Lowercase"), this);
    auto* tokenizerRow = new QHBoxLayout;
    tokenizerRow->addWidget(m_tokenizer, 1);
    tokenizerRow->addWidget(m_lowercase);
    auto* tokensLabel = new QLabel(tr("&Tokens:"), this);
    tokensLabel->setBuddy(m_tokenizer); // a row of two widgets gets no buddy of its own
    form->addRow(tokensLabel, tokenizerRow);
    m_special = new QComboBox(this);
    m_special->addItem(tr("None"), int(core::SpecialTokens::None));
    m_special->addItem(QStringLiteral("[CLS] … [SEP]"), int(core::SpecialTokens::Bert));
    m_special->addItem(QStringLiteral("<s> … </s>"), int(core::SpecialTokens::Sentence));
    form->addRow(tr("S&pecial:"), m_special);
    m_paddingToken = new QLineEdit(this);
    m_paddingToken->setPlaceholderText(tr("none, e.g. [PAD]"));
    m_paddingToken->setToolTip(tr("Tokens with exactly this text are padding keys. Clicking a key chip marks "
                                  "single positions as padding."));
    form->addRow(tr("Pa&dding token:"), m_paddingToken);
    layout->addLayout(form);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("tokenSummary"));
    m_summary->setWordWrap(true);
    m_summary->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_summary);

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
            m_document.setPadding(m_paddingToken->text().trimmed(), m_document.scene().paddingPositions);
    });
    connect(m_keyChips, &TokenChips::paddingToggled, this, &InputPanel::onPaddingToggled);
    connect(m_queryChips, &TokenChips::paddingToggled, this, [this](int index) {
        if (m_document.scene().source)
            emit message(tr("Padding masks keys: in cross-attention, mark padding on the source sentence."));
        else
            onPaddingToggled(index);
    });
    connect(&m_document, &SceneDocument::sceneChanged, this, &InputPanel::syncFromScene);
    syncFromScene(SceneChange::All);
}

void InputPanel::syncFromScene(SceneChanges what)
{
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
            m_tokenError = QString::fromUtf8(what) + QStringLiteral(": ") + QString::fromUtf8(error.what());
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
        m_queryChips->setTokens(m_queryTokens, std::vector<bool>(m_queryTokens.size(), false), m_queryFallback);
        m_keyChips->setTokens(m_keyTokens, padding, m_keyFallback);
    } else {
        m_queryChips->setTokens(m_queryTokens, padding, m_queryFallback);
    }
    const QLocale locale;
    QString summary;
    if (!m_tokenError.isEmpty())
        summary = m_tokenError;
    else if (cross)
        summary = tr("%1 target × %2 source tokens").arg(locale.toString(qlonglong(m_queryTokens.size())),
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
    m_document.setSource(cross ? std::optional<QString>(m_source->toPlainText().isEmpty() ? m_document.scene().text
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
    if (!scene.paddingToken.isEmpty() && m_keyTokens[std::size_t(index)].text == scene.paddingToken) {
        emit message(tr("“%1” is padding because it is the padding token; clear the padding token to unmark it.")
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
