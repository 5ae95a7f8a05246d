// The 4-token example of seed 001 worked by hand (tests/support/problems.h): every Q, K, V,
// score, weight and output equals the value derived on paper.

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/mask.h"
#include "support/problems.h"

#include <QTest>
#include <cmath>

using namespace attn;
using core::Matrix;
using core::Normalization;
using core::ScoreKind;

namespace {

Matrix rows4(std::initializer_list<std::initializer_list<double>> values)
{
    Matrix m(int(values.size()), int(values.begin()->size()));
    int i = 0;
    for (const auto& row : values) {
        int j = 0;
        for (double v : row)
            m(i, j++) = float(v);
        ++i;
    }
    return m;
}

void expectNear(const Matrix& actual, const Matrix& expected, double tolerance, const char* what)
{
    QVERIFY2(actual.rows() == expected.rows() && actual.cols() == expected.cols(), what);
    for (int i = 0; i < actual.rows(); ++i)
        for (int j = 0; j < actual.cols(); ++j)
            if (actual(i, j) != expected(i, j) && // equal infinities pass
                !(std::abs(double(actual(i, j)) - double(expected(i, j))) <= tolerance))
                QFAIL(qPrintable(QStringLiteral("%1(%2,%3): got %4, expected %5")
                                     .arg(what)
                                     .arg(i)
                                     .arg(j)
                                     .arg(double(actual(i, j)), 0, 'g', 9)
                                     .arg(double(expected(i, j)), 0, 'g', 9)));
}

// softmax of a row given as doubles
std::vector<double> softmax(std::vector<double> row)
{
    double max = *std::max_element(row.begin(), row.end());
    double sum = 0;
    for (double& v : row)
        sum += (v = std::exp(v - max));
    for (double& v : row)
        v /= sum;
    return row;
}

Matrix weightsFromRows(const std::vector<std::vector<double>>& rows)
{
    Matrix m(int(rows.size()), int(rows[0].size()));
    for (int i = 0; i < m.rows(); ++i)
        for (int j = 0; j < m.cols(); ++j)
            m(i, j) = float(rows[std::size_t(i)][std::size_t(j)]);
    return m;
}

const Matrix kV = rows4({{1, 2}, {0, 1}, {2, 0}, {1, 1}});
const Matrix kWo = rows4({{1, 0, 1, 0}, {0, 1, 0, 1}});

// handProblemWithBiases by hand (tests/support/problems.h).
const Matrix kQBiased = rows4({{1, 1}, {0, 2}, {1, 2}, {0, 1}});
const Matrix kKBiased = rows4({{2, 0}, {1, 1}, {1, 0}, {2, 1}});
const Matrix kVBiased = rows4({{0, 3}, {-1, 2}, {1, 1}, {0, 2}});
const Matrix kBiasedScores = rows4({{2, 2, 1, 3}, {0, 2, 0, 2}, {2, 3, 1, 4}, {0, 1, 0, 1}});
const Matrix kBoBiased = rows4({{1, 0, -1, 2}});

std::shared_ptr<const core::AttentionResult> run(const std::shared_ptr<core::Problem>& p)
{
    return core::CpuBackend().compute(p, {});
}

} // namespace

class TestCpuBackend : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void projections()
    {
        auto r = run(test::handProblem(ScoreKind::Dot, Normalization::Softmax));
        const auto& h = r->heads[0];
        expectNear(h.Q, rows4({{1, 0}, {0, 1}, {1, 1}, {0, 0}}), 0, "Q");
        expectNear(h.K, rows4({{1, 0}, {0, 1}, {0, 0}, {1, 1}}), 0, "K");
        expectNear(h.V, kV, 0, "V");
        QCOMPARE(r->backend, std::string("CPU"));
    }

    // X_q = E + P and X_kv as the backend uses them: with positions (X = I + 0.5, so each row of
    // Q and K is W's row plus half of W's column sums, (2, 2) for both), without them (X is the
    // problem's own E, not a copy), and with a source sentence of rows 1 and 4 of I.
    void inputsWithAndWithoutPositions()
    {
        auto plain = test::handProblem(ScoreKind::Dot, Normalization::Softmax);
        auto r = run(plain);
        QCOMPARE(&r->queryInput(), &r->problem->queryEmbedding);
        QCOMPARE(&r->keyInput(), &r->problem->queryEmbedding);
        QCOMPARE(r->storedQueryInput.size(), 0);

        auto positioned = test::handProblem(ScoreKind::Dot, Normalization::Softmax);
        positioned->queryPosition = Matrix::Constant(4, 4, 0.5f);
        r = run(positioned);
        expectNear(r->queryInput(), Matrix(Matrix::Identity(4, 4).array() + 0.5f), 0, "X_q");
        QCOMPARE(&r->keyInput(), &r->queryInput());
        expectNear(r->heads[0].Q, rows4({{2, 1}, {1, 2}, {2, 2}, {1, 1}}), 0, "Q");
        expectNear(r->heads[0].K, rows4({{2, 1}, {1, 2}, {1, 1}, {2, 2}}), 0, "K");

        auto cross = test::handProblem(ScoreKind::Dot, Normalization::Softmax);
        cross->cross = true;
        cross->keyTokens = test::tokensOf({"This", "cat"});
        cross->keyIsPadding.assign(2, false);
        cross->keyEmbedding = rows4({{1, 0, 0, 0}, {0, 0, 0, 1}});
        r = run(cross);
        expectNear(r->keyInput(), cross->keyEmbedding, 0, "X_kv");
        expectNear(r->heads[0].K, rows4({{1, 0}, {1, 1}}), 0, "K");
        expectNear(r->heads[0].V, rows4({{1, 2}, {1, 1}}), 0, "V");

        cross->keyPosition = Matrix::Zero(2, 4); // the keys' positions without the queries'
        QVERIFY_THROWS_EXCEPTION(core::Error, run(cross));
        auto uneven = test::handProblem(ScoreKind::Dot, Normalization::Softmax);
        uneven->keyTokens.pop_back(); // self-attention: the keys are the queries
        uneven->keyIsPadding.pop_back();
        try {
            run(uneven);
            QFAIL("a self-attention problem with 3 keys for 4 queries computed");
        } catch (const core::Error& e) {
            QCOMPARE(QString::fromUtf8(e.what()),
                     QStringLiteral("self-attention: 3 key tokens for 4 queries"));
        }
    }

    void dotSoftmax()
    {
        auto r = run(test::handProblem(ScoreKind::Dot, Normalization::Softmax));
        const auto& h = r->heads[0];
        const Matrix scores = rows4({{1, 0, 0, 1}, {0, 1, 0, 1}, {1, 1, 0, 2}, {0, 0, 0, 0}});
        expectNear(h.rawScores, scores, 0, "raw");
        expectNear(h.scaledScores, scores, 0, "scaled (dot: no scaling)");
        expectNear(h.maskedScores, scores, 0, "masked (no mask)");
        // Row 1 by hand: [e, 1, 1, e] / (2e + 2).
        const double e = std::exp(1.0);
        QCOMPARE_LE(std::abs(h.weights(0, 0) - e / (2 * e + 2)), 1e-7);
        QCOMPARE_LE(std::abs(h.weights(0, 1) - 1 / (2 * e + 2)), 1e-7);
        // Row 4: all scores equal, so uniform.
        for (int j = 0; j < 4; ++j)
            QCOMPARE(h.weights(3, j), 0.25f);
        const Matrix w = weightsFromRows({softmax({1, 0, 0, 1}), softmax({0, 1, 0, 1}),
                                          softmax({1, 1, 0, 2}), softmax({0, 0, 0, 0})});
        expectNear(h.weights, w, 1e-7, "weights");
        // b_1 = (e v1 + v2 + v3 + e v4) / (2e + 2) = (1, (3e + 1) / (2e + 2)).
        QCOMPARE_LE(std::abs(h.output(0, 0) - 1.0), 1e-6);
        QCOMPARE_LE(std::abs(h.output(0, 1) - (3 * e + 1) / (2 * e + 2)), 1e-6);
        expectNear(h.output, Matrix(w * kV), 1e-6, "output");
        expectNear(r->concat(), h.output, 0, "concat");
        expectNear(r->output, Matrix(h.output * kWo), 1e-6, "output * W_o");
        QCOMPARE(r->output(0, 2), r->output(0, 0)); // W_o copies (o1, o2) twice
    }

    void scaledSoftmax()
    {
        auto r = run(test::handProblem(ScoreKind::ScaledDot, Normalization::Softmax));
        const auto& h = r->heads[0];
        const double s = 1 / std::sqrt(2.0); // d_k = 2
        expectNear(h.rawScores, rows4({{1, 0, 0, 1}, {0, 1, 0, 1}, {1, 1, 0, 2}, {0, 0, 0, 0}}), 0,
                   "raw");
        expectNear(h.scaledScores,
                   rows4({{s, 0, 0, s}, {0, s, 0, s}, {s, s, 0, 2 * s}, {0, 0, 0, 0}}), 1e-7,
                   "scaled");
        const Matrix w = weightsFromRows({softmax({s, 0, 0, s}), softmax({0, s, 0, s}),
                                          softmax({s, s, 0, 2 * s}), softmax({0, 0, 0, 0})});
        expectNear(h.weights, w, 1e-7, "weights");
        expectNear(h.output, Matrix(w * kV), 1e-6, "output");
    }

    void additive()
    {
        // e_ij = w . tanh(q_i + k_j) with w = (1, -1): tanh(q1 + k1) - tanh(q2 + k2).
        auto r = run(test::handProblem(ScoreKind::Additive, Normalization::Softmax));
        const auto& h = r->heads[0];
        const double t1 = std::tanh(1.0), t2 = std::tanh(2.0);
        const std::vector<std::vector<double>> e = {
            {t2, 0, t1, t2 - t1},                 // q = (1,0)
            {0, -t2, -t1, t1 - t2},               // q = (0,1): tanh(0 + k1) - tanh(1 + k2)
            {t2 - t1, t1 - t2, t1 - t1, t2 - t2}, // q = (1,1)
            {t1, -t1, 0, t1 - t1},                // q = (0,0)
        };
        expectNear(h.rawScores, weightsFromRows(e), 1e-6, "additive scores");
        const Matrix w =
            weightsFromRows({softmax(e[0]), softmax(e[1]), softmax(e[2]), softmax(e[3])});
        expectNear(h.weights, w, 1e-6, "weights");
        expectNear(h.output, Matrix(w * kV), 1e-5, "output");
    }

    void hard()
    {
        // Seed 000: one-hot at the argmax; ties go to the lowest index.
        auto r = run(test::handProblem(ScoreKind::Dot, Normalization::Hard));
        const auto& h = r->heads[0];
        expectNear(h.weights, rows4({{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 1}, {1, 0, 0, 0}}), 0,
                   "hard");
        expectNear(h.output, rows4({{1, 2}, {0, 1}, {1, 1}, {1, 2}}), 0, "output picks v");
    }

    void relu()
    {
        // Seed 001's ReLU: max(s, 0) / sum; row 4 has no positive score and stays all 0.
        auto r = run(test::handProblem(ScoreKind::Dot, Normalization::Relu));
        const auto& h = r->heads[0];
        expectNear(h.weights,
                   rows4({{.5, 0, 0, .5}, {0, .5, 0, .5}, {.25, .25, 0, .5}, {0, 0, 0, 0}}), 0,
                   "relu");
        QCOMPARE(r->diagnostics.zeroSumRows, std::vector<int>{3});
        expectNear(h.output, rows4({{1, 1.5}, {.5, 1}, {.75, 1.25}, {0, 0}}), 1e-7, "output");
    }

    void sparsemax()
    {
        // [1 0 0 1]: support {0,3}, tau = 0.5. [1 1 0 2]: support {3}, tau = 1. [0 0 0 0]: tau =
        // -1/4.
        auto r = run(test::handProblem(ScoreKind::Dot, Normalization::Sparsemax));
        expectNear(r->heads[0].weights,
                   rows4({{.5, 0, 0, .5}, {0, .5, 0, .5}, {0, 0, 0, 1}, {.25, .25, .25, .25}}),
                   1e-7, "sparsemax");
    }

    // No normalization (seed 004's (X X^T) V), worked by hand: the weights are the scaled
    // scores Q K^T / sqrt(2) themselves, and a masked cell weighs exactly 0 under either fill.
    void noNormalization_data()
    {
        QTest::addColumn<int>("fill");
        QTest::newRow("-inf") << int(core::MaskFill::NegativeInfinity);
        QTest::newRow("-9e15") << int(core::MaskFill::MinusNineE15);
    }
    void noNormalization()
    {
        QFETCH(int, fill);
        auto p = test::handProblem(ScoreKind::ScaledDot, Normalization::None);
        p->fill = core::MaskFill(fill);
        const double s = 1 / std::sqrt(2.0);
        // Q K^T = [1 0 0 1; 0 1 0 1; 1 1 0 2; 0 0 0 0]; (Q K^T) V with V = (1,2) (0,1) (2,0) (1,1).
        auto r = run(p);
        expectNear(r->heads[0].weights,
                   rows4({{s, 0, 0, s}, {0, s, 0, s}, {s, s, 0, 2 * s}, {0, 0, 0, 0}}), 1e-7,
                   "weights = scaled scores");
        expectNear(r->heads[0].output, rows4({{2 * s, 3 * s}, {s, 2 * s}, {3 * s, 5 * s}, {0, 0}}),
                   1e-6, "output");
        QVERIFY(r->diagnostics.warnings.empty());

        p->mask.causal = true;
        auto causal = run(p);
        expectNear(causal->heads[0].weights,
                   rows4({{s, 0, 0, 0}, {0, s, 0, 0}, {s, s, 0, 0}, {0, 0, 0, 0}}), 1e-7, "causal");
        for (int i = 0; i < 4; ++i)
            for (int j = i + 1; j < 4; ++j)
                QCOMPARE(causal->heads[0].weights(i, j), 0.0f); // exactly 0, not -9e15
        expectNear(causal->heads[0].output, rows4({{s, 2 * s}, {0, s}, {s, 3 * s}, {0, 0}}), 1e-6,
                   "causal output");

        // A row with every key masked is all zeros under either fill, and reported.
        p->mask.causal = false;
        p->mask.customCells = {{2, 0}, {2, 1}, {2, 2}, {2, 3}};
        auto masked = run(p);
        QCOMPARE(masked->diagnostics.fullyMaskedRows, std::vector<int>{2});
        QVERIFY(QString::fromStdString(masked->diagnostics.warnings.front())
                    .contains(QStringLiteral("all 0")));
        for (int j = 0; j < 4; ++j)
            QCOMPARE(masked->heads[0].weights(2, j), 0.0f);
    }

    void bilinearWithIdentityEqualsDot()
    {
        auto p = test::handProblem(ScoreKind::Bilinear, Normalization::Softmax);
        auto bilinear = run(p);
        expectNear(bilinear->heads[0].rawScores,
                   rows4({{1, 0, 0, 1}, {0, 1, 0, 1}, {1, 1, 0, 2}, {0, 0, 0, 0}}), 0, "q^T I k");
        p->editWeights().heads[0].bilinear << 0, 1, 1, 0; // q^T M k swaps k's coordinates
        auto swapped = run(p);
        expectNear(swapped->heads[0].rawScores,
                   rows4({{0, 1, 0, 1}, {1, 0, 0, 1}, {1, 1, 0, 2}, {0, 0, 0, 0}}), 0, "q^T M k");
    }

    void cosine()
    {
        auto r = run(test::handProblem(ScoreKind::Cosine, Normalization::Softmax));
        const double c = 1 / std::sqrt(2.0);
        // q4 = 0 and k3 = 0: cosine with a zero vector is 0 by definition.
        expectNear(r->heads[0].rawScores,
                   rows4({{1, 0, 0, c}, {0, 1, 0, c}, {c, c, 0, 1}, {0, 0, 0, 0}}), 1e-6, "cosine");
    }

    // Each rule asked alone: on 4 tokens, causal with a window of 1, key 4 padding and cell
    // (1, 3) masked by hand. Cell (1, 4): j > i, |1 - 4| > 1 and padding, not by hand; (1, 3):
    // every rule but padding; (2, 1): none (j < i, within the window).
    void maskRulesSayWhichRuleMasksACell()
    {
        core::MaskSpec spec;
        spec.causal = true;
        spec.window = 1;
        spec.customCells = {{0, 2}};
        const std::vector<bool> padding{false, false, false, true};
        auto rules = [&](int i, int j) {
            const core::MaskRules r = core::maskRulesAt(spec, padding, 4, 4, i, j);
            return QString::fromLatin1("%1%2%3%4")
                .arg(r.causal ? "c" : "-", r.window ? "w" : "-", r.padding ? "p" : "-",
                     r.custom ? "h" : "-");
        };
        QCOMPARE(rules(0, 3), QStringLiteral("cwp-"));
        QCOMPARE(rules(0, 2), QStringLiteral("cw-h"));
        QCOMPARE(rules(1, 0), QStringLiteral("----"));
        spec.padding = false; // the flag switches the padding rule off
        QCOMPARE(rules(0, 3), QStringLiteral("cw--"));
    }

    void causalMask()
    {
        auto p = test::handProblem(ScoreKind::Dot, Normalization::Softmax);
        p->mask.causal = true;
        auto r = run(p);
        const auto& h = r->heads[0];
        const double inf = std::numeric_limits<double>::infinity();
        expectNear(h.maskedScores.topRows(1), rows4({{1, -inf, -inf, -inf}}), 0, "masked row 1");
        const std::vector<double> row3 = softmax({1, 1, 0});
        expectNear(
            h.weights,
            weightsFromRows({{1, 0, 0, 0},
                             {1 / (1 + std::exp(1.0)), std::exp(1.0) / (1 + std::exp(1.0)), 0, 0},
                             {row3[0], row3[1], row3[2], 0},
                             {.25, .25, .25, .25}}),
            1e-7, "causal");
        for (int i = 0; i < 4; ++i)
            for (int j = i + 1; j < 4; ++j)
                QCOMPARE(h.weights(i, j), 0.0f); // exactly zero
    }

    void windowAndPadding()
    {
        auto p = test::handProblem(ScoreKind::Dot, Normalization::Softmax);
        p->mask.window = 1;
        p->keyIsPadding = {false, false, false, true};
        auto r = run(p);
        const auto& w = r->heads[0].weights;
        // Row 1 sees keys 0,1; row 4 sees keys 2,3 but 3 is padding: key 2 alone.
        const std::vector<double> r1 = softmax({1, 0});
        QCOMPARE_LE(std::abs(w(0, 0) - r1[0]), 1e-7);
        QCOMPARE(w(0, 2), 0.0f);
        QCOMPARE(w(0, 3), 0.0f);
        QCOMPARE(w(3, 2), 1.0f);
        QCOMPARE(w(3, 3), 0.0f);
        QCOMPARE(w(2, 0), 0.0f);
        // One-sided (causal) window of 1: row 3 sees keys 1, 2.
        p->mask.windowCausal = true;
        p->keyIsPadding.assign(4, false);
        auto c = run(p);
        const std::vector<double> r3 = softmax({1, 0});
        QCOMPARE_LE(std::abs(c->heads[0].weights(2, 1) - r3[0]), 1e-7);
        QCOMPARE(c->heads[0].weights(2, 0), 0.0f);
        QCOMPARE(c->heads[0].weights(2, 3), 0.0f);
    }

    void fullyMaskedRow_data()
    {
        QTest::addColumn<int>("fill");
        QTest::addColumn<float>("expected");
        QTest::newRow("-inf: zeros") << int(core::MaskFill::NegativeInfinity) << 0.0f;
        QTest::newRow("-9e15: uniform, as PyTorch") << int(core::MaskFill::MinusNineE15) << 0.25f;
    }
    void fullyMaskedRow()
    {
        QFETCH(int, fill);
        QFETCH(float, expected);
        for (Normalization n : {Normalization::Softmax, Normalization::Sparsemax}) {
            auto p = test::handProblem(ScoreKind::Dot, n);
            p->fill = core::MaskFill(fill);
            p->mask.customCells = {{1, 0}, {1, 1}, {1, 2}, {1, 3}};
            auto r = run(p);
            QCOMPARE(r->diagnostics.fullyMaskedRows, std::vector<int>{1});
            QVERIFY(!r->diagnostics.warnings.empty());
            for (int j = 0; j < 4; ++j)
                QCOMPARE(r->heads[0].weights(1, j), expected);
            QVERIFY(r->output.allFinite());
            QCOMPARE(r->heads[0].maskedScores(1, 2), core::maskFillValue(core::MaskFill(fill)));
        }
    }

    void nonFiniteScoresAreReported()
    {
        auto p = test::handProblem(ScoreKind::Dot, Normalization::Softmax);
        p->editWeights().heads[0].Wq *= 1e30f; // finite weights whose products overflow float32
        p->editWeights().heads[0].Wk *= 1e30f;
        auto r = run(p);
        QVERIFY(r->diagnostics.nonFinite);
        QVERIFY(!r->diagnostics.nonFiniteWhere.empty());
        // Row 1 scores are [+inf, 0, 0, +inf]: the limit shares the row between the two.
        QCOMPARE(r->heads[0].weights(0, 0), 0.5f);
        QCOMPARE(r->heads[0].weights(0, 3), 0.5f);
        QCOMPARE(r->heads[0].weights(0, 1), 0.0f);
    }

    // The optional biases: Q = X W_q + b_q, K = X W_k + b_k, V = X W_v + b_v and
    // Z = concat W_O + b_O, worked by hand on tests/support/problems.h's handProblemWithBiases.
    void biasesByHand()
    {
        auto r = run(test::handProblemWithBiases(ScoreKind::Dot, Normalization::Relu));
        const auto& h = r->heads[0];
        expectNear(h.Q, kQBiased, 0, "Q = W_q + b_q");
        expectNear(h.K, kKBiased, 0, "K = W_k + b_k");
        expectNear(h.V, kVBiased, 0, "V = W_v + b_v");
        // q1 = (1,1): 1*2 + 1*0 = 2, 1*1 + 1*1 = 2, 1*1 + 1*0 = 1, 1*2 + 1*1 = 3; and so on.
        expectNear(h.rawScores, kBiasedScores, 0, "raw");
        expectNear(h.scaledScores, kBiasedScores, 0, "scaled (dot: no scaling)");
        expectNear(h.maskedScores, kBiasedScores, 0, "masked (no mask)");
        // Every score is >= 0, so ReLU divides each row by its sum: 8, 4, 10, 2.
        expectNear(
            h.weights,
            rows4({{.25, .25, .125, .375}, {0, .5, 0, .5}, {.2, .3, .1, .4}, {0, .5, 0, .5}}), 1e-7,
            "weights");
        // b_1 = v1/4 + v2/4 + v3/8 + 3 v4/8 = (0 - 2 + 1 + 0, 6 + 4 + 1 + 6) / 8 = (-1/8, 17/8)
        // b_2 = b_4 = (v2 + v4)/2 = (-1/2, 2)
        // b_3 = (2 v1 + 3 v2 + v3 + 4 v4)/10 = (0 - 3 + 1 + 0, 6 + 6 + 1 + 8)/10 = (-1/5, 21/10)
        const Matrix heads = rows4({{-.125, 2.125}, {-.5, 2}, {-.2, 2.1}, {-.5, 2}});
        expectNear(h.output, heads, 1e-6, "head output");
        expectNear(r->concat(), heads, 1e-6, "concat");
        // W_O copies (a, b) to (a, b, a, b); b_O = (1, 0, -1, 2) gives (a + 1, b, a - 1, b + 2).
        expectNear(r->output,
                   rows4({{.875, 2.125, -1.125, 4.125},
                          {.5, 2, -1.5, 4},
                          {.8, 2.1, -1.2, 4.1},
                          {.5, 2, -1.5, 4}}),
                   1e-6, "output = concat W_O + b_O");
    }

    void biasesByHandSoftmaxAndHard()
    {
        auto r = run(test::handProblemWithBiases(ScoreKind::ScaledDot, Normalization::Softmax));
        const auto& h = r->heads[0];
        const double s = 1 / std::sqrt(2.0); // d_k = 2
        expectNear(h.rawScores, kBiasedScores, 0, "raw");
        expectNear(h.scaledScores, Matrix(kBiasedScores * float(s)), 1e-7, "scaled");
        // Row 2: scaled scores (0, 2s, 0, 2s), so weights (1, c, 1, c) / (2 + 2c) with c = e^(2s);
        // b_2 = (c (-1) + 1, 3 + 2c + 1 + 2c) / (2 + 2c) = ((1 - c) / (2 + 2c), 2).
        const double c = std::exp(2 * s);
        QCOMPARE_LE(std::abs(h.weights(1, 0) - 1 / (2 + 2 * c)), 1e-7);
        QCOMPARE_LE(std::abs(h.weights(1, 1) - c / (2 + 2 * c)), 1e-7);
        QCOMPARE_LE(std::abs(h.output(1, 0) - (1 - c) / (2 + 2 * c)), 1e-6);
        QCOMPARE_LE(std::abs(h.output(1, 1) - 2.0), 1e-6);
        // The other rows: the softmax of the hand-computed scaled scores, times the hand V.
        const Matrix w =
            weightsFromRows({softmax({2 * s, 2 * s, s, 3 * s}), softmax({0, 2 * s, 0, 2 * s}),
                             softmax({2 * s, 3 * s, s, 4 * s}), softmax({0, s, 0, s})});
        expectNear(h.weights, w, 1e-7, "weights");
        expectNear(h.output, Matrix(w * kVBiased), 1e-6, "head output");
        expectNear(r->output, Matrix((w * kVBiased) * kWo + kBoBiased.replicate(4, 1)), 1e-6,
                   "output");

        // Hard: the argmax of (2 2 1 3), (0 2 0 2), (2 3 1 4), (0 1 0 1) is key 3, 1 (tie: the
        // lowest), 3, 1, so the head outputs are v4 = (0, 2), v2 = (-1, 2), v4, v2.
        auto hard = run(test::handProblemWithBiases(ScoreKind::Dot, Normalization::Hard));
        expectNear(hard->heads[0].weights,
                   rows4({{0, 0, 0, 1}, {0, 1, 0, 0}, {0, 0, 0, 1}, {0, 1, 0, 0}}), 0, "hard");
        expectNear(hard->output,
                   rows4({{1, 2, -1, 4}, {0, 2, -2, 4}, {1, 2, -1, 4}, {0, 2, -2, 4}}), 0,
                   "hard output");
    }

    void setCancelFlagStopsTheCompute()
    {
        std::atomic<bool> cancel{true};
        core::ComputeOptions options;
        options.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(
            core::Cancelled,
            core::CpuBackend().compute(test::randomProblem(300, 300, 32, 4, 3, false), options));
        cancel = false; // a flag that is clear changes nothing
        const auto result =
            core::CpuBackend().compute(test::randomProblem(300, 300, 32, 4, 3, false), options);
        QCOMPARE(result->heads.size(), std::size_t(4));
    }

    // A per-head score bias is part of the raw score (q.k + b), scaled with it by 1/T, before
    // the mask: tests/support/problems.h's scores worked by hand.
    void scoreBiasIsAddedPerHead_data()
    {
        QTest::addColumn<bool>("keep");
        QTest::addColumn<float>("temperature");
        QTest::newRow("kept, T = 1") << true << 1.0f;
        QTest::newRow("weights only, T = 1") << false << 1.0f;
        QTest::newRow("kept, T = 2") << true << 2.0f;
    }

    void scoreBiasIsAddedPerHead()
    {
        QFETCH(bool, keep);
        QFETCH(float, temperature);
        auto p = test::handProblemWithScoreBias();
        p->temperature = temperature;
        core::ComputeOptions options;
        options.keepIntermediates = keep;
        const auto r = core::CpuBackend().compute(p, options);
        const Matrix raw0 = rows4({{1, 1, -1, 3}, {1, 1, 0, -1}, {3, 1, 1, 2}, {-1, 2, 0, 3}});
        const Matrix raw1 = rows4({{1, -1, 1, -1}, {-1, 1, 0, 3}, {-1, 1, -1, 2}, {1, -2, 0, -3}});
        const double t = double(temperature);
        // Causal: row i weighs keys 0..i, softmax(raw / T).
        auto causal = [t](const std::vector<std::vector<double>>& rows) {
            std::vector<std::vector<double>> w;
            for (const auto& row : rows) {
                std::vector<double> scaled;
                for (double v : row)
                    scaled.push_back(v / t);
                std::vector<double> out = softmax(scaled);
                out.resize(4, 0.0);
                w.push_back(out);
            }
            return weightsFromRows(w);
        };
        expectNear(r->heads[0].weights, causal({{1}, {1, 1}, {3, 1, 1}, {-1, 2, 0, 3}}), 1e-6,
                   "head 0 weights");
        expectNear(r->heads[1].weights, causal({{1}, {-1, 1}, {-1, 1, -1}, {1, -2, 0, -3}}), 1e-6,
                   "head 1 weights");
        if (keep) {
            expectNear(r->heads[0].rawScores, raw0, 0, "head 0 raw");
            expectNear(r->heads[1].rawScores, raw1, 0, "head 1 raw");
            expectNear(r->heads[1].scaledScores, Matrix(raw1 / temperature), 0, "head 1 scaled");
        }

        // Every value checked, the shape too.
        auto wrong = test::handProblemWithScoreBias();
        wrong->scoreBias = std::make_shared<const Matrix>(Matrix::Zero(4, 4));
        try {
            run(wrong);
            QFAIL("a 4x4 bias for two heads computed");
        } catch (const core::Error& e) {
            QCOMPARE(QString::fromUtf8(e.what()),
                     QStringLiteral("score bias: expected 8x4 (heads x queries, keys), got 4x4"));
        }
    }

    void disabledHeadContributesZeros()
    {
        auto p = test::handProblem(ScoreKind::Dot, Normalization::Softmax);
        p->editWeights().heads[0].enabled = false;
        auto r = run(p);
        QCOMPARE(r->concat(), Matrix(Matrix::Zero(4, 2)));
        QCOMPARE(r->output, Matrix(Matrix::Zero(4, 4)));
        QVERIFY(r->heads[0].output.norm() > 0); // its own output is still shown
    }
};

QTEST_GUILESS_MAIN(TestCpuBackend)
#include "tst_cpu_backend.moc"
