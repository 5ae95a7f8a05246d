#include "ui/seq2seq/seq2seq_window.h"

#include "ui/model/matrix_panels_view.h"
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
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn::ui {
namespace {

constexpr core::Seq2SeqAttention kAttentions[] = {
    core::Seq2SeqAttention::Bahdanau, core::Seq2SeqAttention::None,   core::Seq2SeqAttention::Dot,
    core::Seq2SeqAttention::General,  core::Seq2SeqAttention::Concat, core::Seq2SeqAttention::Hard};

QString attentionLabel(core::Seq2SeqAttention attention)
{
    switch (attention) {
    case core::Seq2SeqAttention::None:
        return Seq2SeqWindow::tr("no attention");
    case core::Seq2SeqAttention::Bahdanau:
        return Seq2SeqWindow::tr("additive (Bahdanau) attention");
    case core::Seq2SeqAttention::Dot:
        return Seq2SeqWindow::tr("Luong's dot attention");
    case core::Seq2SeqAttention::General:
        return Seq2SeqWindow::tr("Luong's general attention");
    case core::Seq2SeqAttention::Concat:
        return Seq2SeqWindow::tr("Luong's concat attention");
    case core::Seq2SeqAttention::Hard:
        return Seq2SeqWindow::tr("hard (argmax) attention");
    }
    return {};
}

// One curve per attention trained on `task` (a curve of another task clears the plot), the
// attention's curve replaced when it is trained again: with and without attention side by side.
void addLengthCurve(QCustomPlot& plot, const QString& task, const QString& name,
                    const QVector<QPointF>& byLength)
{
    if (plot.property("task").toString() != task)
        plot.clearGraphs();
    plot.setProperty("task", task);
    for (int g = 0; g < plot.graphCount(); ++g)
        if (plot.graph(g)->name() == name)
            plot.removeGraph(g--);
    static const QColor colors[] = {QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00),
                                    QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                    QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9)};
    QCPGraph* graph = plot.addGraph();
    graph->setName(name);
    graph->setPen(QPen(colors[(plot.graphCount() - 1) % 6], 2));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    for (const QPointF& point : byLength)
        graph->addData(point.x(), point.y());
    plot.xAxis->rescale();
    plot.replot(QCustomPlot::rpQueuedReplot);
}

QString quoted(const QString& word)
{
    return QStringLiteral("“%1”").arg(word);
}

} // namespace

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
    file->addSeparator();
    QAction* close = file->addAction(tr("&Close"), this, &QWidget::close);
    close->setShortcut(QKeySequence::Close);

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
    // Training: a built-in task, its loss and held-out accuracy as it learns.
    auto* trainingPage = new QWidget(m_tabs);
    auto* trainingLayout = new QVBoxLayout(trainingPage);
    auto* trainRow = new QHBoxLayout;
    trainRow->addWidget(new QLabel(tr("Train on"), trainingPage));
    m_task = new QComboBox(trainingPage);
    m_task->addItem(tr("dates (27 nov 2026 → 2026-11-27)"), QStringLiteral("dates"));
    m_task->addItem(tr("reverse (a b c → c b a)"), QStringLiteral("reverse"));
    m_task->addItem(tr("sort (c a b → a b c)"), QStringLiteral("sort"));
    m_task->addItem(tr("copy (a b c → a b c)"), QStringLiteral("copy"));
    m_task->addItem(tr("English → French (the black cat → le chat noir)"),
                    QStringLiteral("english-french"));
    trainRow->addWidget(m_task);
    m_attention = new QComboBox(trainingPage);
    m_attention->setObjectName(QStringLiteral("attentionChoice"));
    for (const core::Seq2SeqAttention attention : kAttentions)
        m_attention->addItem(attentionLabel(attention), int(attention));
    m_attention->setToolTip(tr("The decoder's attention. A model trained here with each is "
                               "kept: choosing one shows its translation and alignment."));
    connect(m_attention, &QComboBox::currentIndexChanged, this,
            [this] { showTrained(core::Seq2SeqAttention(m_attention->currentData().toInt())); });
    // Both choices may shrink to a few letters: the row fits 1024 pixels.
    for (QComboBox* box : {m_task, m_attention}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    trainRow->addWidget(m_attention);
    trainRow->addWidget(new QLabel(tr("steps"), trainingPage));
    m_steps = new QSpinBox(trainingPage);
    m_steps->setRange(10, 100000);
    m_steps->setValue(400);
    m_steps->setToolTip(tr("Minibatches of 32 sentence pairs"));
    trainRow->addWidget(m_steps);
    m_train = new QPushButton(tr("Train"), trainingPage);
    connect(m_train, &QPushButton::clicked, this, [this] {
        if (m_job) {
            m_job.reset();
            m_train->setText(tr("Train"));
            setMessage(tr("Training stopped; the model shown is unchanged."));
            return;
        }
        startTraining(m_task->currentData().toString(), m_steps->value(),
                      core::Seq2SeqAttention(m_attention->currentData().toInt()));
    });
    trainRow->addWidget(m_train);
    m_status = new QLabel(trainingPage);
    m_status->setWordWrap(true);
    trainRow->addWidget(m_status, 1);
    trainingLayout->addLayout(trainRow);
    m_curves = new QCustomPlot(trainingPage);
    trainingLayout->addWidget(m_curves, 1);
    m_curves->addGraph();
    m_curves->graph(0)->setName(tr("loss per word"));
    m_curves->graph(0)->setPen(QPen(QColor(0x00, 0x72, 0xb2), 1.5));
    m_curves->addGraph(m_curves->xAxis, m_curves->yAxis2);
    m_curves->graph(1)->setName(tr("held-out exact match"));
    m_curves->graph(1)->setPen(QPen(QColor(0xd5, 0x5e, 0x00), 2));
    m_curves->graph(1)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    m_curves->xAxis->setLabel(tr("step"));
    m_curves->yAxis->setLabel(tr("loss per word (nats)"));
    m_curves->yAxis2->setLabel(tr("held-out exact match"));
    m_curves->yAxis2->setVisible(true);
    m_curves->yAxis2->setRange(0, 1);
    m_curves->legend->setVisible(true);
    m_lengthCurves = new QCustomPlot(trainingPage);
    m_lengthCurves->setObjectName(QStringLiteral("lengthCurves"));
    m_lengthCurves->xAxis->setLabel(tr("source length (tokens)"));
    m_lengthCurves->yAxis->setLabel(tr("held-out exact match"));
    m_lengthCurves->yAxis->setRange(0, 1.05);
    m_lengthCurves->legend->setVisible(true);
    trainingLayout->addWidget(m_lengthCurves, 1);
    m_tabs->addTab(trainingPage, tr("Training"));
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { refreshStep(); });

    auto* stepPanel = new QWidget(splitter);
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

bool Seq2SeqWindow::showTrained(core::Seq2SeqAttention attention)
{
    const QString task = m_task->currentData().toString();
    const auto it = m_trained.find({task, int(attention)});
    if (it == m_trained.end())
        return false;
    setModel(it->second, tr("%1 (trained here)").arg(task));
    return true;
}

void Seq2SeqWindow::startTraining(const QString& task, int steps, core::Seq2SeqAttention attention)
{
    const auto kind = core::parseSeq2SeqTask(task.toStdString());
    if (!kind) {
        setMessage(tr("There is no built-in task “%1”.").arg(task));
        return;
    }
    // The choices show what is trained (a call from outside the training row included).
    {
        const QSignalBlocker blockTask(m_task), blockAttention(m_attention);
        m_task->setCurrentIndex(std::max(0, m_task->findData(task)));
        m_attention->setCurrentIndex(m_attention->findData(int(attention)));
    }
    core::Seq2SeqTrainingSettings settings;
    settings.attention = attention;
    m_job = std::make_unique<Seq2SeqTrainJob>(core::makeSeq2SeqTask(*kind, 20000, 200, 7), settings,
                                              steps);
    m_curves->graph(0)->data()->clear();
    m_curves->graph(1)->data()->clear();
    m_curves->xAxis->setRange(0, steps);
    m_tabs->setCurrentWidget(m_curves->parentWidget());
    m_train->setText(tr("Stop"));
    connect(m_job.get(), &Seq2SeqTrainJob::progress, this,
            [this, steps](int step, double loss, double accuracy) {
                m_curves->graph(0)->addData(step, loss);
                if (accuracy >= 0.0)
                    m_curves->graph(1)->addData(step, accuracy);
                m_curves->yAxis->rescale();
                m_curves->yAxis->setRangeLower(0);
                m_curves->replot(QCustomPlot::rpQueuedReplot);
                m_status->setText(
                    tr("step %1 of %2 · loss %3").arg(step).arg(steps).arg(loss, 0, 'f', 4));
            });
    connect(m_job.get(), &Seq2SeqTrainJob::finished, this,
            [this, task, attention](std::shared_ptr<const core::Seq2SeqModel> model,
                                    double accuracy, const QVector<QPointF>& byLength) {
                m_trained[{task, int(attention)}] = model;
                addLengthCurve(*m_lengthCurves, task, attentionLabel(attention), byLength);
                m_job.reset();
                m_train->setText(tr("Train"));
                m_status->setText(tr("held-out exact match %1%").arg(accuracy * 100.0, 0, 'f', 1));
                if (m_source->text().trimmed().isEmpty())
                    m_source->setText(task == QStringLiteral("dates")
                                          ? QStringLiteral("27 nov 2026")
                                      : task == QStringLiteral("english-french")
                                          ? QStringLiteral("the black cat ate the mouse")
                                          : QStringLiteral("c a f b e"));
                setModel(std::move(model), tr("%1 (trained here)").arg(task));
                m_tabs->setCurrentWidget(m_alignment);
                emit trainingFinished();
            });
    connect(m_job.get(), &Seq2SeqTrainJob::failed, this, [this](const QString& message) {
        m_job.reset();
        m_train->setText(tr("Train"));
        setMessage(tr("Training failed: %1").arg(message));
    });
    m_job->start();
}

void Seq2SeqWindow::exportFigure()
{
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
