#include "ui/explorer/weights_panel.h"

#include "ui/widgets/matrix_editor.h"

#include "core/error.h"
#include "core/matrix_io.h"
#include "core/scene_layers.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace attn::ui {

namespace {

QString explanation(WeightKind kind)
{
    switch (kind) {
    case WeightKind::Wq:
        return QObject::tr("Q = X W^q: a row per input dimension, a column per query dimension.");
    case WeightKind::Wk:
        return QObject::tr("K = X W^k: a row per input dimension, a column per key dimension.");
    case WeightKind::Wv:
        return QObject::tr("V = X W^v: a row per input dimension, a column per value dimension.");
    case WeightKind::Additive:
        return QObject::tr(
            "w of the additive score wᵀ tanh(q + k); used when the score is Additive.");
    case WeightKind::Bilinear:
        return QObject::tr("M of the bilinear score qᵀ M k; used when the score is Bilinear. M = I "
                           "is the dot product.");
    case WeightKind::Wo:
        return QObject::tr(
            "Output = concat(head₁ … head_h) W^O: a row per value dimension of each head.");
    case WeightKind::Embedding:
        return QObject::tr(
            "A row per distinct token. Editing keeps these vectors in the scene as a table; "
            "tokens typed later get hashed vectors.");
    case WeightKind::Positional:
        return QObject::tr("A row per position, added to the embeddings. Editing keeps them in the "
                           "scene as a table.");
    case WeightKind::W1:
    case WeightKind::B1:
        return QObject::tr("The block's feed-forward layer, first half: max(0, H W_1 + b_1), a "
                           "row of W_1 per model dimension, a column per hidden unit.");
    case WeightKind::W2:
    case WeightKind::B2:
        return QObject::tr("The block's feed-forward layer, second half: (…) W_2 + b_2, a row of "
                           "W_2 per hidden unit, a column per model dimension.");
    }
    return {};
}

} // namespace

WeightsPanel::WeightsPanel(SceneDocument& document, QWidget* parent)
    : QWidget(parent), m_document(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* row = new QHBoxLayout;
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("weightKindCombo"));
    m_kind->setToolTip(tr("The projection matrix shown and edited below"));
    const std::pair<WeightKind, QString> kinds[] = {
        {WeightKind::Wq, QStringLiteral("W^q")},
        {WeightKind::Wk, QStringLiteral("W^k")},
        {WeightKind::Wv, QStringLiteral("W^v")},
        {WeightKind::Wo, QStringLiteral("W^O")},
        {WeightKind::Additive, tr("w (additive)")},
        {WeightKind::Bilinear, tr("M (bilinear)")},
        {WeightKind::Embedding, tr("Embeddings")},
        {WeightKind::Positional, tr("Positions")},
        {WeightKind::W1, QStringLiteral("W_1 (FFN)")},
        {WeightKind::B1, QStringLiteral("b_1 (FFN)")},
        {WeightKind::W2, QStringLiteral("W_2 (FFN)")},
        {WeightKind::B2, QStringLiteral("b_2 (FFN)")},
    };
    for (const auto& [kind, name] : kinds)
        m_kind->addItem(name, int(kind));
    m_layer = new QComboBox(this);
    m_layer->setObjectName(QStringLiteral("weightLayerCombo"));
    m_layer->setToolTip(tr("The stacked block whose matrix is shown and edited below"));
    m_head = new QComboBox(this);
    m_head->setObjectName(QStringLiteral("weightHeadCombo"));
    m_head->setToolTip(tr("The head whose matrix is shown and edited below"));
    for (QComboBox* combo :
         {m_kind, m_layer, m_head}) { // narrow docks (a projector): the lists show whole names
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(5);
    }
    row->addWidget(m_kind, 1);
    row->addWidget(m_layer, 1);
    row->addWidget(m_head, 1);
    layout->addLayout(row);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_note);
    m_editor = new MatrixEditor(this);
    m_editor->setObjectName(QStringLiteral("matrixEditor"));
    layout->addWidget(m_editor, 1);

    m_refreshLater.setSingleShot(true);
    m_refreshLater.setInterval(150);
    connect(&m_refreshLater, &QTimer::timeout, this, &WeightsPanel::refresh);
    connect(m_kind, &QComboBox::activated, this, &WeightsPanel::onSelection);
    connect(m_head, &QComboBox::activated, this, &WeightsPanel::onSelection);
    connect(m_layer, &QComboBox::activated, this, &WeightsPanel::onSelection);
    connect(m_editor, &MatrixEditor::scrubStarted, this,
            [this] { m_scrubGesture = m_document.beginGesture(); });
    connect(m_editor, &MatrixEditor::cellChanging, this, &WeightsPanel::applyCell);
    connect(m_editor, &MatrixEditor::scrubFinished, this, [this] {
        m_document.endGesture(m_scrubGesture);
        m_scrubGesture = 0;
    });
    connect(m_editor, &MatrixEditor::cellEdited, this, &WeightsPanel::applyCell);
    connect(m_editor, &MatrixEditor::matrixReplaced, this,
            [this](const core::Matrix& matrix, const QString& what) {
                try {
                    m_document.setWeightMatrix(m_ref, matrix, what);
                } catch (const core::Error& error) {
                    emit message(QString::fromUtf8(error.what()));
                    refresh();
                }
            });
    connect(m_editor, &MatrixEditor::errorOccurred, this, &WeightsPanel::message);
    connect(&m_document, &SceneDocument::sceneChanged, this, &WeightsPanel::syncFromScene);
    syncFromScene(SceneChange::All);
}

void WeightsPanel::setCurrent(WeightRef ref)
{
    m_ref = ref;
    syncFromScene(SceneChange::Weights);
    m_editor->setSeed(m_document.scene().seed);
}

void WeightsPanel::onSelection()
{
    if (m_syncing)
        return;
    setCurrent({WeightKind(m_kind->currentData().toInt()), std::max(0, m_head->currentIndex()),
                std::max(0, m_layer->currentIndex())});
}

void WeightsPanel::syncFromScene(SceneChanges what)
{
    const core::Scene& scene = m_document.scene();
    if (what & SceneChange::Weights) {
        m_syncing = true;
        const int heads = scene.weights.headCount();
        if (m_head->count() != heads) {
            m_head->clear();
            for (int h = 0; h < heads; ++h)
                m_head->addItem(tr("head %1").arg(h + 1));
        }
        m_ref.head = std::clamp(m_ref.head, 0, std::max(0, heads - 1));
        m_head->setCurrentIndex(m_ref.head);
        m_head->setEnabled(m_ref.perHead());
        // Blocks of a stacked scene; embeddings and positions belong to none.
        const int layers = core::layerCount(scene);
        if (m_layer->count() != layers) {
            m_layer->clear();
            for (int l = 0; l < layers; ++l)
                m_layer->addItem(tr("layer %1").arg(l + 1));
        }
        if (m_ref.kind == WeightKind::Embedding || m_ref.kind == WeightKind::Positional)
            m_ref.layer = 0;
        m_ref.layer = std::clamp(m_ref.layer, 0, layers - 1);
        m_layer->setCurrentIndex(m_ref.layer);
        m_layer->setVisible(layers > 1);
        m_layer->setEnabled(m_ref.kind != WeightKind::Embedding &&
                            m_ref.kind != WeightKind::Positional);
        m_kind->setCurrentIndex(m_kind->findData(int(m_ref.kind)));
        m_syncing = false;
        if (what.toInt() == int(SceneChange::All))
            m_editor->setSeed(scene.seed);
        refresh();
    } else if ((what & SceneChange::Text) &&
               (m_ref.kind == WeightKind::Embedding || m_ref.kind == WeightKind::Positional)) {
        m_refreshLater.start();
    }
}

void WeightsPanel::refresh()
{
    m_note->setText(explanation(m_ref.kind));
    m_editor->setTitle(weightTitle(m_ref));
    try {
        const WeightView view = weightView(m_document.scene(), m_ref);
        m_editor->setMatrix(view.matrix, view.rowLabels, view.columnLabels);
        m_editor->setEnabled(true);
    } catch (const core::Error& error) {
        m_note->setText(QString::fromUtf8(error.what()));
        m_editor->setEnabled(false);
    }
}

void WeightsPanel::applyCell(int row, int column, float value)
{
    try {
        core::Matrix matrix = weightView(m_document.scene(), m_ref).matrix;
        if (row < 0 || column < 0 || row >= matrix.rows() || column >= matrix.cols())
            return;
        matrix(row, column) = value;
        m_document.setWeightMatrix(m_ref, matrix);
    } catch (const core::Error& error) {
        emit message(QString::fromUtf8(error.what()));
    }
}

bool WeightsPanel::importFile(const QString& path)
{
    try {
        const core::Matrix matrix = core::readMatrixFile(path);
        m_document.setWeightMatrix(
            m_ref, matrix,
            tr("Import %1 into %2").arg(QFileInfo(path).fileName(), weightTitle(m_ref)));
        return true;
    } catch (const core::Error& error) {
        emit message(QString::fromUtf8(error.what()));
    }
    return false;
}

} // namespace attn::ui
