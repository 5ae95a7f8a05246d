// The model window driven as a user drives it, on the tiny checkpoints of
// tests/data/models: open a folder (and the Hugging Face cache list), see every head, click
// one, switch three off and read how the prediction moved, undo, redo, reset, rank heads,
// read the rollout, move with the keyboard, focus a token, export the grid as a PDF, cancel a
// load, drop a stale reply; and the live-update time on a GPT-2-shaped random checkpoint.
// Every number on screen is checked against core's own functions on the same run.

#include "ui/app/window_manager.h"
#include "ui/document/preferences.h"
#include "ui/document/recovery_store.h"
#include "ui/explorer/crash_recovery.h"
#include "ui/explorer/explorer_window.h"
#include "ui/export/export_dialog.h"
#include "ui/model/head_grid_view.h"
#include "ui/model/importance_view.h"
#include "ui/model/matrix_panels_view.h"
#include "ui/model/model_head_panel.h"
#include "ui/model/model_recovery.h"
#include "ui/model/model_window.h"
#include "ui/model/open_model_dialog.h"
#include "ui/model/predictions_view.h"
#include "ui/model/token_focus_bar.h"
#include "ui/presentation/presentation_steps.h"
#include "ui/presentation/presentation_window.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/lines_view.h"
#include "ui/widgets/decimal_field.h"
#include "ui/widgets/matrix_editor.h"
#include "ui/widgets/message_bar.h"
#include "ui/widgets/stale_indicator.h"

#include "core/cpu_backend.h"
#include "core/model/forward.h"
#include "core/model/model_analysis.h"
#include "core/model/model_loader.h"
#include "core/model/random_checkpoint.h"
#include "core/scene_json.h"
#include "support/model_fixtures.h"
#include "support/recovery_copies.h"
#include "support/window_keys.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoStack>

#include <algorithm>
#include <condition_variable>
#include <mutex>

using namespace attn;

namespace {

void click(QWidget* widget, QPointF at)
{
    QTest::mouseClick(widget, Qt::LeftButton, Qt::NoModifier, at.toPoint());
}

// A CPU backend whose `gateAt`-th compute after arm() waits until release(): a run that is
// still computing when the next request comes.
class GateBackend : public core::Backend
{
public:
    std::string name() const override { return m_cpu.name(); }
    std::string deviceName() const override { return m_cpu.deviceName(); }
    core::BlockOps& blockOps() override { return m_cpu.blockOps(); }
    std::shared_ptr<const core::AttentionResult>
    compute(std::shared_ptr<const core::Problem> problem,
            const core::ComputeOptions& options) override
    {
        {
            std::unique_lock lock(m_mutex);
            if (m_armed && ++m_count == m_gateAt) {
                m_waiting = true;
                m_wake.notify_all();
                m_wake.wait(lock, [this] { return !m_armed; });
                m_waiting = false;
            }
        }
        return m_cpu.compute(std::move(problem), options);
    }
    void arm(int gateAt)
    {
        const std::lock_guard lock(m_mutex);
        m_armed = true;
        m_count = 0;
        m_gateAt = gateAt;
    }
    bool isHeld()
    {
        const std::lock_guard lock(m_mutex);
        return m_waiting;
    }
    void release()
    {
        const std::lock_guard lock(m_mutex);
        m_armed = false;
        m_wake.notify_all();
    }

private:
    core::CpuBackend m_cpu;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_armed = false;
    bool m_waiting = false;
    int m_count = 0;
    int m_gateAt = 0;
};

QPushButton* barButton(ui::MessageBar* bar, const QString& text)
{
    for (QPushButton* button : bar->findChildren<QPushButton*>())
        if (button->text() == text && button->isVisibleTo(bar))
            return button;
    return nullptr;
}

double topProbability(const core::ModelResult& result, int id)
{
    for (const core::Prediction& p : result.predictions.front().top)
        if (p.id == id)
            return p.probability;
    return -1.0;
}

} // namespace

class TestModelWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_model_window"));
        QSettings().clear();
        QDir(ui::CrashRecovery::directory()).removeRecursively();
        m_gpt2 = core::loadModel(attn::test::modelFixture(QStringLiteral("gpt2")));
    }

    void init()
    {
        m_window = std::make_unique<ui::ModelWindow>(
            std::make_unique<core::CpuBackend>(), core::BackendChoice::Cpu, QString(), QString());
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup()
    {
        m_window->document()->undoStack()->setClean();
        m_window.reset();
    }

    // --- opening ------------------------------------------------------------------------

    void emptyWindowSaysHowToOpen()
    {
        QVERIFY(m_window->gridView()->message().contains(QStringLiteral("Open Model")));
        QVERIFY(!m_window->headPanel()->isEnabled());
    }

    // A folder opens off the UI thread and shows every head of every layer.
    void openFolderShowsAllHeads()
    {
        openGpt2();
        const auto result = m_window->document()->result();
        QCOMPARE(result->layerCount(), 2);
        const auto& g = m_window->gridView()->geometry();
        QCOMPARE(g.layers, 2);
        QCOMPARE(g.heads, 4);
        QVERIFY(g.side > 40); // readable thumbnails
        // Each thumbnail is that head's weights, T x T, drawn where the geometry says.
        const QImage shot = m_window->gridView()->grab().toImage();
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 4; ++h) {
                QVERIFY(m_window->gridView()->geometry().cellRect(l, h).isValid());
                QCOMPARE(result->layers[std::size_t(l)]->heads[std::size_t(h)].weights.rows(), 5);
            }
        QVERIFY(!shot.isNull());
        QCOMPARE(m_window->textEdit()->text(), QStringLiteral("The cat sat on the"));
        QCOMPARE(m_window->tokenBar()->tokenCount(), 5);
        QVERIFY(m_window->modelLabel()->text().contains(QStringLiteral("gpt2")));
        QVERIFY(m_window->backendLabel()->text().startsWith(QStringLiteral("CPU · Eigen")));
        QVERIFY(m_window->timeLabel()->text().startsWith(QStringLiteral("Computed in")));
        QVERIFY(ui::preferences::recentFiles().contains(
            QFileInfo(attn::test::modelFixture(QStringLiteral("gpt2"))).absoluteFilePath()));
        QVERIFY(m_window->predictionsView()->blocks().front().heading.contains(
            QStringLiteral("Next token")));
        // The predictions are core's own.
        const auto expected = core::runModel(
            m_gpt2, core::modelTokens(*m_gpt2, QStringLiteral("The cat sat on the")), {}, m_cpu);
        QCOMPARE(m_window->predictionsView()->blocks().front().rows.front().id,
                 expected->predictions.front().top.front().id);
    }

    // The cache list: models under a fake HF_HOME, each with family, size and dtype.
    void cacheListsModels()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        for (const auto& [org, name, from] : {std::tuple{"test-org", "tiny-gpt2", "gpt2"},
                                              std::tuple{"test-org", "tiny-bert", "bert"}}) {
            const QString snapshot =
                home.filePath(QStringLiteral("hub/models--%1--%2/snapshots/0123abcd")
                                  .arg(QLatin1String(org), QLatin1String(name)));
            QVERIFY(QDir().mkpath(snapshot));
            const QDir source(attn::test::modelFixture(QLatin1String(from)));
            for (const QString& file : source.entryList(QDir::Files))
                QVERIFY(QFile::copy(source.filePath(file), QDir(snapshot).filePath(file)));
        }
        qputenv("HF_HOME", home.path().toUtf8());
        qunsetenv("HF_HUB_CACHE");
        ui::OpenModelDialog dialog(m_window.get());
        QSignalSpy listed(&dialog, &ui::OpenModelDialog::listed); // read on a worker thread
        QVERIFY(listed.wait(10000));
        QTreeWidget* list = dialog.modelList();
        QCOMPARE(list->topLevelItemCount(), 2);
        QTreeWidgetItem* gpt2 =
            list->findItems(QStringLiteral("test-org/tiny-gpt2"), Qt::MatchExactly).value(0);
        QVERIFY(gpt2);
        QCOMPARE(gpt2->text(1), QStringLiteral("gpt2"));
        QCOMPARE(gpt2->text(3), QStringLiteral("F32"));
        QVERIFY(!gpt2->text(2).isEmpty());
        QTreeWidgetItem* bert =
            list->findItems(QStringLiteral("test-org/tiny-bert"), Qt::MatchExactly).value(0);
        QVERIFY(bert);
        QCOMPARE(bert->text(1), QStringLiteral("bert"));
        list->setCurrentItem(gpt2);
        dialog.accept();
        QVERIFY(dialog.selectedFolder().contains(QStringLiteral("models--test-org--tiny-gpt2")));
        // It opens, and a scene saved from it names the model by its id.
        QSignalSpy ended(m_window.get(), &ui::ModelWindow::loadEnded);
        m_window->openModel(dialog.selectedFolder());
        QVERIFY(ended.wait(20000));
        waitUpToDate();
        QTemporaryDir scenes;
        const QString path = scenes.filePath(QStringLiteral("cached.json"));
        QVERIFY(m_window->saveFile(path));
        QCOMPARE(core::loadScene(path).checkpoint->path, QStringLiteral("test-org/tiny-gpt2"));
        qunsetenv("HF_HOME");
    }

    // A click on a head opens it in the explorer's views, for that layer and head.
    void clickOpensHeadInViews()
    {
        openGpt2();
        const QRectF cell = m_window->gridView()->geometry().cellRect(1, 2);
        click(m_window->gridView(), cell.center() + QPointF(cell.width() / 4, -cell.height() / 4));
        QCOMPARE(m_window->document()->selectedLayer(), 1);
        QCOMPARE(m_window->document()->selectedHead(), 2);
        const auto layer = m_window->document()->result()->layers[1];
        QCOMPARE(m_window->headView()->result(), layer);
        QCOMPARE(m_window->headView()->spec().head, 2);
        // The Pipeline view shows the layer computed again with every intermediate (the run
        // keeps none): the same problem, and the same weights to the bit.
        waitUpToDate();
        const auto detail = m_window->selectedLayerDetail();
        QVERIFY(detail && detail->intermediatesKept);
        QCOMPARE(detail->problem, layer->problem);
        for (std::size_t h = 0; h < layer->heads.size(); ++h)
            QVERIFY(detail->heads[h].weights == layer->heads[h].weights);
        QCOMPARE(m_window->pipelineView()->result(), detail);
        QCOMPARE(m_window->pipelineView()->spec().head, 2);
        QCOMPARE(m_window->linesView()->result(), layer);
        QCOMPARE(m_window->linesView()->head(), 2);
        // The data on screen is that head's weights.
        const auto* map = m_window->headView()->colorMap();
        QVERIFY(map);
        QCOMPARE(float(map->data()->cell(1, 3)), layer->heads[2].weights(3, 1));
        // The difference view: the same layer under another score, computed with the run.
        m_window->viewTabs()->setCurrentIndex(3);
        waitUpToDate();
        QTRY_VERIFY(m_window->differenceView()->result() == layer ||
                    m_window->differenceView()->result() ==
                        m_window->document()->result()->layers[1]);
        QCOMPARE(m_window->headPanel()->findChild<QLabel*>()->text(),
                 QStringLiteral("Layer 2 · head 3"));
        // Hover names the head and the strongest key of the hovered query.
        const QString hover = m_window->gridView()->describeAt(cell.center());
        QVERIFY2(hover.startsWith(QStringLiteral("Layer 2, head 3")) &&
                     hover.contains(QStringLiteral("attends most to")),
                 qPrintable(hover));
    }

    // Three heads off: the prediction moves exactly as core's runModel says it does.
    void threeHeadsOffMovePrediction()
    {
        openGpt2();
        const QList<QPair<int, int>> heads{{0, 1}, {1, 0}, {1, 3}};
        for (const auto& [l, h] : heads) {
            const QRectF box = m_window->gridView()->checkboxRect(l, h);
            QVERIFY2(!box.isEmpty(), "every head has its switch");
            click(m_window->gridView(), box.center());
        }
        waitUpToDate();
        core::Interventions expected;
        for (const auto& [l, h] : heads)
            expected.headsOff.insert({l, h});
        QCOMPARE(m_window->document()->interventions(), expected);
        const auto result = m_window->document()->result();
        QCOMPARE(result->interventions, expected);
        QCOMPARE(m_window->gridView()->options().headsOff, expected.headsOff);
        const auto tokens = core::modelTokens(*m_gpt2, QStringLiteral("The cat sat on the"));
        const auto reference = core::runModel(m_gpt2, tokens, expected, m_cpu);
        const auto unedited = core::runModel(m_gpt2, tokens, {}, m_cpu);
        const auto& blocks = m_window->predictionsView()->blocks();
        QCOMPARE(blocks.size(), std::size_t(1));
        bool moved = false;
        for (const ui::PredictionRow& row : blocks.front().rows) {
            QVERIFY(std::abs(row.probability - topProbability(*reference, row.id)) < 1e-6);
            QVERIFY(row.before.has_value());
            // The unedited probability of the same token, from the unedited run's logits.
            const core::RowVector& logits = unedited->predictions.front().logits;
            const double max = logits.maxCoeff();
            const double sum = (logits.array() - float(max)).exp().cast<double>().sum();
            QVERIFY(std::abs(*row.before - std::exp(double(logits(row.id)) - max) / sum) < 1e-5);
            moved = moved || std::abs(row.probability - *row.before) > 1e-4;
        }
        QVERIFY2(moved, "switching three heads off changed no probability");
        QVERIFY(m_window->gridView()
                    ->describeAt(m_window->gridView()->geometry().cellRect(1, 0).center())
                    .contains(QStringLiteral("switched off")));
    }

    void undoRedoReset()
    {
        openGpt2();
        ui::ModelDocument* doc = m_window->document();
        doc->setHeadOff(0, 0, true);
        doc->setHeadOff(1, 1, true);
        doc->setHeadOff(1, 2, true);
        QCOMPARE(doc->undoStack()->count(), 3);
        doc->undoStack()->undo();
        waitUpToDate();
        QCOMPARE(m_window->document()->result()->interventions.headsOff.size(), std::size_t(2));
        doc->undoStack()->redo();
        waitUpToDate();
        QCOMPARE(m_window->document()->result()->interventions.headsOff.size(), std::size_t(3));
        QVERIFY(m_window->resetAction()->isEnabled());
        m_window->resetAction()->trigger();
        waitUpToDate();
        QVERIFY(doc->interventions().empty());
        QVERIFY(m_window->document()->result()->interventions.empty());
        QCOMPARE(m_window->document()->result(),
                 m_window->document()->baseline()); // the checkpoint's own run
        QVERIFY(!m_window->resetAction()->isEnabled());
        QCOMPARE(doc->undoStack()->count(), 4); // reset is one step
        doc->undoStack()->undo();
        waitUpToDate();
        QCOMPARE(m_window->document()->result()->interventions.headsOff.size(), std::size_t(3));
        QVERIFY(doc->isModified());
    }

    // The selected head's controls are interventions on that head of that layer.
    void headControlsAreInterventions()
    {
        openGpt2();
        m_window->document()->select(1, 2);
        ui::ModelHeadPanel* panel = m_window->headPanel();
        QVERIFY(panel->headOnCheck()->isChecked());
        panel->headOnCheck()->click();
        waitUpToDate();
        QVERIFY(m_window->document()->isHeadOff(1, 2));
        // The score of layer 2 (every head of it), and only layer 2 recomputes.
        QComboBox* score = panel->scoreCombo();
        const int dot = score->findData(QStringLiteral("dot"));
        score->setCurrentIndex(dot);
        emit score->activated(dot);
        waitUpToDate();
        auto result = m_window->document()->result();
        QVERIFY(result->layers[1]->problem->score == core::ScoreKind::Dot);
        QVERIFY(result->layers[0]->problem->score == core::ScoreKind::ScaledDot);
        QCOMPARE(result->firstComputedLayer, 1);
        // W^q of that head, one cell typed.
        panel->setCurrentMatrix(ui::HeadMatrix::Wq);
        const core::Matrix before =
            m_window->document()->checkpointMatrix(1, 2, ui::HeadMatrix::Wq);
        emit panel->editor()->cellEdited(0, 1, 0.75f);
        waitUpToDate();
        result = m_window->document()->result();
        const auto& edit = m_window->document()->interventions().layers.at(1).heads.at(2);
        QVERIFY(edit.Wq.has_value());
        QCOMPARE((*edit.Wq)(0, 1), 0.75f);
        QCOMPARE(result->layers[1]->problem->weights->heads[2].Wq(0, 1), 0.75f);
        QCOMPARE(result->layers[1]->problem->weights->heads[2].Wq(1, 1), before(1, 1));
        QVERIFY(m_window->gridView()->options().edited.count({1, 2}));
        // The same run as core's with the same interventions.
        const auto reference =
            core::runModel(m_gpt2, result->tokens, m_window->document()->interventions(), m_cpu);
        QVERIFY((reference->predictions.front().logits - result->predictions.front().logits)
                    .cwiseAbs()
                    .maxCoeff() < 1e-5f);
        // Temperature: typed, undone in one step.
        panel->temperatureField()->setValue(2.0);
        emit panel->temperatureField()->editingFinished();
        waitUpToDate();
        QCOMPARE(m_window->document()->result()->layers[1]->problem->temperature, 2.0f);
        m_window->document()->undoStack()->undo();
        waitUpToDate();
        QCOMPARE(m_window->document()->result()->layers[1]->problem->temperature, 1.0f);
    }

    // --- analysis ------------------------------------------------------------------------

    void headImportanceMatchesCore()
    {
        openGpt2();
        m_window->document()->setHeadOff(0, 3, true);
        waitUpToDate();
        m_window->viewTabs()->setCurrentIndex(5);
        ui::ImportanceView* view = m_window->importanceView();
        QSignalSpy progress(view->progressBar(), &QProgressBar::valueChanged);
        view->computeButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(view->importance().has_value(), 30000);
        QVERIFY(view->computeButton()->isEnabled());
        const auto base = m_window->document()->result();
        const core::HeadImportance expected = core::headImportance(base, m_cpu);
        const core::Matrix& shown = view->importance()->drop;
        QCOMPARE(shown.rows(), 2);
        QCOMPARE(shown.cols(), 4);
        QVERIFY((shown - expected.drop).cwiseAbs().maxCoeff() < 1e-5f);
        QCOMPARE(shown(0, 3), 0.0f); // already off
        QCOMPARE(view->panels()->panels().front().matrix, expected.drop);
        // The most important heads by name and number, most first (ranked here from core's
        // drops), and each cell's number in the exported heatmap.
        std::vector<std::pair<float, QString>> ranked;
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 4; ++h)
                ranked.emplace_back(expected.drop(l, h),
                                    QStringLiteral("Layer %1, head %2: ").arg(l + 1).arg(h + 1));
        std::stable_sort(ranked.begin(), ranked.end(),
                         [](const auto& a, const auto& b) { return a.first > b.first; });
        const QStringList lines = view->ranking()->text().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 6); // a heading and the top five
        for (int k = 0; k < 5; ++k) {
            const double drop = double(ranked[std::size_t(k)].first);
            QCOMPARE(lines[k + 1],
                     QStringLiteral("%1. ").arg(k + 1) + ranked[std::size_t(k)].second +
                         (drop < 0 ? QStringLiteral("−") : QString()) +
                         QString::number(std::abs(drop), 'f', 2) + QStringLiteral(" nats"));
        }
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("importance.svg"));
        QVERIFY(m_window->exportModelFigure(ui::ModelFigure::Importance, svg));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString figure = QString::fromUtf8(file.readAll());
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 4; ++h) {
                const double drop = double(expected.drop(l, h));
                const QString number = (drop < 0 ? QStringLiteral("−") : QString()) +
                                       QString::number(std::abs(drop), 'f', 2);
                QVERIFY2(figure.contains(QLatin1Char('>') + number + QLatin1Char('<')),
                         qPrintable(number));
            }
        // A click on the heatmap selects that head (once painted: the cells' places come from
        // the paint).
        QTRY_VERIFY(!view->panels()->geometry().cells.empty());
        const QRectF cells = view->panels()->geometry().cells.front();
        click(view->panels(),
              QPointF(cells.left() + cells.width() * 0.6, cells.top() + cells.height() * 0.75));
        QCOMPARE(m_window->document()->selectedLayer(), 1);
        QCOMPARE(m_window->document()->selectedHead(), 2);
    }

    // Another model's heads are not ranked yet: the ranking of the model before goes with it,
    // not shown as if it were this one's.
    void importanceGoesWithTheModel()
    {
        openGpt2();
        ui::ImportanceView* view = m_window->importanceView();
        view->computeButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(view->importance().has_value(), 30000);
        QCOMPARE(view->panels()->panels().size(), std::size_t(1));
        QSignalSpy ended(m_window.get(), &ui::ModelWindow::loadEnded);
        m_window->openModel(attn::test::modelFixture(QStringLiteral("distilbert")));
        QVERIFY(ended.wait(20000));
        waitUpToDate();
        QCOMPARE(m_window->document()->layerCount(), 3); // 3 x 2 heads, not GPT-2's 2 x 4
        QVERIFY(!view->importance());
        QVERIFY(view->panels()->panels().empty());
        QVERIFY2(view->panels()->message().startsWith(QStringLiteral("Rank Heads measures")),
                 qPrintable(view->panels()->message()));
        QVERIFY(view->computeButton()->isEnabled());
    }

    // Every head shows its on/off switch (not only the selected one), so which heads are on
    // reads at a glance; and the grid names the tokens of its rows and columns.
    void everyHeadShowsItsSwitchAndTokens()
    {
        openGpt2();
        ui::HeadGridView* grid = m_window->gridView();
        const QImage shot = grid->grab().toImage();
        const qreal ratio = shot.devicePixelRatio();
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 4; ++h) {
                const QRect box = grid->checkboxRect(l, h).toAlignedRect();
                QVERIFY(!box.isEmpty());
                // A checkbox is light inside (the style's base colour); viridis, the thumbnails'
                // map, has no light grey or white.
                int light = 0;
                for (int y = box.top(); y <= box.bottom(); ++y)
                    for (int x = box.left(); x <= box.right(); ++x) {
                        const QColor c = shot.pixelColor(QPoint(int(x * ratio), int(y * ratio)));
                        light += c.red() > 215 && c.green() > 215 && c.blue() > 215;
                    }
                QVERIFY2(
                    light >= box.width() * box.height() / 5,
                    qPrintable(
                        QStringLiteral("no switch on layer %1, head %2").arg(l + 1).arg(h + 1)));
            }
        const auto& g = grid->geometry();
        QCOMPARE(g.tokens, (QStringList{QStringLiteral("The"), QStringLiteral("“ cat”"),
                                        QStringLiteral("“ sat”"), QStringLiteral("“ on”"),
                                        QStringLiteral("“ the”")}));
        QCOMPARE(g.tokenStep, 1);
        QVERIFY(g.queryLabelWidth > 0 && g.keyLabelHeight > 0);
    }

    void importanceCancels()
    {
        openGpt2();
        m_window->computeImportance();
        m_window->cancelImportance();
        QTRY_VERIFY(m_window->importanceView()->computeButton()->isEnabled());
    }

    void rolloutMatchesCore()
    {
        openGpt2();
        m_window->document()->setHeadOff(1, 1, true);
        m_window->document()->select(1, 0);
        waitUpToDate();
        m_window->viewTabs()->setCurrentIndex(4);
        const auto result = m_window->document()->result();
        const auto& panels = m_window->rolloutView()->panels();
        QCOMPARE(panels.size(), std::size_t(2));
        const std::vector<core::Matrix> rollout = core::attentionRollout(*result);
        QVERIFY(panels[0].matrix == rollout[1]);
        QVERIFY(panels[1].matrix == core::meanOfEnabledHeads(*result->layers[1]));
        // Rows of the rollout sum to 1 (the residual included, renormalised).
        for (int i = 0; i < panels[0].matrix.rows(); ++i)
            QVERIFY(std::abs(panels[0].matrix.row(i).sum() - 1.0f) < 1e-5f);
        m_window->document()->select(0, 0);
        QVERIFY(m_window->rolloutView()->panels()[0].matrix == rollout[0]);
    }

    // --- keyboard, focus ------------------------------------------------------------------

    void keyboardNavigation()
    {
        openGpt2();
        ui::HeadGridView* grid = m_window->gridView();
        grid->setFocus();
        ui::ModelDocument* doc = m_window->document();
        doc->select(0, 0);
        QTest::keyClick(grid, Qt::Key_Right);
        QCOMPARE(std::pair(doc->selectedLayer(), doc->selectedHead()), std::pair(0, 1));
        QTest::keyClick(grid, Qt::Key_Down);
        QCOMPARE(std::pair(doc->selectedLayer(), doc->selectedHead()), std::pair(1, 1));
        QTest::keyClick(grid, Qt::Key_End);
        QCOMPARE(doc->selectedHead(), 3);
        QTest::keyClick(grid, Qt::Key_Right); // the last head of the last layer stays
        QCOMPARE(std::pair(doc->selectedLayer(), doc->selectedHead()), std::pair(1, 3));
        QTest::keyClick(grid, Qt::Key_PageUp);
        QCOMPARE(doc->selectedLayer(), 0);
        QTest::keyClick(grid, Qt::Key_Right); // past the last head: the next layer's first
        QCOMPARE(std::pair(doc->selectedLayer(), doc->selectedHead()), std::pair(1, 0));
        QTest::keyClick(grid, Qt::Key_Home);
        QTest::keyClick(grid, Qt::Key_Left);
        QCOMPARE(std::pair(doc->selectedLayer(), doc->selectedHead()), std::pair(0, 3));
        QTest::keyClick(grid, Qt::Key_Space);
        QVERIFY(doc->isHeadOff(0, 3));
        QTest::keyClick(grid, Qt::Key_Space);
        QVERIFY(!doc->isHeadOff(0, 3));
        m_window->viewTabs()->setCurrentIndex(4);
        QTest::keyClick(grid, Qt::Key_Return);
        QCOMPARE(m_window->viewTabs()->currentIndex(), 0);
        QCOMPARE(m_window->headView()->spec().head, 3);
    }

    void tokenFocusHighlightsEveryHead()
    {
        openGpt2();
        QToolButton* cat = m_window->tokenBar()->button(1);
        QVERIFY(cat);
        QCOMPARE(cat->text(), QStringLiteral("“ cat”"));
        cat->click();
        QCOMPARE(m_window->document()->focusToken(), 1);
        QCOMPARE(m_window->gridView()->options().focusToken, 1);
        // In every thumbnail only the focus row keeps its colours.
        const auto result = m_window->document()->result();
        const ui::ColourTable colours;
        const QImage thumbnail = ui::HeadGridPainter::thumbnail(result->layers[1]->heads[0].weights,
                                                                colours, 1, Qt::white);
        QCOMPARE(thumbnail.pixel(0, 1), colours.at(result->layers[1]->heads[0].weights(1, 0)));
        QVERIFY(thumbnail.pixel(0, 3) != colours.at(result->layers[1]->heads[0].weights(3, 0)));
        // Hover reads the focus token's strongest key wherever the pointer is in a head.
        const QString hover = m_window->gridView()->describeAt(
            m_window->gridView()->geometry().cellRect(0, 2).bottomRight() - QPointF(3, 3));
        QVERIFY2(hover.contains(QStringLiteral("“ cat” attends most to")), qPrintable(hover));
        QCOMPARE(m_window->rolloutView()->panels().front().highlightRow, 1);
        cat->click(); // again: every row
        QCOMPARE(m_window->document()->focusToken(), -1);
        QCOMPARE(m_window->gridView()->options().focusToken, -1);
    }

    // --- figures ------------------------------------------------------------------------

    // The grid as a PDF: labels as text (pdftotext reads them), cells drawn (pdftoppm).
    void exportGridAsPdf()
    {
        openGpt2();
        m_window->document()->setHeadOff(1, 2, true);
        waitUpToDate();
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("grid.pdf"));
        QVERIFY(m_window->exportModelFigure(ui::ModelFigure::Grid, pdf));
        QProcess text;
        text.start(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
        QVERIFY(text.waitForFinished(30000));
        const QString words = QString::fromUtf8(text.readAllStandardOutput());
        for (const QString& label :
             {QStringLiteral("Layer 1"), QStringLiteral("Layer 2"), QStringLiteral("Head 1"),
              QStringLiteral("Head 4"), QStringLiteral("gpt2")})
            QVERIFY2(words.contains(label),
                     qPrintable(label + QStringLiteral(" not in: ") + words));
        QProcess render;
        render.start(QStringLiteral("pdftoppm"),
                     {QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("50"),
                      QStringLiteral("-singlefile"), pdf, dir.filePath(QStringLiteral("page"))});
        QVERIFY(render.waitForFinished(30000));
        const QImage page(dir.filePath(QStringLiteral("page.png")));
        QVERIFY(!page.isNull());
        int coloured = 0;
        for (int y = 0; y < page.height(); y += 2)
            for (int x = 0; x < page.width(); x += 2)
                coloured += QColor(page.pixel(x, y)).hsvSaturation() > 80;
        QVERIFY2(coloured > 200, "no heatmap cells in the rendered page");
        // PNG and SVG through the same painter; rollout and predictions too.
        for (const auto& [figure, name] :
             {std::pair{ui::ModelFigure::Grid, "grid.svg"},
              std::pair{ui::ModelFigure::Rollout, "rollout.png"},
              std::pair{ui::ModelFigure::Predictions, "predictions.pdf"}}) {
            QVERIFY(m_window->exportModelFigure(figure, dir.filePath(QLatin1String(name))));
            QVERIFY(QFileInfo(dir.filePath(QLatin1String(name))).size() > 500);
        }
        QFile svg(dir.filePath(QStringLiteral("grid.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("Layer 2"));
        QCOMPARE(m_window->statusBar()->currentMessage(),
                 QStringLiteral("Exported ") +
                     QDir::toNativeSeparators(dir.filePath(QStringLiteral("predictions.pdf"))));
        // A name with no figure format: said, and nothing written.
        const QString notAFigure = dir.filePath(QStringLiteral("grid.txt"));
        QVERIFY(!m_window->exportModelFigure(ui::ModelFigure::Grid, notAFigure));
        QCOMPARE(m_window->messageBar()->text(),
                 QStringLiteral("Export: the file name must end in .png, .svg or .pdf"));
        QVERIFY(!QFileInfo::exists(notAFigure));
        // The menu has them.
        QAction* gridAction = nullptr;
        for (QAction* action : m_window->menuBar()->findChildren<QAction*>())
            if (action->text().contains(QStringLiteral("Layers × Heads Grid")))
                gridAction = action;
        QVERIFY(gridAction);
    }

    // F11 presents the selected head; Escape ends it and the grid has the keys again (arrows
    // choose the next head at once).
    void presentsSelectedHead()
    {
        openGpt2();
        m_window->document()->select(1, 3);
        m_window->activateWindow();
        m_window->gridView()->setFocus();
        QTRY_VERIFY(m_window->gridView()->hasFocus());
        QTest::keyClick(m_window->gridView(), Qt::Key_F11);
        QPointer<ui::PresentationWindow> presentation = m_window->presentation();
        QVERIFY(presentation);
        QCOMPARE(presentation->result(), m_window->document()->result()->layers[1]);
        QCOMPARE(presentation->head(), 3);
        QTRY_VERIFY(presentation->slide());
        // Every step builds a page on a model's layer, whose problem has no position matrices
        // (X already holds them) and whose result builds the concatenation of heads on demand.
        for (int step = 1; step <= presentation->stepCount(); ++step) {
            presentation->setStep(step);
            QVERIFY2(presentation->slide(), qPrintable(ui::PresentationWindow::stepName(step)));
            QVERIFY(!presentation->numbers().isEmpty());
        }
        presentation->setStep(int(ui::PresentationStep::Embeddings));
        QVERIFY(presentation->caption().contains(QStringLiteral("no positions")));
        presentation->setStep(1);
        presentation->activateWindow(); // as a window manager does (Escape is the window's own
                                        // shortcut too)
        QTRY_VERIFY(presentation->isActiveWindow());
        QTest::keyClick(presentation, Qt::Key_Escape);
        QTRY_VERIFY(!presentation);
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(m_window->gridView()));
        m_window->togglePresentation();
        QTRY_VERIFY(m_window->presentation());
        m_window->togglePresentation();
        QTRY_VERIFY(!m_window->presentation());
    }

    // The window fits a 1024 x 768 projector: nothing forces it wider (the explorer's
    // rule, kept here).
    void fitsA1024Projector()
    {
        openGpt2();
        QStringList parts;
        for (QWidget* w : m_window->findChildren<QWidget*>())
            if (w->isVisible() && w->minimumSizeHint().width() > 300 &&
                qobject_cast<QWidget*>(w->parent()))
                parts << QStringLiteral("%1 (%2) %3")
                             .arg(QString::fromLatin1(w->metaObject()->className()),
                                  w->objectName())
                             .arg(w->minimumSizeHint().width());
        // What Qt holds the window to: its layout's minimum, or its own where it sets one (below
        // the docks' width side by side they become tabs).
        const QSize minimum = m_window->minimumSize();
        QVERIFY2(minimum.width() <= 1024 && minimum.height() <= 768,
                 qPrintable(QStringLiteral("%1 x %2: %3")
                                .arg(minimum.width())
                                .arg(minimum.height())
                                .arg(parts.join(QStringLiteral("; ")))));
        m_window->resize(1024, 768);
        QCoreApplication::processEvents();
        QVERIFY(m_window->width() <= 1024);
        QVERIFY(m_window->gridView()->geometry().side >= 10);
    }

    // --- files ---------------------------------------------------------------------------

    void saveWritesCheckpointAndOpensAgain()
    {
        openGpt2();
        m_window->document()->setHeadOff(0, 2, true);
        m_window->document()->select(1, 1);
        waitUpToDate();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("gpt2-edited.json"));
        QVERIFY(m_window->saveFile(path));
        QVERIFY(!m_window->document()->isModified());
        const core::Scene scene = core::loadScene(path);
        QVERIFY(scene.checkpoint);
        QCOMPARE(scene.text, QStringLiteral("The cat sat on the"));
        QCOMPARE(QFileInfo(scene.checkpoint->resolved).canonicalFilePath(),
                 QFileInfo(attn::test::modelFixture(QStringLiteral("gpt2"))).canonicalFilePath());
        QCOMPARE(scene.checkpoint->layer, 1);
        QCOMPARE(scene.checkpoint->head, 1);
        QCOMPARE(scene.checkpoint->interventions, m_window->document()->interventions());

        // Opened again: the same model, sentence, head and interventions.
        ui::ModelWindow other(std::make_unique<core::CpuBackend>(), core::BackendChoice::Cpu,
                              QString(), QString());
        QSignalSpy ended(&other, &ui::ModelWindow::loadEnded);
        QVERIFY(other.openScene(path));
        QVERIFY(ended.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(other.isUpToDate() && other.document()->result(), 20000);
        QCOMPARE(other.document()->interventions(), scene.checkpoint->interventions);
        QCOMPARE(other.document()->selectedLayer(), 1);
        QCOMPARE(other.document()->selectedHead(), 1);

        // The explorer window opens such a scene in a model window (the window manager's), and
        // has File > Open Model.
        ui::WindowManager windows;
        ui::ExplorerWindow explorer(std::make_unique<core::CpuBackend>(), QString(), &windows);
        QVERIFY(explorer.findChild<QAction*>(QStringLiteral("openModelAction")));
        QVERIFY(explorer.openFile(path));
        QCOMPARE(windows.modelWindows().size(), 1);
        ui::ModelWindow* opened = windows.modelWindows().front();
        QVERIFY(opened->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(opened->document()->hasModel() && opened->isUpToDate(), 20000);
        QCOMPARE(opened->document()->interventions(), scene.checkpoint->interventions);
        explorer.document()->undoStack()->setClean();
        opened->close();
        QTRY_VERIFY(windows.modelWindows().isEmpty()); // deleted on close
        QVERIFY(explorer.openModel(attn::test::modelFixture(QStringLiteral("distilbert"))));
        QCOMPARE(windows.modelWindows().size(), 1);
        ui::ModelWindow* fromMenu = windows.modelWindows().front();
        QTRY_VERIFY_WITH_TIMEOUT(fromMenu->document()->hasModel() && fromMenu->isUpToDate(), 20000);
        QVERIFY(fromMenu->predictionsView()->blocks().front().heading.contains(
            QStringLiteral("[MASK]")));
        fromMenu->close();
    }

    // --- crash recovery ------------------------------------------------------------------------

    // The window's unsaved work (the sentence, heads off, the selected head) is copied aside as
    // the scene Save writes, under the name the title bar shows; saving removes the copy.
    void unsavedWorkIsCopiedAside()
    {
        openGpt2();
        ui::RecoveryStore* store = m_window->recovery()->store();
        m_window->document()->setHeadOff(0, 2, true);
        QVERIFY(store->isPending()); // an edit starts the autosave's clock
        m_window->document()->setText(QStringLiteral("The dog sat"));
        m_window->document()->select(1, 3);
        waitUpToDate();
        QVERIFY(store->saveNow());
        const ui::RecoveryStore::LeftCopy copy = ui::RecoveryStore::describe(store->copyPath());
        QCOMPARE(copy.kind, ui::RecoveryStore::Kind::Model);
        QCOMPARE(copy.name, QStringLiteral("gpt2"));
        QCOMPARE(copy.originalPath, QString());
        const core::Scene scene = core::sceneFromJson(ui::RecoveryStore::readContent(copy.path),
                                                      ui::CrashRecovery::directory());
        QVERIFY(scene.checkpoint);
        QCOMPARE(QFileInfo(scene.checkpoint->resolved).canonicalFilePath(),
                 QFileInfo(attn::test::modelFixture(QStringLiteral("gpt2"))).canonicalFilePath());
        QCOMPARE(scene.text, QStringLiteral("The dog sat"));
        QCOMPARE(scene.checkpoint->layer, 1);
        QCOMPARE(scene.checkpoint->head, 3);
        core::Interventions off;
        off.headsOff.insert({0, 2});
        QCOMPARE(scene.checkpoint->interventions, off);
        QTemporaryDir dir;
        QVERIFY(m_window->saveFile(dir.filePath(QStringLiteral("gpt2-dog.json"))));
        QVERIFY(!QFile::exists(store->copyPath()));
    }

    // A model window's copy that a crash left: the next model window offers it by its name;
    // Restore opens the model with the work, unsaved, and the copy left behind goes once the
    // window's own copy holds the work. The explorer window, the usual first window, offers it
    // too and restores it in a model window.
    void leftWorkIsRestored()
    {
        openGpt2();
        m_window->document()->setHeadOff(1, 2, true);
        m_window->document()->setText(QStringLiteral("The dog sat"));
        waitUpToDate();
        QVERIFY(m_window->recovery()->store()->saveNow());
        const QByteArray work =
            ui::RecoveryStore::readContent(m_window->recovery()->store()->copyPath());
        const core::Interventions edited = m_window->document()->interventions();
        m_window->document()->undoStack()->setClean();

        const QString left =
            test::leaveRecoveryCopy(ui::CrashRecovery::directory(), work, QString(), 999999,
                                    QStringLiteral("model"), QStringLiteral("gpt2"));
        auto next = std::make_unique<ui::ModelWindow>(
            std::make_unique<core::CpuBackend>(), core::BackendChoice::Cpu, QString(), QString());
        ui::MessageBar* bar = next->messageBar();
        QCOMPARE(bar->key(), QStringLiteral("recovery"));
        QVERIFY2(bar->text().contains(QStringLiteral("unsaved changes to gpt2 from")),
                 qPrintable(bar->text()));
        QSignalSpy loaded(next.get(), &ui::ModelWindow::modelLoaded);
        barButton(bar, QStringLiteral("Restore"))->click();
        QVERIFY(loaded.count() == 1 || loaded.wait(20000));
        QCOMPARE(next->document()->text(), QStringLiteral("The dog sat"));
        QCOMPARE(next->document()->interventions(), edited);
        QVERIFY(next->document()->isModified());
        QVERIFY(next->windowTitle().startsWith(QStringLiteral("gpt2")));
        QVERIFY(!QFile::exists(left));
        QCOMPARE(ui::RecoveryStore::readContent(next->recovery()->store()->copyPath()), work);
        next->document()->undoStack()->setClean();
        next.reset();

        const QString again =
            test::leaveRecoveryCopy(ui::CrashRecovery::directory(), work, QString(), 999999,
                                    QStringLiteral("model"), QStringLiteral("gpt2"));
        ui::ExplorerWindow explorer(std::make_unique<core::CpuBackend>(), QString());
        QCOMPARE(explorer.messageBar()->key(), QStringLiteral("recovery"));
        barButton(explorer.messageBar(), QStringLiteral("Restore"))->click();
        ui::ModelWindow* opened = nullptr;
        for (QWidget* widget : QApplication::topLevelWidgets())
            if (auto* window = qobject_cast<ui::ModelWindow*>(widget);
                window && window != m_window.get())
                opened = window;
        QVERIFY(opened);
        QTRY_VERIFY_WITH_TIMEOUT(opened->document()->hasModel() && opened->document()->isModified(),
                                 20000);
        QCOMPARE(opened->document()->interventions(), edited);
        QVERIFY(!QFile::exists(again));
        QVERIFY(opened->messageBar()->key() != QLatin1String("recovery")); // offered once
        opened->document()->undoStack()->setClean();
        opened->close();
        explorer.document()->undoStack()->setClean();
    }

    // A copy whose model no longer opens is kept, and the window says where.
    void leftWorkWhoseModelIsGoneIsKept()
    {
        core::Scene scene = core::makeScene(QStringLiteral("The dog sat"), 8, 1, 1);
        core::CheckpointReference checkpoint;
        checkpoint.path = QStringLiteral("/nonexistent/model");
        scene.checkpoint = checkpoint;
        const QString left = test::leaveRecoveryCopy(
            ui::CrashRecovery::directory(), core::sceneToJson(scene), QString(), 999999,
            QStringLiteral("model"), QStringLiteral("model"));
        ui::ModelWindow next(std::make_unique<core::CpuBackend>(), core::BackendChoice::Cpu,
                             QString(), QString());
        QSignalSpy ended(&next, &ui::ModelWindow::loadEnded);
        barButton(next.messageBar(), QStringLiteral("Restore"))->click();
        QVERIFY(ended.count() == 1 || ended.wait(20000));
        QCOMPARE(next.messageBar()->text(),
                 QStringLiteral("Could not restore: its model /nonexistent/model was not opened. "
                                "The copy is kept at %1.")
                     .arg(left));
        QVERIFY(QFile::exists(left));
        QVERIFY(!next.document()->hasModel());
        QVERIFY(QFile::remove(left));
    }

    // --- loads and replies ----------------------------------------------------------------------

    void cancelALoad()
    {
        openGpt2();
        const QString big = largeCheckpoint();
        QSignalSpy ended(m_window.get(), &ui::ModelWindow::loadEnded);
        m_window->openModel(big);
        QVERIFY(m_window->isLoading());
        QVERIFY(m_window->loadCancelButton()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(m_window->loadProgress()->value() >= 1, 20000); // a layer is in
        QVERIFY(m_window->loadProgress()->value() < m_window->loadProgress()->maximum());
        QTest::mouseClick(m_window->loadCancelButton(), Qt::LeftButton);
        QVERIFY(ended.count() == 1 || ended.wait(20000));
        QVERIFY(!m_window->isLoading());
        QVERIFY(!m_window->loadProgress()->isVisible());
        QVERIFY2(m_window->messageBar()->text().contains(QStringLiteral("cancelled")),
                 qPrintable(m_window->messageBar()->text()));
        QCOMPARE(m_window->document()->model(), m_gpt2Shown); // the model on screen stays
        // A folder that is no model: the reason, and the model on screen stays too.
        m_window->openModel(QStringLiteral("/nonexistent/model"));
        QVERIFY(ended.wait(20000));
        QVERIFY(m_window->messageBar()->text().contains(QStringLiteral("Could not open")));
        QCOMPARE(m_window->document()->model(), m_gpt2Shown);
    }

    // While a model loads into an empty window, the window says which (not "No model open"),
    // and the status bar's progress text fits its bar at 1024 x 768.
    void loadingSaysWhichModel()
    {
        m_window->resize(1024, 768);
        QTRY_COMPARE(m_window->width(), 1024);
        QProgressBar* bar = m_window->loadProgress();
        QLabel* label = m_window->modelLabel();
        QStringList cut;
        connect(bar, &QProgressBar::valueChanged, this, [&] {
            m_window->statusBar()->layout()->activate(); // the geometry the next paint has
            if (bar->fontMetrics().horizontalAdvance(bar->text()) + 8 > bar->width())
                cut << QStringLiteral("%1 in %2 pixels").arg(bar->text()).arg(bar->width());
            if (label->fontMetrics().horizontalAdvance(label->text()) >
                label->contentsRect().width())
                cut << QStringLiteral("%1 in %2 pixels")
                           .arg(label->text())
                           .arg(label->contentsRect().width());
        });
        QSignalSpy ended(m_window.get(), &ui::ModelWindow::loadEnded);
        m_window->openModel(attn::test::modelFixture(QStringLiteral("gpt2")));
        QCOMPARE(m_window->gridView()->message(), QStringLiteral("Loading gpt2…"));
        QCOMPARE(m_window->headView()->message(), QStringLiteral("Loading gpt2…"));
        QCOMPARE(label->text(), QStringLiteral("Loading gpt2…"));
        QCOMPARE(shownTexts(m_window->headPanel()), QStringList{QStringLiteral("Loading gpt2…")});
        QVERIFY(ended.wait(20000));
        QCOMPARE(bar->text(), QStringLiteral("Loading layer 2 of 2")); // the last shown
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QStringLiteral("; "))));
        waitUpToDate();
        QVERIFY(label->text().startsWith(QStringLiteral("gpt2 · 2 layers × 4 heads")));
    }

    // A failed open in an empty window says why and leaves the window empty, as it was: its
    // controls disabled, no "all 0 of its heads" or temperature of nothing.
    void failedOpenLeavesTheEmptyWindow()
    {
        QSignalSpy ended(m_window.get(), &ui::ModelWindow::loadEnded);
        m_window->openModel(QStringLiteral("/nonexistent/model"));
        QVERIFY(ended.wait(20000));
        QVERIFY2(m_window->messageBar()->text().startsWith(
                     QStringLiteral("Could not open the model /nonexistent/model. ")),
                 qPrintable(m_window->messageBar()->text()));
        QCOMPARE(m_window->gridView()->message(),
                 QStringLiteral("No model open: File > Open Model… (Ctrl+Shift+O)"));
        QCOMPARE(m_window->headView()->message(), QStringLiteral("No model open"));
        QCOMPARE(m_window->modelLabel()->text(), QStringLiteral("No model"));
        QVERIFY(!m_window->textEdit()->isEnabled());
        QVERIFY(!m_window->tokenBar()->isEnabled());
        QVERIFY(!m_window->importanceView()->computeButton()->isEnabled());
        QVERIFY(!m_window->resetAction()->isEnabled());
        ui::ModelHeadPanel* panel = m_window->headPanel();
        QVERIFY(panel->isVisible());
        QVERIFY(!panel->isEnabled());
        QVERIFY(!panel->headOnCheck()->isVisible());
        QVERIFY(!panel->temperatureField()->isVisible());
        QVERIFY(!panel->editor()->isVisible());
        QCOMPARE(shownTexts(panel), QStringList{QStringLiteral("No model open")});
        QCOMPARE(m_window->document()->undoStack()->count(), 0);
    }

    // A run overtaken by a newer edit is never shown: it is cancelled at its next layer.
    void staleRunCancelled()
    {
        auto gate = std::make_unique<GateBackend>();
        GateBackend* gated = gate.get();
        m_window = std::make_unique<ui::ModelWindow>(std::move(gate), core::BackendChoice::Cpu,
                                                     QString(), QString());
        m_window->show();
        openGpt2();
        QSignalSpy shown(m_window.get(), &ui::ModelWindow::resultShown);
        gated->arm(2); // the second layer of the next run waits
        m_window->document()->setHeadOff(0, 0, true);
        QTRY_VERIFY_WITH_TIMEOUT(gated->isHeld(), 10000);
        m_window->document()->setHeadOff(1, 1, true); // newer: the held run is history
        QTest::qWait(50);
        gated->release();
        waitUpToDate();
        QTRY_COMPARE(m_window->computeController()->cancelledRuns(), 1);
        QCOMPARE(m_window->computeController()->droppedReplies(), 0);
        core::Interventions both;
        both.headsOff = {{0, 0}, {1, 1}};
        QCOMPARE(m_window->document()->result()->interventions, both);
        QCOMPARE(shown.count(), 1); // only the newest run was shown
    }

    // The live update: a head switched off in a GPT-2-shaped checkpoint (12 layers of 12
    // heads, d_model 768, vocabulary 50257, random weights) at T = 64 on the CPU backend, from
    // the click to the grid and predictions repainted. docs/PERFORMANCE.md records it.
    void headOffUpdatesWithin150Milliseconds()
    {
        const QString big = largeCheckpoint();
        QSignalSpy ended(m_window.get(), &ui::ModelWindow::loadEnded);
        // 64 characters: the benchmark's tokenizer has no merges, one token per byte.
        const QString text =
            QStringLiteral("The animal did not cross the street because it was too tired; it");
        QCOMPARE(text.size(), 64);
        m_window->resize(1920, 1080);
        m_window->openModel(big, text);
        QVERIFY(ended.wait(120000));
        waitUpToDate(120000);
        const auto first = m_window->document()->result();
        QCOMPARE(int(first->tokens.size()), 64);
        QCOMPARE(first->layerCount(), 12);
        ui::HeadGridView* grid = m_window->gridView();
        QVERIFY2(grid->geometry().side >= 40, "12 x 12 readable at 1920 x 1080");

        std::vector<double> worker;
        auto measure = [&](int layer, int head) {
            QElapsedTimer timer;
            timer.start();
            click(grid, grid->checkboxRect(layer, head).center());
            // Shown: the run is in the document, the predictions hold it, and the grid has
            // painted it.
            // Checked by a 1 ms timer in a blocking event loop: a processEvents spin would take
            // one of the machine's cores from the worker it is timing.
            QEventLoop loop;
            QTimer poll;
            poll.setInterval(1);
            QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
                const auto result = m_window->document()->result();
                if ((m_window->isUpToDate() && result &&
                     result->interventions.headsOff.count({layer, head}) &&
                     grid->paintedResult() == result.get() &&
                     m_window->predictionsView()->blocks().front().rows.front().before) ||
                    timer.elapsed() > 60000)
                    loop.quit();
            });
            poll.start();
            loop.exec();
            worker.push_back(m_window->document()->result()->milliseconds);
            return double(timer.nsecsElapsed()) / 1e6;
        };
        std::vector<double> lowest;
        std::vector<double> middle;
        std::vector<double> top;
        for (int r = 0; r < 3; ++r) {
            lowest.push_back(measure(0, r));
            middle.push_back(measure(5, r));
            top.push_back(measure(11, r));
        }
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v[v.size() / 2];
        };
        QStringList runs;
        for (double ms : worker)
            runs << QString::number(ms, 'f', 0);
        qInfo("GPT-2-shaped checkpoint, T = 64, CPU backend, %d threads: a head switched off -> "
              "grid and predictions "
              "shown in %.0f ms (layer 1: all 12 layers recomputed), %.0f ms (layer 6: 7 layers), "
              "%.0f ms (layer 12: "
              "1 layer); the forward alone (ms, in order): %s; grid painted in %.1f ms",
              QThread::idealThreadCount(), median(lowest), median(middle), median(top),
              qPrintable(runs.join(QStringLiteral(", "))), grid->lastPaintMilliseconds());
        // The bound, 150 ms, on a machine of its own (ATTN_STRICT_TIMING=1, as
        // docs/PERFORMANCE.md was measured); shared CI machines are noisy, and a loose
        // ceiling catches what is wrong there, as the explorer's live-update test does.
        const double bound = qEnvironmentVariableIntValue("ATTN_STRICT_TIMING") ? 150.0 : 5000.0;
        for (double ms : {median(lowest), median(middle), median(top)})
            QVERIFY2(ms <= bound, qPrintable(QStringLiteral("%1 ms").arg(ms)));
    }

    // --- keys ------------------------------------------------------------------------------

    // Every key the menus and the README name fires its command, pressed on the window (Redo
    // by Ctrl+Shift+Z did nothing: the key was registered twice on the same action).
    void advertisedKeysFire_data()
    {
        QTest::addColumn<QKeySequence>("key");
        QTest::addColumn<QString>("command"); // the menu entry, without its accelerator
        QTest::newRow("Ctrl+Shift+O")
            << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O) << QStringLiteral("Open Model…");
        QTest::newRow("Ctrl+O") << QKeySequence(Qt::CTRL | Qt::Key_O)
                                << QStringLiteral("Open Scene…");
        QTest::newRow("Ctrl+S") << QKeySequence(Qt::CTRL | Qt::Key_S) << QStringLiteral("Save");
        QTest::newRow("Ctrl+Shift+S")
            << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S) << QStringLiteral("Save As…");
        QTest::newRow("Ctrl+E") << QKeySequence(Qt::CTRL | Qt::Key_E)
                                << QStringLiteral("Export Head Figure…");
        QTest::newRow("Ctrl+Shift+E") << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E)
                                      << QStringLiteral("Layers × Heads Grid…");
        QTest::newRow("Ctrl+Z") << QKeySequence(Qt::CTRL | Qt::Key_Z) << QStringLiteral("Undo");
        QTest::newRow("Ctrl+Shift+Z")
            << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z) << QStringLiteral("Redo");
        QTest::newRow("Ctrl+R") << QKeySequence(Qt::CTRL | Qt::Key_R)
                                << QStringLiteral("Reset Model");
        QTest::newRow("Ctrl+G") << QKeySequence(Qt::CTRL | Qt::Key_G) << QStringLiteral("Grid");
        QTest::newRow("Esc") << QKeySequence(Qt::Key_Escape) << QStringLiteral("Clear Token Focus");
        QTest::newRow("F11") << QKeySequence(Qt::Key_F11) << QStringLiteral("Present Head");
        QTest::newRow("Ctrl+W") << QKeySequence(Qt::CTRL | Qt::Key_W) << QStringLiteral("Close");
    }

    void advertisedKeysFire()
    {
        QFETCH(QKeySequence, key);
        QFETCH(QString, command);
        openGpt2();
        ui::ModelDocument* doc = m_window->document();
        doc->setHeadOff(0, 1, true); // something to undo and to reset
        doc->setHeadOff(1, 2, true);
        doc->undoStack()->undo(); // and something to redo
        doc->setFocusToken(2);
        waitUpToDate();
        test::pressKeyOfCommand(*m_window, *m_window->gridView(), key, command);
        if (QTest::currentTestFailed())
            return;
        // What the edits did, undone and done again by key.
        if (command == QLatin1String("Undo"))
            QCOMPARE(doc->interventions().headsOff.size(), std::size_t(0));
        else if (command == QLatin1String("Redo"))
            QCOMPARE(doc->interventions().headsOff.size(), std::size_t(2));
        else if (command == QLatin1String("Reset Model"))
            QVERIFY(doc->interventions().empty());
        else if (command == QLatin1String("Clear Token Focus"))
            QCOMPARE(doc->focusToken(), -1);
        if (m_window->presentation())
            m_window->presentation()->close();
        if (m_window->exportDialog())
            m_window->exportDialog()->close();
    }

    // --- a sentence the model cannot take ------------------------------------------------

    // A sentence past the context (32 positions here): the message says so, and the last
    // good figures stay, dimmed under "Not current"; a sentence that fits brings them back.
    void tooLongSentenceKeepsTheFiguresDimmed()
    {
        openGpt2();
        const auto good = m_window->document()->result();
        m_window->document()->setText(
            QStringLiteral("one two three four five six seven eight nine ten eleven twelve "
                           "thirteen fourteen fifteen sixteen seventeen eighteen nineteen "
                           "twenty twenty-one twenty-two twenty-three twenty-four"));
        waitUpToDate();
        QCOMPARE(m_window->document()->result(), good);
        QCOMPARE(m_window->messageBar()->key(), QStringLiteral("compute"));
        QVERIFY2(m_window->messageBar()->text().contains(QStringLiteral("32")),
                 qPrintable(m_window->messageBar()->text()));
        ui::StaleIndicator* stale = m_window->staleIndicator();
        QVERIFY(stale->isStale());
        QVERIFY2(stale->note().startsWith(
                     QStringLiteral("Not current: the figures show an earlier input, “")) &&
                     stale->note().contains(QStringLiteral("sat")),
                 qPrintable(stale->note()));
        QVERIFY(stale->veil(m_window->gridView())->isVisible());
        QVERIFY(m_window->gridView()->message().isEmpty()); // the grid still shows the heads
        m_window->document()->setText(QStringLiteral("The dog sat"));
        waitUpToDate();
        QVERIFY(m_window->document()->result() != good);
        QVERIFY(!stale->isStale());
        QVERIFY(!stale->veil(m_window->gridView())->isVisible());
        QVERIFY(m_window->messageBar()->text().isEmpty());
    }

    // With no earlier figures the window says it could not compute, not "Computing…" for ever.
    void tooLongSentenceFirstSaysSo()
    {
        QStringList words;
        for (int i = 0; i < 40; ++i)
            words << QStringLiteral("cat");
        m_window->setModel(m_gpt2, words.join(QLatin1Char(' ')));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->isUpToDate(), 20000);
        QVERIFY(!m_window->document()->result());
        QCOMPARE(m_window->messageBar()->key(), QStringLiteral("compute"));
        QCOMPARE(m_window->gridView()->message(),
                 QStringLiteral("Not computed: the message above says why."));
        QCOMPARE(m_window->headView()->message(),
                 QStringLiteral("Not computed: the message above says why."));
        QCOMPARE(m_window->timeLabel()->text(), QStringLiteral("Not computed"));
    }

    // A remembered sentence that does not fit the model is not restored: the sample stands in.
    void rememberedSentenceTooLongIsNotRestored()
    {
        QStringList words;
        for (int i = 0; i < 40; ++i)
            words << QStringLiteral("cat");
        const QString folder = attn::test::modelFixture(QStringLiteral("gpt2"));
        ui::preferences::addRecentModel(QFileInfo(folder).absoluteFilePath(),
                                        words.join(QLatin1Char(' ')));
        QSignalSpy ended(m_window.get(), &ui::ModelWindow::loadEnded);
        m_window->openModel(folder);
        QVERIFY(ended.wait(20000));
        waitUpToDate();
        QCOMPARE(m_window->textEdit()->text(), QStringLiteral("The cat sat on the"));
        QVERIFY(m_window->document()->result());
        // One that fits is restored.
        ui::preferences::addRecentModel(QFileInfo(folder).absoluteFilePath(),
                                        QStringLiteral("A cat"));
        m_window->openModel(folder);
        QVERIFY(ended.wait(20000));
        waitUpToDate();
        QCOMPARE(m_window->textEdit()->text(), QStringLiteral("A cat"));
    }

private:
    // The texts of the labels `widget` shows.
    static QStringList shownTexts(QWidget* widget)
    {
        QStringList texts;
        for (QLabel* label : widget->findChildren<QLabel*>())
            if (label->isVisible() && !label->text().isEmpty())
                texts << label->text();
        return texts;
    }

    void waitUpToDate(int timeout = 20000)
    {
        QTRY_VERIFY_WITH_TIMEOUT(m_window->isUpToDate() && m_window->document()->result(), timeout);
    }

    void openGpt2()
    {
        QSignalSpy ended(m_window.get(), &ui::ModelWindow::loadEnded);
        m_window->openModel(attn::test::modelFixture(QStringLiteral("gpt2")),
                            QStringLiteral("The cat sat on the"));
        QVERIFY(ended.wait(20000));
        waitUpToDate();
        m_gpt2Shown = m_window->document()->model();
    }

    // The GPT-2-shaped random checkpoint, written once for the suite by the benchmark's writer.
    QString largeCheckpoint()
    {
        if (!m_large) {
            m_large = std::make_unique<QTemporaryDir>();
            core::writeRandomCheckpoint(QStringLiteral("gpt2"),
                                        m_large->filePath(QStringLiteral("gpt2")));
        }
        return m_large->filePath(QStringLiteral("gpt2"));
    }

    std::unique_ptr<ui::ModelWindow> m_window;
    std::shared_ptr<const core::Model> m_gpt2;
    std::shared_ptr<const core::Model> m_gpt2Shown;
    std::unique_ptr<QTemporaryDir> m_large;
    core::CpuBackend m_cpu;
};

QTEST_MAIN(TestModelWindow)
#include "tst_model_window.moc"
