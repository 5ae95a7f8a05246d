// The CPU backend's GEMM (core/kernels/gemm.h) against a double-precision product, on every
// instruction set this CPU has: shapes around the kernels' panel and row sizes, column groups,
// biases, transposed output, the fused activation, dot products of a few rows, and the promise
// that a value's summation order depends on K alone.
#include "core/kernels/gemm.h"
#include "core/random.h"

#include <QTest>

#include <cmath>
#include <vector>

using attn::core::GemmColumns;
using attn::core::GemmOptions;
using attn::core::Matrix;
using attn::core::RowVector;

namespace {

Matrix randomMatrix(int rows, int cols, std::uint64_t seed)
{
    attn::core::Random random(seed);
    Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = float(random.uniform() * 2.0 - 1.0);
    return m;
}

// |C - A B| within the bound of a k-term float sum: (k + 2) u sum_q |a_iq| |b_qj|, plus the bias.
bool closeToProduct(const Matrix& c, const Matrix& a, const Matrix& b, const RowVector& bias,
                    QString* where)
{
    const Eigen::MatrixXd exact = a.cast<double>() * b.cast<double>();
    const Eigen::MatrixXd scale = a.cast<double>().cwiseAbs() * b.cast<double>().cwiseAbs();
    const double u = std::ldexp(1.0, -24);
    for (Eigen::Index i = 0; i < c.rows(); ++i)
        for (Eigen::Index j = 0; j < c.cols(); ++j) {
            const double expected = exact(i, j) + (bias.size() ? double(bias(j)) : 0.0);
            const double bound =
                double(a.cols() + 2) * u * (scale(i, j) + std::abs(expected)) + 1e-30;
            if (!(std::abs(double(c(i, j)) - expected) <= bound)) {
                *where = QStringLiteral("(%1, %2): %3, expected %4")
                             .arg(i)
                             .arg(j)
                             .arg(c(i, j))
                             .arg(expected);
                return false;
            }
        }
    return true;
}

const char* const kKernels[] = {"avx512", "avx2", "eigen"};

} // namespace

class TestGemm : public QObject
{
    Q_OBJECT

private slots:
    void cleanup() { attn::core::useGemmKernels("avx512") || attn::core::useGemmKernels("avx2"); }

    void product_data()
    {
        QTest::addColumn<QString>("kernels");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("n");
        for (const char* kernels : kKernels)
            for (const auto& [m, k, n] : std::vector<std::tuple<int, int, int>>{{1, 1, 1},
                                                                                {1, 768, 1},
                                                                                {5, 17, 16},
                                                                                {6, 64, 64},
                                                                                {7, 3, 65},
                                                                                {8, 100, 48},
                                                                                {13, 513, 47},
                                                                                {32, 768, 200},
                                                                                {193, 64, 96},
                                                                                {200, 1100, 130},
                                                                                {37, 1537, 64}})
                QTest::addRow("%s %dx%dx%d", kernels, m, k, n) << QString(kernels) << m << k << n;
    }
    void product()
    {
        QFETCH(QString, kernels);
        QFETCH(int, m);
        QFETCH(int, k);
        QFETCH(int, n);
        if (!attn::core::useGemmKernels(kernels.toStdString()))
            QSKIP("this CPU lacks these instructions");
        const Matrix a = randomMatrix(m, k, 1);
        const Matrix b = randomMatrix(k, n, 2);
        const RowVector bias = randomMatrix(1, n, 3);
        Matrix c = Matrix::Constant(m, n, NAN);
        const GemmColumns columns{b.data(), b.cols(), c.data(), c.cols(), 1, bias.data(), n};
        attn::core::gemm(a.data(), a.cols(), m, k, {&columns, 1});
        QString where;
        QVERIFY2(closeToProduct(c, a, b, bias, &where), qPrintable(where));
        QVERIFY(closeToProduct(attn::core::multiply(a, b), a, b, RowVector(), &where));
    }

    // Every head's W_q, W_k and W_v (64 wide each) into separate outputs, as the projections do.
    void columnGroups_data()
    {
        QTest::addColumn<QString>("kernels");
        for (const char* kernels : kKernels)
            QTest::newRow(kernels) << QString(kernels);
    }
    void columnGroups()
    {
        QFETCH(QString, kernels);
        if (!attn::core::useGemmKernels(kernels.toStdString()))
            QSKIP("this CPU lacks these instructions");
        const int m = 45;
        const int k = 96;
        const Matrix a = randomMatrix(m, k, 4);
        std::vector<Matrix> weights;
        std::vector<Matrix> outputs;
        std::vector<RowVector> biases;
        std::vector<GemmColumns> groups;
        for (int g = 0; g < 9; ++g) {
            const int width = g % 3 == 2 ? 32 : 64;
            weights.push_back(randomMatrix(k, width, 10 + g));
            outputs.push_back(Matrix::Constant(m, width, NAN));
            biases.push_back(g % 2 ? RowVector() : RowVector(randomMatrix(1, width, 20 + g)));
        }
        for (std::size_t g = 0; g < weights.size(); ++g)
            groups.push_back({weights[g].data(), weights[g].cols(), outputs[g].data(),
                              outputs[g].cols(), 1, biases[g].size() ? biases[g].data() : nullptr,
                              int(weights[g].cols())});
        attn::core::gemm(a.data(), a.cols(), m, k, groups);
        for (std::size_t g = 0; g < weights.size(); ++g) {
            QString where;
            QVERIFY2(closeToProduct(outputs[g], a, weights[g], biases[g], &where),
                     qPrintable(where));
            // One group alone: the same bits (the order of each sum depends on K alone).
            Matrix alone(m, weights[g].cols());
            GemmColumns single = groups[g];
            single.c = alone.data();
            attn::core::gemm(a.data(), a.cols(), m, k, {&single, 1});
            QVERIFY(alone == outputs[g]);
        }
    }

    // Row i of C does not depend on how many rows are multiplied with it.
    void rowsIndependent()
    {
        const Matrix a = randomMatrix(300, 700, 5);
        const Matrix b = randomMatrix(700, 150, 6);
        const Matrix all = attn::core::multiply(a, b);
        for (int rows : {1, 7, 8, 31, 192, 193})
            QVERIFY(attn::core::multiply(a.topRows(rows), b) == all.topRows(rows));
    }

    // C written transposed, with a bias per row of C: the logits as E x^T.
    void transposedWithRowBias_data() { columnGroups_data(); }
    void transposedWithRowBias()
    {
        QFETCH(QString, kernels);
        if (!attn::core::useGemmKernels(kernels.toStdString()))
            QSKIP("this CPU lacks these instructions");
        const int m = 1001; // vocabulary rows
        const int k = 80;
        const int n = 37; // positions
        const Matrix e = randomMatrix(m, k, 7);
        const Matrix x = randomMatrix(n, k, 8);
        const RowVector bias = randomMatrix(1, m, 9);
        const Matrix xt = x.transpose();
        Matrix y = Matrix::Constant(n, m, NAN);
        const GemmColumns columns{xt.data(), xt.cols(), y.data(), 1, m, nullptr, n};
        GemmOptions options;
        options.rowBias = bias.data();
        attn::core::gemm(e.data(), e.cols(), m, k, {&columns, 1}, options);
        QString where;
        QVERIFY2(closeToProduct(y, x, e.transpose(), bias, &where), qPrintable(where));

        // The same as dot products of each vocabulary row with 1 to 4 positions.
        for (int rows = 1; rows <= 4; ++rows) {
            Matrix z = Matrix::Constant(rows, m, NAN);
            attn::core::dotRows(e.data(), e.cols(), m, k, x.data(), x.cols(), rows, z.data(), 1, m,
                                bias.data());
            QVERIFY2(closeToProduct(z, x.topRows(rows), e.transpose(), bias, &where),
                     qPrintable(where));
        }
    }

    // The activation sees every value once, after the bias.
    void fusedActivation()
    {
        const Matrix a = randomMatrix(20, 50, 11);
        const Matrix b = randomMatrix(50, 100, 12);
        const RowVector bias = randomMatrix(1, 100, 13);
        Matrix c(20, 100);
        const GemmColumns columns{b.data(), b.cols(), c.data(), c.cols(), 1, bias.data(), 100};
        GemmOptions options;
        options.activation = [](float* values, int count, const void*) {
            for (int i = 0; i < count; ++i)
                values[i] = values[i] > 0.0f ? values[i] : 0.0f;
        };
        attn::core::gemm(a.data(), a.cols(), 20, 50, {&columns, 1}, options);
        Matrix plain(20, 100);
        const GemmColumns without{b.data(), b.cols(),    plain.data(), plain.cols(),
                                  1,        bias.data(), 100};
        attn::core::gemm(a.data(), a.cols(), 20, 50, {&without, 1});
        QVERIFY(c == plain.cwiseMax(0.0f));
    }

    // K = 0: the biases alone.
    void emptySum()
    {
        const Matrix a(3, 0);
        const Matrix b(0, 5);
        const RowVector bias = randomMatrix(1, 5, 14);
        Matrix c = Matrix::Constant(3, 5, NAN);
        const GemmColumns columns{b.data(), 5, c.data(), 5, 1, bias.data(), 5};
        attn::core::gemm(a.data(), 0, 3, 0, {&columns, 1});
        for (int i = 0; i < 3; ++i)
            QVERIFY(c.row(i) == bias);
    }
};

QTEST_GUILESS_MAIN(TestGemm)
#include "tst_gemm.moc"
