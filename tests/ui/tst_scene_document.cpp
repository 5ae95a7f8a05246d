// The document behind the explorer window: every edit is one undo step (a drag merges into
// one), and undo gives back the scene, and so the result, bit for bit.

#include "ui/document/scene_document.h"

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene_json.h"
#include "support/results.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cstring>

using namespace attn;
using test::bitIdentical;
using test::sameResult;

namespace {

} // namespace

class TestSceneDocument : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_document = std::make_unique<ui::SceneDocument>();
        m_document->reset(core::makeScene(QStringLiteral("the cat sat on the mat"), 8, 2, 7),
                          QString());
    }

    void startsCleanAndUntitled()
    {
        QVERIFY(!m_document->isModified());
        QCOMPARE(m_document->displayName(), QStringLiteral("Untitled"));
        QCOMPARE(m_document->undoStack()->count(), 0);
    }

    void editMarksModifiedAndUndoCleans()
    {
        QSignalSpy modified(m_document.get(), &ui::SceneDocument::modifiedChanged);
        QSignalSpy changed(m_document.get(), &ui::SceneDocument::sceneChanged);
        m_document->setText(QStringLiteral("a dog"));
        QCOMPARE(m_document->scene().text, QStringLiteral("a dog"));
        QVERIFY(m_document->isModified());
        QCOMPARE(modified.count(), 1);
        QCOMPARE(changed.count(), 1);
        QVERIFY(changed.first().first().value<ui::SceneChanges>().testFlag(ui::SceneChange::Text));
        m_document->undoStack()->undo();
        QCOMPARE(m_document->scene().text, QStringLiteral("the cat sat on the mat"));
        QVERIFY(!m_document->isModified());
    }

    // Marks on positions a shorter sentence no longer has go in the same step, so the
    // scene stays valid (and saveable); undo brings them back.
    void shorterTextDropsMarksItNoLongerHas()
    {
        m_document->setPadding(QString(), {1, 5});
        core::MaskSpec mask = m_document->scene().mask;
        mask.customCells = {{0, 1}, {5, 0}, {2, 4}};
        m_document->setMask(mask);
        m_document->setText(QStringLiteral("the cat sat"));
        QCOMPARE(m_document->scene().paddingPositions, std::vector<int>{1});
        QCOMPARE(m_document->scene().mask.customCells, (std::vector<std::pair<int, int>>{{0, 1}}));
        QVERIFY(core::resolveProblem(m_document->scene()));
        m_document->undoStack()->undo();
        QCOMPARE(m_document->scene().paddingPositions, (std::vector<int>{1, 5}));
        QCOMPARE(m_document->scene().mask.customCells.size(), std::size_t(3));
    }

    void unchangedValueIsNoStep()
    {
        m_document->setTemperature(1.0f);
        m_document->setText(m_document->scene().text);
        QCOMPARE(m_document->undoStack()->count(), 0);
    }

    void dragIsOneStep()
    {
        m_document->beginGesture();
        for (float t : {1.5f, 2.0f, 3.0f, 4.0f})
            m_document->setTemperature(t);
        m_document->endGesture();
        QCOMPARE(m_document->undoStack()->count(), 1);
        QCOMPARE(m_document->scene().temperature, 4.0f);
        // A second drag is a second step.
        m_document->beginGesture();
        m_document->setTemperature(0.5f);
        m_document->setTemperature(0.25f);
        m_document->endGesture();
        QCOMPARE(m_document->undoStack()->count(), 2);
        m_document->undoStack()->undo();
        QCOMPARE(m_document->scene().temperature, 4.0f);
        m_document->undoStack()->undo();
        QCOMPARE(m_document->scene().temperature, 1.0f);
        // Edits outside a gesture never merge.
        m_document->setTemperature(2.0f);
        m_document->setTemperature(3.0f);
        QCOMPARE(m_document->undoStack()->count(), 2);
    }

    void dragBackToStartLeavesNoStep()
    {
        m_document->beginGesture();
        m_document->setTemperature(2.0f);
        m_document->setTemperature(1.0f);
        m_document->endGesture();
        QCOMPARE(m_document->undoStack()->count(), 0);
        QVERIFY(!m_document->isModified());
    }

    void scrubOfOneMatrixMergesOnlyWithItself()
    {
        const ui::WeightRef wq{ui::WeightKind::Wq, 0};
        const ui::WeightRef wk{ui::WeightKind::Wk, 0};
        core::Matrix q = m_document->scene().weights.heads[0].Wq;
        m_document->beginGesture();
        for (int step = 1; step <= 5; ++step) {
            q(1, 2) = 0.1f * float(step);
            m_document->setWeightMatrix(wq, q);
        }
        core::Matrix k = m_document->scene().weights.heads[0].Wk;
        k(0, 0) = 3.0f;
        m_document->setWeightMatrix(wk, k);
        m_document->endGesture();
        QCOMPARE(m_document->undoStack()->count(), 2);
        QCOMPARE(m_document->scene().weights.heads[0].Wq(1, 2), 0.5f);
        QCOMPARE(m_document->undoStack()->undoText(), QStringLiteral("Edit W^k · head 1"));
    }

    void wrongShapeIsRefused()
    {
        QVERIFY_THROWS_EXCEPTION(
            core::Error,
            m_document->setWeightMatrix({ui::WeightKind::Wq, 0}, core::Matrix::Zero(3, 3)));
        QVERIFY_THROWS_EXCEPTION(core::Error, m_document->setHeadEnabled(5, false));
        QCOMPARE(m_document->undoStack()->count(), 0);
    }

    // Undo after an edit of one weight gives back every matrix of the result bit for bit.
    void undoRestoresResultBitForBit()
    {
        const auto before = test::cpuResult(m_document->scene());
        core::Matrix q = m_document->scene().weights.heads[1].Wq;
        q(3, 1) += 0.75f;
        m_document->setWeightMatrix({ui::WeightKind::Wq, 1}, q);
        const auto edited = test::cpuResult(m_document->scene());
        QVERIFY(!sameResult(*before, *edited));
        QVERIFY(
            bitIdentical(edited->heads[0].weights, before->heads[0].weights)); // head 0 untouched
        m_document->undoStack()->undo();
        QVERIFY(sameResult(*before, *test::cpuResult(m_document->scene())));
        m_document->undoStack()->redo();
        QVERIFY(sameResult(*edited, *test::cpuResult(m_document->scene())));
    }

    // Editing an embedding turns the hashed vectors into a table holding the same numbers,
    // so the result only changes where the value did.
    void embeddingEditKeepsOtherVectors()
    {
        const auto before = test::cpuResult(m_document->scene());
        ui::WeightView view = ui::weightView(m_document->scene(), {ui::WeightKind::Embedding});
        QCOMPARE(view.rowLabels, (QStringList{"the", "cat", "sat", "on", "mat"}));
        QCOMPARE(view.matrix.rows(), 5);
        QCOMPARE(view.matrix.cols(), 8);
        QVERIFY(bitIdentical(view.matrix.row(0), before->problem->queryEmbedding.row(0)));

        m_document->setWeightMatrix({ui::WeightKind::Embedding}, view.matrix);
        QVERIFY(m_document->scene().embedding.kind == core::EmbeddingKind::Table);
        QVERIFY(sameResult(*before, *test::cpuResult(m_document->scene())));

        view.matrix(1, 0) += 1.0f; // "cat"
        m_document->setWeightMatrix({ui::WeightKind::Embedding}, view.matrix);
        const auto after = test::cpuResult(m_document->scene());
        QCOMPARE(after->queryInput()(1, 0), before->queryInput()(1, 0) + 1.0f);
        QVERIFY(bitIdentical(after->queryInput().row(0), before->queryInput().row(0)));

        m_document->undoStack()->undo();
        m_document->undoStack()->undo();
        QVERIFY(m_document->scene().embedding.kind == core::EmbeddingKind::Hashed);
        QVERIFY(sameResult(*before, *test::cpuResult(m_document->scene())));
    }

    void positionalEditBecomesTable()
    {
        ui::WeightView view = ui::weightView(m_document->scene(), {ui::WeightKind::Positional});
        QCOMPARE(view.matrix.rows(), 6);
        view.matrix(2, 3) = 5.0f;
        m_document->setWeightMatrix({ui::WeightKind::Positional}, view.matrix);
        QVERIFY(m_document->scene().positional.kind == core::PositionalKind::Table);
        QCOMPARE(test::cpuResult(m_document->scene())->problem->queryPosition(2, 3), 5.0f);
        m_document->undoStack()->undo();
        QVERIFY(m_document->scene().positional.kind == core::PositionalKind::Sinusoidal);
    }

    void modelShapeRedrawsWeightsFromSeed()
    {
        m_document->setHeadEnabled(1, false);
        ui::ModelShape shape = ui::modelShape(m_document->scene());
        QCOMPARE(shape.heads, 2);
        QCOMPARE(shape.dK, 4);
        shape.heads = 4;
        shape.dModel = 16;
        shape.dK = 4;
        shape.dV = 4;
        m_document->setModelShape(shape);
        const core::ModelWeights& w = m_document->scene().weights;
        QCOMPARE(w.headCount(), 4);
        QCOMPARE(w.heads[0].Wq.rows(), 16);
        QVERIFY(!w.heads[1].enabled); // kept
        QVERIFY(w.heads[2].enabled);
        QVERIFY(
            bitIdentical(w.heads[3].Wk,
                         core::makeWeights(16, 4, 4, 4, core::WeightInit::Xavier, 7).heads[3].Wk));
        m_document->undoStack()->undo();
        QCOMPARE(m_document->scene().weights.headCount(), 2);
        QCOMPARE(m_document->scene().weights.dModel, 8);
        shape.heads = 0;
        QVERIFY_THROWS_EXCEPTION(core::Error, m_document->setModelShape(shape));
    }

    void viewIsNotAnUndoStep()
    {
        core::ViewSettings view = m_document->scene().view;
        view.colormap = QStringLiteral("magma");
        m_document->setView(view);
        QCOMPARE(m_document->scene().view.colormap, QStringLiteral("magma"));
        QCOMPARE(m_document->undoStack()->count(), 0);
        QVERIFY(!m_document->isModified());
    }

    void saveThenLoadGivesSameScene()
    {
        core::MaskSpec mask = m_document->scene().mask;
        mask.causal = true;
        mask.customCells = {{2, 1}};
        m_document->setMask(mask);
        m_document->setAttention(core::ScoreKind::Additive, core::Normalization::Sparsemax,
                                 core::MaskFill::MinusNineE15);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("scene.json"));
        core::saveScene(m_document->scene(), path);
        m_document->markSaved(path);
        QVERIFY(!m_document->isModified());
        QCOMPARE(m_document->displayName(), QStringLiteral("scene.json"));
        QCOMPARE(core::sceneToJson(core::loadScene(path)), core::sceneToJson(m_document->scene()));
    }

private:
    std::unique_ptr<ui::SceneDocument> m_document;
};

QTEST_GUILESS_MAIN(TestSceneDocument)
#include "tst_scene_document.moc"
