#pragma once
// Attention written out from its definitions in double precision, for tests that must not
// take an expected number from the code under test (no core::Problem::makeMask, no
// core::maskFillValue, no core::poolMatrix): Vaswani et al. 2017 eq. 1 per head, seed 001's
// mask rules, PyTorch's masked_fill(-9e15), seed 004's Z = Cat[H_1 .. H_h] W^O.

#include <Eigen/Core>

#include <cmath>
#include <initializer_list>
#include <limits>
#include <set>
#include <utility>
#include <vector>

namespace attn::test::reference {

using Dense = Eigen::MatrixXd;

// Seed 000's masked_fill constant, as a float32 (the precision of every score).
inline constexpr float kMinusNineE15 = -9e15f;

inline Dense dense(std::initializer_list<std::initializer_list<double>> rows)
{
    Dense m(Eigen::Index(rows.size()), Eigen::Index(rows.begin()->size()));
    Eigen::Index i = 0;
    for (const auto& row : rows) {
        Eigen::Index j = 0;
        for (double v : row)
            m(i, j++) = v;
        ++i;
    }
    return m;
}

struct Head
{
    Dense Wq, Wk, Wv; // d_model x d_k, d_model x d_k, d_model x d_v
};

struct Spec
{
    Dense X; // T x d_model: embeddings plus positions
    std::vector<Head> heads;
    Dense Wo;                  // (heads x d_v) x d_model
    bool scaled = true;        // divide by sqrt(d_k)
    bool minusNineE15 = false; // the fill: -9e15 rather than -inf
    bool causal = false;
    int window = -1;           // keys more than this far away are masked (symmetric); -1: none
    std::vector<bool> padding; // padding keys, masked when `maskPadding`
    bool maskPadding = false;
    std::set<std::pair<int, int>> custom; // (query, key) cells masked by hand

    // Seed 001's rules: causal hides later keys, a window of N hides keys more than N away,
    // padding hides padding keys, custom cells hide themselves.
    bool masked(int i, int j) const
    {
        return (causal && j > i) || (window >= 0 && std::abs(i - j) > window) ||
               (maskPadding && padding[std::size_t(j)]) || custom.count({i, j}) > 0;
    }
};

struct HeadResult
{
    Dense raw, scaled, masked, weights, output;
};

struct Result
{
    std::vector<HeadResult> heads;
    Dense concat, z;
};

inline Result compute(const Spec& s)
{
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const Eigen::Index t = s.X.rows();
    Result r;
    const Eigen::Index dv = s.heads.front().Wv.cols();
    r.concat = Dense::Zero(t, Eigen::Index(s.heads.size()) * dv);
    for (std::size_t h = 0; h < s.heads.size(); ++h) {
        HeadResult out;
        const Dense q = s.X * s.heads[h].Wq, k = s.X * s.heads[h].Wk, v = s.X * s.heads[h].Wv;
        out.raw = q * k.transpose();
        // Divided by sqrt(d_k), the width of queries and keys (not of values).
        out.scaled = s.scaled ? Dense(out.raw / std::sqrt(double(q.cols()))) : out.raw;
        out.masked = out.scaled;
        out.weights = Dense::Zero(t, t);
        for (int i = 0; i < t; ++i) {
            for (int j = 0; j < t; ++j)
                if (s.masked(i, j))
                    out.masked(i, j) = s.minusNineE15 ? double(kMinusNineE15) : -kInf;
            // Softmax over the keys that count: under -inf the unmasked ones (none: a row of
            // zeros); under -9e15 every key, the masked ones as very low ordinary scores.
            double max = -kInf;
            for (int j = 0; j < t; ++j)
                max = std::max(max, out.masked(i, j));
            if (max == -kInf)
                continue;
            double sum = 0.0;
            for (int j = 0; j < t; ++j)
                sum += std::exp(out.masked(i, j) - max);
            for (int j = 0; j < t; ++j)
                out.weights(i, j) = std::exp(out.masked(i, j) - max) / sum;
        }
        out.output = out.weights * v;
        r.concat.middleCols(Eigen::Index(h) * dv, dv) = out.output;
        r.heads.push_back(out);
    }
    r.z = r.concat * s.Wo;
    return r;
}

// Mean or max over block x block blocks; an edge block averages the cells it has.
inline Dense pooled(const Dense& m, int block, bool mean)
{
    const int rows = int((m.rows() + block - 1) / block),
              cols = int((m.cols() + block - 1) / block);
    Dense out(rows, cols);
    for (int bi = 0; bi < rows; ++bi)
        for (int bj = 0; bj < cols; ++bj) {
            double sum = 0.0, max = -std::numeric_limits<double>::infinity();
            int cells = 0;
            for (int i = bi * block; i < std::min(int(m.rows()), (bi + 1) * block); ++i)
                for (int j = bj * block; j < std::min(int(m.cols()), (bj + 1) * block); ++j) {
                    sum += m(i, j);
                    max = std::max(max, m(i, j));
                    ++cells;
                }
            out(bi, bj) = mean ? sum / cells : max;
        }
    return out;
}

// Largest |a - b| relative to the larger of 1 and |b|; infinities must match exactly and a
// shape mismatch is infinite.
template <typename A> double difference(const A& a, const Dense& b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return std::numeric_limits<double>::infinity();
    double worst = 0.0;
    for (Eigen::Index i = 0; i < a.rows(); ++i)
        for (Eigen::Index j = 0; j < a.cols(); ++j) {
            const double x = double(a(i, j)), y = b(i, j);
            if (std::isinf(x) || std::isinf(y) || std::isnan(x)) {
                if (x != y)
                    return std::numeric_limits<double>::infinity();
                continue;
            }
            worst = std::max(worst, std::abs(x - y) / std::max(1.0, std::abs(y)));
        }
    return worst;
}

// Five tokens, "the pad cat sat down" (token 1, "pad", marked as padding), d_model 4, two heads
// with d_k = 2 and d_v = 3: small exact binary fractions, so the numbers are the same in a scene
// file, a float32 Problem and here.
inline Spec fiveTokens()
{
    Spec s;
    s.X = dense({{0.5, -1.0, 0.25, 2.0},
                 {1.0, 0.0, -0.5, 0.5},
                 {-0.75, 1.5, 1.0, 0.0},
                 {0.0, 0.5, -1.25, 1.0},
                 {2.0, -0.5, 0.5, -1.0}});
    s.heads = {{dense({{1.0, 0.5}, {-0.5, 1.0}, {0.25, 0.0}, {0.0, -1.0}}),
                dense({{0.5, -1.0}, {1.0, 0.0}, {0.0, 0.5}, {-0.25, 1.0}}),
                dense({{1.0, 0.0, 0.5}, {0.0, 1.0, -1.0}, {0.5, 0.5, 0.0}, {-1.0, 0.0, 1.0}})},
               {dense({{0.5, 0.0}, {1.0, 1.0}, {-1.0, 0.5}, {0.25, 0.25}}),
                dense({{1.0, 1.0}, {0.0, -0.5}, {0.5, 0.0}, {1.0, -1.0}}),
                dense({{0.0, 1.0, 1.0}, {1.0, -0.5, 0.0}, {0.25, 0.0, 2.0}, {0.0, 1.0, -0.5}})}};
    s.Wo = dense({{1.0, 0.0, 0.0, 0.5},
                  {0.0, 1.0, 0.0, 0.0},
                  {0.0, 0.0, 1.0, -0.5},
                  {0.5, 0.0, 0.0, 1.0},
                  {0.0, -1.0, 1.0, 0.0},
                  {1.0, 1.0, 0.0, 0.0}});
    s.padding = {false, true, false, false, false};
    return s;
}

inline const char* const kFiveTokenWords[] = {"the", "pad", "cat", "sat", "down"};

} // namespace attn::test::reference
