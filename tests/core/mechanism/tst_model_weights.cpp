// The weight initializers of core/model_weights.h, by their defining properties: identity-like
// (head h reads model dimensions h*d_k .. h*d_k + d_k - 1, wrapping), zeros, and seeded Xavier
// (uniform in +-sqrt(6 / (fan_in + fan_out)), Glorot & Bengio 2010, the same for the same seed).

#include "core/model_weights.h"

#include <QTest>

#include <cmath>

using namespace attn;
using core::Matrix;
using core::WeightInit;

namespace {

// The identity-like matrix of initialiseMatrix's comment: column j of head h has its single 1
// in row (h * cols + j) mod rows.
Matrix expectedIdentity(int rows, int cols, int head)
{
    Matrix m = Matrix::Zero(rows, cols);
    for (int j = 0; j < cols; ++j)
        m((head * cols + j) % rows, j) = 1.0f;
    return m;
}

// The projections of every head, and W_O, in one list, named as the scene file names them.
std::vector<std::pair<std::string, const Matrix*>> projections(const core::ModelWeights& w)
{
    std::vector<std::pair<std::string, const Matrix*>> all;
    for (std::size_t h = 0; h < w.heads.size(); ++h) {
        const std::string prefix = "heads[" + std::to_string(h) + "].";
        all.emplace_back(prefix + "W_q", &w.heads[h].Wq);
        all.emplace_back(prefix + "W_k", &w.heads[h].Wk);
        all.emplace_back(prefix + "W_v", &w.heads[h].Wv);
    }
    all.emplace_back("W_o", &w.Wo);
    return all;
}

} // namespace

class TestModelWeights : public QObject
{
    Q_OBJECT
private slots:
    void namesRoundTrip()
    {
        for (WeightInit init : {WeightInit::Xavier, WeightInit::Identity, WeightInit::Zeros})
            QVERIFY(core::parseWeightInit(core::toString(init)) == init);
        QCOMPARE(core::toString(WeightInit::Identity), std::string_view("identity"));
        QVERIFY(!core::parseWeightInit("glorot").has_value());
    }

    void identityLike_data()
    {
        QTest::addColumn<int>("dModel");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("dK");
        QTest::newRow("d_model 8, 2 heads of 4") << 8 << 2 << 4;
        QTest::newRow("d_model 12, 3 heads of 4") << 12 << 3 << 4;
        QTest::newRow("one head, d_k = d_model") << 6 << 1 << 6;
        QTest::newRow("3 heads of 2 over d_model 4: head 2 wraps") << 4 << 3 << 2;
        QTest::newRow("d_k > d_model: rows repeat") << 2 << 1 << 5;
    }
    void identityLike()
    {
        QFETCH(int, dModel);
        QFETCH(int, heads);
        QFETCH(int, dK);
        const core::ModelWeights w =
            core::makeWeights(dModel, heads, dK, dK, WeightInit::Identity, 1);
        QCOMPARE(w.headCount(), heads);
        w.validate();
        for (int h = 0; h < heads; ++h) {
            const core::HeadWeights& head = w.heads[std::size_t(h)];
            const Matrix expected = expectedIdentity(dModel, dK, h);
            QCOMPARE(head.Wq, expected);
            QCOMPARE(head.Wk, expected);
            QCOMPARE(head.Wv, expected);
            // Exactly one 1 per column, zeros elsewhere.
            for (int j = 0; j < dK; ++j) {
                QCOMPARE(head.Wq.col(j).sum(), 1.0f);
                QCOMPARE(head.Wq.col(j).cwiseAbs().maxCoeff(), 1.0f);
                QCOMPARE((head.Wq.col(j).array() == 0.0f).count(), Eigen::Index(dModel - 1));
            }
            // M = I: the bilinear score starts as the dot product.
            QCOMPARE(head.bilinear, Matrix(Matrix::Identity(dK, dK)));
            QCOMPARE(head.bq.size(), Eigen::Index(0)); // no biases
        }
        // W_O (h d_v x d_model) is initialised as "head 0" of its own shape.
        QCOMPARE(w.Wo, expectedIdentity(heads * dK, dModel, 0));
    }

    // When d_model = h * d_k the heads' W_q side by side are the identity: X W_q,h is head h's
    // slice of the model dimensions (seed 003's reshape), and W_O = I.
    void identityHeadsSliceTheModelDimensions()
    {
        const int dModel = 12, heads = 3, dK = 4;
        const core::ModelWeights w =
            core::makeWeights(dModel, heads, dK, dK, WeightInit::Identity, 5);
        Matrix together(dModel, heads * dK);
        for (int h = 0; h < heads; ++h)
            together.middleCols(h * dK, dK) = w.heads[std::size_t(h)].Wq;
        QCOMPARE(together, Matrix(Matrix::Identity(dModel, dModel)));
        QCOMPARE(w.Wo, Matrix(Matrix::Identity(dModel, dModel)));
        Matrix x(2, dModel);
        for (int i = 0; i < x.size(); ++i)
            x.data()[i] = float(i);
        QCOMPARE(Matrix(x * w.heads[1].Wq), Matrix(x.middleCols(4, 4)));
    }

    void zeros()
    {
        const core::ModelWeights w = core::makeWeights(8, 2, 4, 3, WeightInit::Zeros, 9);
        w.validate();
        for (const auto& [name, m] : projections(w)) {
            QVERIFY2(m->size() > 0, name.c_str());
            QVERIFY2(m->isZero(0), name.c_str());
        }
        QCOMPARE(w.Wo.rows(), Eigen::Index(2 * 3));
        QCOMPARE(w.Wo.cols(), Eigen::Index(8));
        for (const core::HeadWeights& head : w.heads) {
            QCOMPARE(head.Wv.cols(), Eigen::Index(3));
            QVERIFY(head.wAdditive.size() == 4 && head.wAdditive.isZero(0));
            QVERIFY(head.bilinear.rows() == 4 && head.bilinear.isZero(0));
        }
        QCOMPARE(w.bo.size(), Eigen::Index(0));
    }

    void xavierStaysWithinItsBound()
    {
        const int dModel = 96, heads = 4, dK = 24, dV = 16;
        const core::ModelWeights w =
            core::makeWeights(dModel, heads, dK, dV, WeightInit::Xavier, 42);
        w.validate();
        for (const auto& [name, m] : projections(w)) {
            // fan_in + fan_out of a rows x cols matrix is rows + cols.
            const double bound = std::sqrt(6.0 / double(m->rows() + m->cols()));
            const double largest = m->cwiseAbs().maxCoeff();
            QVERIFY2(largest <= bound, qPrintable(QStringLiteral("%1: %2 > %3")
                                                      .arg(QString::fromStdString(name))
                                                      .arg(largest)
                                                      .arg(bound)));
            // Uniform over the whole interval, not a sliver of it: over >= 1536 draws the
            // extremes come within 2 % of the bound.
            QVERIFY2(largest > 0.98 * bound, name.c_str());
            QVERIFY2(m->minCoeff() < -0.98 * bound && m->maxCoeff() > 0.98 * bound, name.c_str());
        }
        for (const core::HeadWeights& head : w.heads) {
            const double bound = std::sqrt(6.0 / double(1 + dK)); // w is 1 x d_k
            QVERIFY(head.wAdditive.cwiseAbs().maxCoeff() <= bound);
            QVERIFY(head.wAdditive.cwiseAbs().maxCoeff() > 0);
        }
    }

    // uniform(-a, a) has mean 0 and variance a^2 / 3: Glorot's 2 / (fan_in + fan_out).
    void xavierHasTheGlorotVariance()
    {
        Matrix m(256, 256);
        core::initialiseMatrix(m, WeightInit::Xavier, 3, "W_o");
        const double n = double(m.size());
        const double mean = m.cast<double>().sum() / n;
        const double variance = (m.cast<double>().array() - mean).square().sum() / n;
        const double glorot = 2.0 / (256 + 256);
        // 65,536 draws: the standard error of the mean is 0.0018 a, of the variance 0.35 %.
        QVERIFY2(std::abs(mean) < 0.01 * std::sqrt(6.0 / 512), qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(variance / glorot - 1) < 0.02,
                 qPrintable(QString::number(variance / glorot)));
    }

    void xavierIsDeterministicPerSeed()
    {
        const auto a = core::makeWeights(16, 2, 8, 8, WeightInit::Xavier, 1234);
        const auto b = core::makeWeights(16, 2, 8, 8, WeightInit::Xavier, 1234);
        QVERIFY(a == b);
        const auto c = core::makeWeights(16, 2, 8, 8, WeightInit::Xavier, 1235);
        for (std::size_t h = 0; h < 2; ++h) {
            QVERIFY(a.heads[h].Wq != c.heads[h].Wq);
            QVERIFY(a.heads[h].Wk != c.heads[h].Wk);
            QVERIFY(a.heads[h].Wv != c.heads[h].Wv);
        }
        QVERIFY(a.Wo != c.Wo);
        // Every matrix has its own stream: no two are equal, and W_q is not W_k of the same head.
        QVERIFY(a.heads[0].Wq != a.heads[0].Wk);
        QVERIFY(a.heads[0].Wq != a.heads[1].Wq);
        // Keyed by name: the same name and seed give the same matrix outside makeWeights.
        Matrix alone(16, 8);
        core::initialiseMatrix(alone, WeightInit::Xavier, 1234, "heads[1].W_v", 1);
        QCOMPARE(alone, a.heads[1].Wv);
    }

    // model_weights.h: head 0 keeps its weights when the number of heads changes.
    void xavierHeadZeroIgnoresTheHeadCount()
    {
        const auto two = core::makeWeights(16, 2, 8, 8, WeightInit::Xavier, 77);
        const auto five = core::makeWeights(16, 5, 8, 8, WeightInit::Xavier, 77);
        QVERIFY(two.heads[0] == five.heads[0]);
        QVERIFY(two.heads[1] == five.heads[1]);
    }

    void initialiseMatrixReplacesTheOldValues()
    {
        Matrix m = Matrix::Constant(3, 5, 7.0f);
        core::initialiseMatrix(m, WeightInit::Zeros, 1, "x");
        QVERIFY(m.isZero(0));
        m.setConstant(7.0f);
        core::initialiseMatrix(m, WeightInit::Identity, 1, "x", 1);
        QCOMPARE(m, expectedIdentity(3, 5, 1));
    }
};

QTEST_GUILESS_MAIN(TestModelWeights)
#include "tst_model_weights.moc"
