#include "model_weights.h"

#include "diagnostics.h"
#include "enum_names.h"
#include "error.h"
#include "random.h"

#include <cmath>

namespace attn::core {
namespace {

std::string shapeText(Eigen::Index rows, Eigen::Index cols)
{
    return std::to_string(rows) + "x" + std::to_string(cols);
}

void checkMatrix(const std::string& path, const Matrix& m, int rows, int cols, bool values = true)
{
    if (m.rows() != rows || m.cols() != cols)
        throw Error(path,
                    "expected " + shapeText(rows, cols) + ", got " + shapeText(m.rows(), m.cols()));
    if (!values || allFinite(m))
        return; // the scalar loop only names the first bad cell
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            if (!std::isfinite(m(i, j)))
                throw Error(path + "[" + std::to_string(i) + "][" + std::to_string(j) + "]",
                            "weights must be finite numbers");
}

void checkOptionalVector(const std::string& path, const RowVector& v, int size, bool values = true)
{
    if (v.size() == 0)
        return;
    if (v.size() != size)
        throw Error(path, "expected " + std::to_string(size) + " values, got " +
                              std::to_string(v.size()));
    if (values)
        checkMatrix(path, Matrix(v), 1, size);
}

} // namespace

namespace {

constexpr EnumNames<WeightInit, 3> kInitNames{{{WeightInit::Xavier, "xavier"},
                                               {WeightInit::Identity, "identity"},
                                               {WeightInit::Zeros, "zeros"}}};

} // namespace

std::string_view toString(WeightInit init)
{
    return enumName(kInitNames, init, "?");
}

std::optional<WeightInit> parseWeightInit(std::string_view name)
{
    return enumFromName(kInitNames, name);
}

void ModelWeights::validate() const
{
    check(true);
}

void ModelWeights::validateShapes() const
{
    check(false);
}

void ModelWeights::check(bool values) const
{
    if (heads.empty())
        throw Error("heads", "a model needs at least one head");
    if (dModel < 1 || dK < 1 || dV < 1)
        throw Error("model", "d_model, d_k and d_v must be positive");
    for (std::size_t h = 0; h < heads.size(); ++h) {
        const std::string prefix = "heads[" + std::to_string(h) + "].";
        const HeadWeights& head = heads[h];
        checkMatrix(prefix + "W_q", head.Wq, dModel, dK, values);
        checkMatrix(prefix + "W_k", head.Wk, dModel, dK, values);
        checkMatrix(prefix + "W_v", head.Wv, dModel, dV, values);
        checkOptionalVector(prefix + "b_q", head.bq, dK, values);
        checkOptionalVector(prefix + "b_k", head.bk, dK, values);
        checkOptionalVector(prefix + "b_v", head.bv, dV, values);
        checkMatrix(prefix + "w_additive", Matrix(head.wAdditive), 1, dK, values);
        checkMatrix(prefix + "bilinear", head.bilinear, dK, dK, values);
    }
    checkMatrix("W_o", Wo, headCount() * dV, dModel, values);
    checkOptionalVector("b_o", bo, dModel, values);
}

void initialiseMatrix(Matrix& matrix, WeightInit init, std::uint64_t seed, const std::string& name,
                      int headIndex)
{
    const Eigen::Index rows = matrix.rows();
    const Eigen::Index cols = matrix.cols();
    matrix.setZero();
    switch (init) {
    case WeightInit::Zeros:
        break;
    case WeightInit::Identity:
        // Head h reads model dimensions h*cols .. h*cols+cols-1: the slicing of one big
        // projection into heads (seed 003), and W_o = I when h * d_v == d_model.
        for (Eigen::Index j = 0; j < cols && rows > 0; ++j)
            matrix((headIndex * cols + j) % rows, j) = 1.0f;
        break;
    case WeightInit::Xavier: {
        Random random(hashString(name, seed));
        const double limit = std::sqrt(6.0 / double(rows + cols));
        for (Eigen::Index i = 0; i < rows; ++i)
            for (Eigen::Index j = 0; j < cols; ++j)
                matrix(i, j) = float(random.uniform(-limit, limit));
        break;
    }
    }
}

ModelWeights makeWeights(int dModel, int heads, int dK, int dV, WeightInit init, std::uint64_t seed)
{
    ModelWeights weights;
    weights.dModel = dModel;
    weights.dK = dK;
    weights.dV = dV;
    weights.heads.resize(std::size_t(heads));
    for (int h = 0; h < heads; ++h) {
        HeadWeights& head = weights.heads[std::size_t(h)];
        const std::string prefix = "heads[" + std::to_string(h) + "].";
        head.Wq.resize(dModel, dK);
        head.Wk.resize(dModel, dK);
        head.Wv.resize(dModel, dV);
        initialiseMatrix(head.Wq, init, seed, prefix + "W_q", h);
        initialiseMatrix(head.Wk, init, seed, prefix + "W_k", h);
        initialiseMatrix(head.Wv, init, seed, prefix + "W_v", h);
        Matrix w(1, dK);
        initialiseMatrix(w, init == WeightInit::Identity ? WeightInit::Xavier : init, seed,
                         prefix + "w_additive", h);
        head.wAdditive = w.row(0);
        // M = I makes the bilinear score start as the plain dot product.
        head.bilinear = init == WeightInit::Zeros ? Matrix(Matrix::Zero(dK, dK))
                                                  : Matrix(Matrix::Identity(dK, dK));
    }
    weights.Wo.resize(Eigen::Index(heads) * dV, dModel);
    initialiseMatrix(weights.Wo, init, seed, "W_o", 0);
    return weights;
}

} // namespace attn::core
