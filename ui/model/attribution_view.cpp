#include "ui/model/attribution_view.h"

#include "ui/model/lens_view.h"
#include "ui/model/matrix_panels_view.h"
#include "ui/model/model_figures.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include <numeric>

namespace attn::ui {

AttributionView::AttributionView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    auto* row = new QHBoxLayout;
    auto* tokenLabel = new QLabel(tr("Logit of to&ken:"), this);
    m_token = new QLineEdit(this);
    m_token->setObjectName(QStringLiteral("attributionToken"));
    m_token->setPlaceholderText(tr("the model's prediction"));
    m_token->setToolTip(tr("The token whose logit is split into each part's share: empty for the "
                           "model's prediction, or one token of the vocabulary"));
    tokenLabel->setBuddy(m_token);
    row->addWidget(tokenLabel);
    row->addWidget(m_token, 1);
    layout->addLayout(row);
    m_terms = new QLabel(this);
    m_terms->setObjectName(QStringLiteral("attributionTerms"));
    m_terms->setWordWrap(true);
    m_terms->setMinimumWidth(1);
    m_terms->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_terms);
    m_panels = new MatrixPanelsView(this);
    m_panels->setObjectName(QStringLiteral("attributionPanels"));
    layout->addWidget(m_panels, 1);
    connect(m_token, &QLineEdit::editingFinished, this, [this] {
        if (m_token->isModified()) {
            m_token->setModified(false);
            compute();
        }
    });
    connect(m_panels, &MatrixPanelsView::cellClicked, this,
            [this](int, int row, int column) { emit headClicked(row, column); });
    m_panels->setMessage(tr("No model open"));
}

void AttributionView::setSource(std::shared_ptr<const core::ModelResult> result)
{
    if (result && m_source && result->model != m_source->model)
        m_token->clear();
    m_source = std::move(result);
    if (!m_source) {
        m_attribution.reset();
        m_attributionFor.reset();
        m_terms->clear();
        m_panels->setMessage(tr("No model open"));
        return;
    }
    if (isVisible())
        compute();
}

void AttributionView::setSelection(int layer, int head)
{
    m_layer = layer;
    m_head = head;
    if (m_attribution && m_attributionFor == m_source)
        showAttribution();
}

void AttributionView::setFigureStyle(const FigureStyle& style)
{
    m_panels->setFigureStyle(style);
}

std::optional<core::LogitAttribution> AttributionView::attribution() const
{
    return m_attributionFor && m_attributionFor == m_source ? m_attribution : std::nullopt;
}

void AttributionView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_source && m_attributionFor != m_source)
        compute();
}

void AttributionView::compute()
{
    if (!m_source)
        return;
    QString error;
    const std::optional<int> token = typedToken(*m_source->model, m_token->text(), &error);
    if (!error.isEmpty()) {
        m_terms->setText(error);
        emit errorShown(error);
        return;
    }
    emit errorCleared();
    m_attributionFor = m_source;
    try {
        m_attribution = core::logitAttribution(*m_source, token.value_or(-1));
    } catch (const std::exception& e) {
        // A post-norm model (BERT), no language-model head: the figure's place says why.
        m_attribution.reset();
        m_terms->clear();
        m_panels->setMessage(QString::fromUtf8(e.what()));
        return;
    }
    showAttribution();
}

void AttributionView::showAttribution()
{
    const core::LogitAttribution& a = *m_attribution;
    const auto sum = [](const std::vector<double>& values) {
        return std::accumulate(values.begin(), values.end(), 0.0);
    };
    const auto number = [](double value) { return QString::number(value, 'f', 2); };
    m_terms->setText(
        tr("Logit %1 at position %2 = heads %3 + attention biases %4 + feed-forward %5 + "
           "embeddings %6 + final bias %7 (norm scale frozen at %8). Click a head to open it.")
            .arg(number(double(a.logit)))
            .arg(a.position + 1)
            .arg(number(double(a.heads.cast<double>().sum())), number(sum(a.attentionBias)),
                 number(sum(a.feedForward)), number(a.embedding), number(a.bias))
            .arg(a.scale, 0, 'g', 3));
    ModelFigureSource source;
    source.result = m_attributionFor;
    source.attribution = a;
    m_panels->setPanels({attributionPanel(a, m_layer, m_head)},
                        defaultModelFigureTitle(ModelFigure::Attribution, source));
}

} // namespace attn::ui
