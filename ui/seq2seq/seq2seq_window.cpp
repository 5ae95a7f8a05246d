#include "ui/seq2seq/seq2seq_window.h"

#include "ui/model/matrix_panels_view.h"
#include "ui/presentation/seq2seq_presentation_window.h"
#include "ui/seq2seq/output_types_view.h"
#include "ui/seq2seq/seq2seq_figures.h"
#include "ui/seq2seq/seq2seq_train_job.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/seq2seq/seq2seq_trainer.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn::ui {
namespace {

QString quoted(const QString& word)
{
    return QStringLiteral("“%1”").arg(word);
}

} // namespace

QString Seq2SeqWindow::attentionLabel(core::Seq2SeqAttention attention)
{
    switch (attention) {
    case core::Seq2SeqAttention::None:
        return tr("no attention");
    case core::Seq2SeqAttention::Bahdanau:
        return tr("additive (Bahdanau) attention");
    case core::Seq2SeqAttention::Dot:
        return tr("Luong's dot attention");
    case core::Seq2SeqAttention::General:
        return tr("Luong's general attention");
    case core::Seq2SeqAttention::Concat:
        return tr("Luong's concat attention");
    case core::Seq2SeqAttention::Hard:
        return tr("hard (argmax) attention");
    }
    return {};
}

Seq2SeqWindow::Seq2SeqWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(tr("Sequence to Sequence — Attention Explorer"));
    setObjectName(QStringLiteral("seq2seqWindow"));
    buildControls();
    resize(1200, 800);
    refreshStep();
}

Seq2SeqWindow::~Seq2SeqWindow() = default;

void Seq2SeqWindow::buildControls()
{
    m_undo = new QUndoStack(this);
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Model Folder…"), this, &Seq2SeqWindow::chooseFolder);
    open->setShortcut(QKeySequence::Open);
    QAction* save = file->addAction(tr("&Save Model Folder…"), this, [this] {
        if (!m_model)
            return setMessage(tr("There is no model to save: open one or train one first."));
        const QString folder =
            QFileDialog::getExistingDirectory(this, tr("Save Model Into Folder"));
        if (folder.isEmpty())
            return;
        try {
            core::saveSeq2SeqModel(*m_model, folder);
            setMessage(tr("Saved the model in %1.").arg(QDir::toNativeSeparators(folder)));
        } catch (const std::exception& e) {
            setMessage(tr("The model was not saved: %1").arg(QString::fromUtf8(e.what())));
        }
    });
    save->setShortcut(QKeySequence::Save);
    QAction* exportAction =
        file->addAction(tr("&Export Figure…"), this, &Seq2SeqWindow::exportFigure);
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* presentAction = file->addAction(tr("&Present…"), this, [this] { present(); });
    presentAction->setObjectName(QStringLiteral("presentAction"));
    presentAction->setShortcut(QKeySequence(Qt::Key_F5));
    file->addSeparator();
    QAction* close = file->addAction(tr("&Close"), this, &QWidget::close);
    close->setShortcut(QKeySequence::Close);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_undo->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    edit->addAction(undo);
    QAction* redo = m_undo->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(redo);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);

    auto* modelRow = new QHBoxLayout;
    m_modelLabel = new QLabel(tr("No model yet"), central);
    QFont bold = m_modelLabel->font();
    bold.setBold(true);
    m_modelLabel->setFont(bold);
    modelRow->addWidget(m_modelLabel);
    auto* openButton = new QPushButton(tr("Open Folder…"), central);
    connect(openButton, &QPushButton::clicked, this, &Seq2SeqWindow::chooseFolder);
    modelRow->addWidget(openButton);
    modelRow->addStretch(1);
    layout->addLayout(modelRow);

    auto* sourceRow = new QHBoxLayout;
    sourceRow->addWidget(new QLabel(tr("Source"), central));
    m_source = new QLineEdit(central);
    m_source->setPlaceholderText(tr("A sentence in the model's source language"));
    connect(m_source, &QLineEdit::returnPressed, this, &Seq2SeqWindow::translate);
    sourceRow->addWidget(m_source, 1);
    sourceRow->addWidget(new QLabel(tr("beam width"), central));
    m_beam = new QSpinBox(central);
    m_beam->setRange(1, 16);
    m_beam->setToolTip(tr("1 is greedy decoding: the likeliest word at each step. Wider beams keep "
                          "that many partial translations and choose by the mean log-probability "
                          "per word."));
    connect(m_beam, &QSpinBox::valueChanged, this, &Seq2SeqWindow::translate);
    sourceRow->addWidget(m_beam);
    auto* translateButton = new QPushButton(tr("Translate"), central);
    connect(translateButton, &QPushButton::clicked, this, &Seq2SeqWindow::translate);
    sourceRow->addWidget(translateButton);
    layout->addLayout(sourceRow);

    auto* stepRow = new QHBoxLayout;
    m_back = new QPushButton(tr("◀ Back"), central);
    connect(m_back, &QPushButton::clicked, this, [this] { showSteps(m_shown - 1); });
    m_step = new QPushButton(tr("Step ▶"), central);
    connect(m_step, &QPushButton::clicked, this, [this] { showSteps(m_shown + 1); });
    m_all = new QPushButton(tr("All Steps"), central);
    connect(m_all, &QPushButton::clicked, this,
            [this] { showSteps(m_decoding ? int(m_decoding->steps.size()) : 0); });
    m_stepLabel = new QLabel(central);
    stepRow->addWidget(m_back);
    stepRow->addWidget(m_step);
    stepRow->addWidget(m_all);
    stepRow->addWidget(m_stepLabel);
    stepRow->addSpacing(24);
    stepRow->addWidget(new QLabel(tr("Translation"), central));
    m_translation = new QLabel(central);
    QFont large = m_translation->font();
    large.setPointSizeF(large.pointSizeF() * 1.4);
    large.setBold(true);
    m_translation->setFont(large);
    m_translation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stepRow->addWidget(m_translation, 1);
    layout->addLayout(stepRow);

    auto* splitter = new QSplitter(Qt::Horizontal, central);
    m_tabs = new QTabWidget(splitter);
    m_alignment = new MatrixPanelsView(m_tabs);
    m_alignment->setObjectName(QStringLiteral("alignmentView"));
    m_tabs->addTab(m_alignment, tr("Alignment"));
    m_states = new MatrixPanelsView(m_tabs);
    m_states->setObjectName(QStringLiteral("statesView"));
    m_tabs->addTab(m_states, tr("Hidden States"));
    m_tabs->addTab(buildTrainingPage(m_tabs), tr("Training"));
    m_outputTypes = new OutputTypesView(m_tabs);
    m_tabs->addTab(m_outputTypes, tr("Output Types"));
    connect(m_outputTypes, &OutputTypesView::message, this, &Seq2SeqWindow::setMessage);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { refreshStep(); });

    auto* stepPanel = new QWidget(splitter);
    // The output types need the width; the decoder's step is the other tabs'.
    connect(m_tabs, &QTabWidget::currentChanged, stepPanel,
            [this, stepPanel] { stepPanel->setVisible(m_tabs->currentWidget() != m_outputTypes); });
    auto* stepLayout = new QVBoxLayout(stepPanel);
    stepLayout->setContentsMargins(0, 0, 0, 0);
    m_stepFormula = new QLabel(stepPanel);
    m_stepFormula->setWordWrap(true);
    m_stepFormula->setTextFormat(Qt::RichText);
    m_stepFormula->setObjectName(QStringLiteral("stepFormula"));
    stepLayout->addWidget(m_stepFormula);
    m_stepPanels = new MatrixPanelsView(stepPanel);
    m_stepPanels->setObjectName(QStringLiteral("stepView"));
    stepLayout->addWidget(m_stepPanels, 1);
    stepLayout->addWidget(new QLabel(tr("Next word: the likeliest five"), stepPanel));
    m_nextWords = new QTableWidget(0, 2, stepPanel);
    m_nextWords->setHorizontalHeaderLabels({tr("word"), tr("probability")});
    m_nextWords->horizontalHeader()->setStretchLastSection(true);
    m_nextWords->verticalHeader()->setVisible(false);
    m_nextWords->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_nextWords->setMaximumHeight(190);
    stepLayout->addWidget(m_nextWords);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);
    setCentralWidget(central);
}

QString Seq2SeqWindow::message() const
{
    return statusBar()->currentMessage();
}

void Seq2SeqWindow::setMessage(const QString& text)
{
    statusBar()->showMessage(text);
}

bool Seq2SeqWindow::openFolder(const QString& folder)
{
    try {
        auto model = std::make_shared<const core::Seq2SeqModel>(core::loadSeq2SeqModel(folder));
        setModel(std::move(model), QFileInfo(folder).fileName());
        return true;
    } catch (const std::bad_alloc&) {
        setMessage(tr("Not enough memory to read the model in %1.").arg(folder));
    } catch (const std::exception& e) {
        setMessage(tr("Cannot open %1: %2")
                       .arg(QDir::toNativeSeparators(folder), QString::fromUtf8(e.what())));
    }
    return false;
}

void Seq2SeqWindow::chooseFolder()
{
    const QString folder =
        QFileDialog::getExistingDirectory(this, tr("Open Sequence-to-Sequence Model"));
    if (!folder.isEmpty())
        openFolder(folder);
}

void Seq2SeqWindow::setModel(std::shared_ptr<const core::Seq2SeqModel> model, const QString& name)
{
    m_model = std::move(model);
    m_modelName = name;
    const QString attention = attentionLabel(m_model->attention);
    const QString cell =
        m_model->cell == core::Seq2SeqCell::Gru ? QStringLiteral("GRU") : QStringLiteral("LSTM");
    const QString encoder =
        m_model->bidirectional
            ? tr("%1, layers: %2, bidirectional encoder").arg(cell).arg(m_model->layers)
            : tr("%1, layers: %2").arg(cell).arg(m_model->layers);
    m_modelLabel->setText(
        tr("%1 · %2, H = %3 · %4").arg(name, encoder).arg(m_model->hiddenSize).arg(attention));
    m_decoding.reset();
    m_shown = 0;
    setMessage(QString());
    if (!m_source->text().trimmed().isEmpty())
        translate();
    else
        refreshStep();
}

void Seq2SeqWindow::setSource(const QString& text)
{
    m_source->setText(text);
    translate();
}

void Seq2SeqWindow::translate()
{
    if (!m_model) {
        setMessage(tr("Open a model folder or train one on a task first."));
        return;
    }
    try {
        const int width = m_beam->value();
        core::Seq2SeqDecoding decoding = width == 1
                                             ? core::decodeGreedy(*m_model, m_source->text())
                                             : core::decodeBeam(*m_model, m_source->text(), width);
        m_decoding = std::move(decoding);
        setMessage(QString());
        showSteps(1);
    } catch (const std::exception& e) {
        // What was shown stays: the message says why this sentence cannot be translated.
        setMessage(QString::fromUtf8(e.what()));
    }
}

void Seq2SeqWindow::showSteps(int steps)
{
    const int all = m_decoding ? int(m_decoding->steps.size()) : 0;
    m_shown = std::clamp(steps, 0, all);
    refreshStep();
}

void Seq2SeqWindow::refreshStep()
{
    const int all = m_decoding ? int(m_decoding->steps.size()) : 0;
    m_back->setEnabled(m_shown > 1);
    m_step->setEnabled(m_shown < all);
    m_all->setEnabled(m_shown < all);
    m_stepLabel->setText(all ? tr("step %1 of %2").arg(m_shown).arg(all) : QString());
    m_nextWords->setRowCount(0);
    if (!m_model || !m_decoding) {
        const QString hint =
            m_model ? tr("Type a source sentence and press Enter.")
                    : tr("Open a model folder, or train one in the Training tab: the dates "
                         "task learns in a few seconds.");
        m_alignment->setMessage(hint);
        m_states->setMessage(hint);
        m_stepPanels->setMessage(QString());
        m_stepFormula->clear();
        m_translation->clear();
        return;
    }
    const core::Seq2SeqDecoding& d = *m_decoding;
    const int current = m_shown - 1;
    std::vector<int> shownIds(d.outputIds.begin(), d.outputIds.begin() + m_shown);
    m_translation->setText(core::seq2seqTargetText(*m_model, shownIds));
    if (m_model->attention == core::Seq2SeqAttention::None)
        m_alignment->setMessage(
            tr("This model has no attention: its decoder sees only the encoder's "
               "last state, the fixed-size summary attention frees it from."));
    else
        m_alignment->setPanels(
            seq2seqPanels(Seq2SeqFigure::Alignment, *m_model, d, m_shown, current));
    m_states->setPanels(seq2seqPanels(Seq2SeqFigure::HiddenStates, *m_model, d, m_shown, current));
    if (current < 0)
        return;

    const core::Seq2SeqStep& step = d.steps[std::size_t(current)];
    const QStringList source = seq2seqSourceLabels(d);
    const QStringList target = seq2seqTargetLabels(*m_model, d, all);
    const QString input = step.inputId == core::Seq2SeqVocabulary::kSos
                              ? QStringLiteral("&lt;SOS&gt;")
                              : quoted(target[current - 1]).toHtmlEscaped();
    const QString chosen = quoted(target[current]).toHtmlEscaped();
    const double probability = std::exp(double(step.logProbs(step.outputId)));
    QString text = tr("<b>Step %1.</b> The decoder reads %2 and its state s<sub>%3</sub>.")
                       .arg(m_shown)
                       .arg(input)
                       .arg(current);
    if (step.attention.size() > 0) {
        Eigen::Index best = 0;
        step.attention.maxCoeff(&best);
        const QString cell = m_model->cell == core::Seq2SeqCell::Gru ? QStringLiteral("GRU")
                                                                     : QStringLiteral("LSTM");
        const QString where = quoted(source[int(best)]).toHtmlEscaped();
        const double weight = double(step.attention(best));
        switch (m_model->attention) {
        case core::Seq2SeqAttention::Hard:
            text += tr(" Scores e<sub>j</sub> = v<sub>a</sub><sup>T</sup> tanh(W<sub>a</sub> "
                       "s<sub>%1</sub> + U<sub>a</sub> h<sub>j</sub>); hard attention puts all "
                       "the weight on the highest, %2. Context c<sub>%3</sub> = that "
                       "h<sub>j</sub>; s<sub>%3</sub> = %4([embedding; c<sub>%3</sub>], "
                       "s<sub>%1</sub>).")
                        .arg(current)
                        .arg(where)
                        .arg(m_shown)
                        .arg(cell);
            break;
        case core::Seq2SeqAttention::Dot:
        case core::Seq2SeqAttention::General:
        case core::Seq2SeqAttention::Concat: {
            const QString score =
                m_model->attention == core::Seq2SeqAttention::Dot
                    ? QStringLiteral("s<sub>%1</sub> · h<sub>j</sub>").arg(m_shown)
                : m_model->attention == core::Seq2SeqAttention::General
                    ? QStringLiteral("s<sub>%1</sub> · W<sub>a</sub> h<sub>j</sub>").arg(m_shown)
                    : QStringLiteral("v<sub>a</sub><sup>T</sup> tanh(W<sub>a</sub> "
                                     "[s<sub>%1</sub>; h<sub>j</sub>])")
                          .arg(m_shown);
            text += tr(" s<sub>%1</sub> = %2(embedding, s<sub>%3</sub>). Scores e<sub>j</sub> = "
                       "%4 (Luong); weights α = softmax(e): %5 on %6. Context c<sub>%1</sub> = "
                       "Σ<sub>j</sub> α<sub>j</sub> h<sub>j</sub>; the next word comes from "
                       "h̃<sub>%1</sub> = tanh(W<sub>c</sub> [c<sub>%1</sub>; s<sub>%1</sub>]).")
                        .arg(m_shown)
                        .arg(cell)
                        .arg(current)
                        .arg(score)
                        .arg(weight, 0, 'f', 2)
                        .arg(where);
            break;
        }
        default:
            text += tr(" Scores e<sub>j</sub> = v<sub>a</sub><sup>T</sup> tanh(W<sub>a</sub> "
                       "s<sub>%1</sub> + U<sub>a</sub> h<sub>j</sub>); weights α = softmax(e): %2 "
                       "on %3. Context c<sub>%4</sub> = Σ<sub>j</sub> α<sub>j</sub> "
                       "h<sub>j</sub>; s<sub>%4</sub> = %5([embedding; c<sub>%4</sub>], "
                       "s<sub>%1</sub>).")
                        .arg(current)
                        .arg(weight, 0, 'f', 2)
                        .arg(where)
                        .arg(m_shown)
                        .arg(cell);
            break;
        }
        // One column per panel, the source down the side: the words stay readable.
        MatrixPanel scores;
        scores.title = tr("Scores e");
        scores.matrix = step.scores.transpose();
        scores.rowLabels = source;
        scores.columnLabels = {QStringLiteral("e")};
        scores.rowAxis = tr("source");
        scores.map = Colormap::Diverging;
        const double extent = std::max(1e-6, double(step.scores.cwiseAbs().maxCoeff()));
        scores.low = -extent;
        scores.high = extent;
        scores.scaleLabel = tr("score");
        scores.valueDecimals = 2;
        MatrixPanel weights = scores;
        weights.title = tr("Weights α");
        weights.matrix = step.attention.transpose();
        weights.columnLabels = {QStringLiteral("α")};
        weights.map = Colormap::Viridis;
        weights.low = 0.0;
        weights.high = 1.0;
        weights.scaleLabel = tr("weight");
        m_stepPanels->setPanels({scores, weights});
    } else {
        text += tr(" Without attention it has no scores: s<sub>%1</sub> = GRU(relu(embedding), "
                   "s<sub>%2</sub>).")
                    .arg(m_shown)
                    .arg(current);
        m_stepPanels->setMessage(tr("No attention: nothing is scored."));
    }
    text += tr(" Next word: %1 with p = %2.").arg(chosen).arg(probability, 0, 'f', 3);
    m_stepFormula->setText(text);

    std::vector<int> order(std::size_t(step.logProbs.size()));
    std::iota(order.begin(), order.end(), 0);
    const std::size_t top = std::min<std::size_t>(5, order.size());
    std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(top), order.end(),
                      [&](int a, int b) { return step.logProbs(a) > step.logProbs(b); });
    m_nextWords->setRowCount(int(top));
    for (std::size_t k = 0; k < top; ++k) {
        const int id = order[k];
        const QString word = id == core::Seq2SeqVocabulary::kEos ? QStringLiteral("<EOS>")
                             : std::size_t(id) < m_model->target.words.size()
                                 ? QString::fromStdString(m_model->target.words[std::size_t(id)])
                                 : QString::number(id);
        auto* wordItem =
            new QTableWidgetItem(word == QStringLiteral(" ") ? QStringLiteral("␣") : word);
        auto* probabilityItem =
            new QTableWidgetItem(QString::number(std::exp(double(step.logProbs(id))), 'f', 3));
        if (id == step.outputId) {
            QFont font = wordItem->font();
            font.setBold(true);
            wordItem->setFont(font);
            probabilityItem->setFont(font);
        }
        m_nextWords->setItem(int(k), 0, wordItem);
        m_nextWords->setItem(int(k), 1, probabilityItem);
    }
}

Seq2SeqPresentationWindow* Seq2SeqWindow::present()
{
    if (!m_model || !m_decoding) {
        setMessage(tr("Translate a sentence first: the slides show its decoding."));
        return nullptr;
    }
    auto* window = new Seq2SeqPresentationWindow(m_model, *m_decoding);
    window->setAttribute(Qt::WA_DeleteOnClose);
    connect(this, &QObject::destroyed, window, &QWidget::close);
    window->showFullScreen();
    return window;
}

void Seq2SeqWindow::exportFigure()
{
    if (m_tabs->currentWidget() == m_outputTypes) {
        m_outputTypes->exportFigure();
        return;
    }
    if (!m_model || !m_decoding) {
        setMessage(tr("Translate a sentence first: the figure shows its decoding."));
        return;
    }
    const Seq2SeqFigure figure = m_tabs->currentWidget() == m_states ? Seq2SeqFigure::HiddenStates
                                                                     : Seq2SeqFigure::Alignment;
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Figure"), QStringLiteral("alignment.pdf"),
                                     tr("PDF (*.pdf);;SVG (*.svg);;PNG (*.png)"));
    if (path.isEmpty())
        return;
    const auto format = figureFormatForPath(path);
    if (!format) {
        setMessage(tr("%1: the name must end in .pdf, .svg or .png.").arg(path));
        return;
    }
    try {
        core::writeFileAtomically(path, seq2seqFigureBytes(figure, *m_model, *m_decoding,
                                                           QSize(1200, 900), 150.0, *format));
        setMessage(tr("Exported %1.").arg(QDir::toNativeSeparators(path)));
    } catch (const std::exception& e) {
        setMessage(tr("Not exported: %1").arg(QString::fromUtf8(e.what())));
    }
}

} // namespace attn::ui
