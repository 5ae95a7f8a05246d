// One stage of one head written as CSV, NPY, JSON and LaTeX, and read back where it can be.
#include "ui/figures/stage_export.h"

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/matrix_io.h"
#include "support/problems.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace attn;

class TestStageExport : public QObject
{
    Q_OBJECT

    std::shared_ptr<const core::AttentionResult> m_result;

private slots:
    void initTestCase()
    {
        core::CpuBackend backend;
        m_result = backend.compute(
            test::handProblem(core::ScoreKind::Dot, core::Normalization::Softmax), {});
    }

    void everyStageHasItsShapeAndLabels()
    {
        const auto& problem = *m_result->problem;
        for (const QString& name : ui::stageNames()) {
            const auto stage = ui::stageMatrix(*m_result, *ui::parseStage(name), 0);
            QVERIFY(stage.matrix);
            QCOMPARE(stage.rowLabels.size(), stage.matrix->rows());
            QVERIFY(stage.columnLabels.isEmpty() ||
                    stage.columnLabels.size() == stage.matrix->cols());
        }
        const auto weights = ui::stageMatrix(*m_result, ui::Stage::Weights, 0);
        QCOMPARE(weights.matrix, &m_result->heads[0].weights);
        QCOMPARE(weights.columnLabels.first(), problem.keyTokens.front().text);
        bool threw = false;
        try {
            ui::stageMatrix(*m_result, ui::Stage::Weights, 7);
        } catch (const core::Error&) {
            threw = true;
        }
        QVERIFY(threw);
    }

    void npyAndCsvReadBackExactly()
    {
        const auto stage = ui::stageMatrix(*m_result, ui::Stage::Weights, 0);
        const core::Matrix npy = core::parseNpy(ui::stageBytes(stage, ui::MatrixFormat::Npy, 3),
                                                QStringLiteral("w.npy"));
        QCOMPARE(npy, *stage.matrix); // bit for bit
        const core::Matrix csv = core::parseCsv(ui::stageBytes(stage, ui::MatrixFormat::Csv, 3),
                                                QStringLiteral("w.csv"));
        QCOMPARE(csv, *stage.matrix); // shortest round-trip digits
    }

    void jsonHoldsLabelsAndValues()
    {
        const auto stage = ui::stageMatrix(*m_result, ui::Stage::Q, 0);
        const QJsonObject o =
            QJsonDocument::fromJson(ui::stageBytes(stage, ui::MatrixFormat::Json, 3)).object();
        QCOMPARE(o[QStringLiteral("name")].toString(), QStringLiteral("head 1 Q"));
        const QJsonArray rows = o[QStringLiteral("values")].toArray();
        QCOMPARE(rows.size(), stage.matrix->rows());
        QCOMPARE(float(rows[1].toArray()[0].toDouble()), (*stage.matrix)(1, 0));
    }

    void latexTableIsATabularWithEscapedLabels()
    {
        core::Matrix m(2, 2);
        m << 0.25f, 0.75f, 1.0f, -std::numeric_limits<float>::infinity();
        const ui::StageMatrix stage{&m,
                                    {QStringLiteral("a_b"), QStringLiteral("50%")},
                                    {QStringLiteral("#1"), QStringLiteral("x")},
                                    QStringLiteral("test")};
        const QString tex =
            QString::fromUtf8(ui::stageBytes(stage, ui::MatrixFormat::LatexTable, 2));
        QVERIFY(tex.contains(QStringLiteral("\\begin{tabular}{lrr}")));
        QVERIFY(tex.contains(QStringLiteral(" & \\#1 & x \\\\")));
        QVERIFY(tex.contains(QStringLiteral("a\\_b & $0.25$ & $0.75$ \\\\")));
        QVERIFY(tex.contains(QStringLiteral("50\\% & $1.00$ & $-\\infty$ \\\\")));
        QVERIFY(tex.trimmed().endsWith(QStringLiteral("\\end{tabular}")));
        const QString pgf =
            QString::fromUtf8(ui::stageBytes(stage, ui::MatrixFormat::LatexPgfplots, 2));
        QVERIFY(pgf.contains(QStringLiteral("mesh/cols=2")));
        QVERIFY(pgf.contains(QStringLiteral("1 0 0.75\n")));
        QVERIFY(pgf.contains(QStringLiteral("xticklabels={{\\#1},{x}}")));
    }
};

QTEST_GUILESS_MAIN(TestStageExport)
#include "tst_stage_export.moc"
