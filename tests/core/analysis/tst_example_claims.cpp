// What the built-in examples say is what they show. Each example file lists its "claims"
// (written by resources/examples/generate_examples.py, the values worked out independently of
// core): every claim is recomputed here on the CPU backend, and every number in the title and
// description must be quoted by a claim, so a description cannot state an unchecked number.
//
// A number is a run of ASCII digits with an optional decimal part and exponent (0.981, 17,
// 1.05e-07); numbers written as words ("four", "two") are not numbers here. A claim's
// "quoted" entries are the text as written: a plain number must round to the claim's value
// (the first entry) or to another number of the claim (the others, such as a threshold);
// other text must hold only such numbers, unless the claim is a formula for its value
// ("e/(e+3)") or "exact" (a number that names rather than measures: "Head 1", "1/√d_k").

#include "core/analysis/embedding_space.h"
#include "core/analysis/learned_kernel.h"
#include "core/analysis/mixing_weights.h"
#include "core/analysis/softmax_sensitivity.h"
#include "core/attention_result.h"
#include "core/cpu_backend.h"
#include "core/scene_json.h"
#include "core/scene_layers.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

using namespace attn::core;

namespace {

QString examplesDir()
{
    return QStringLiteral(ATTN_RESOURCES_DIR "/examples");
}

std::shared_ptr<const AttentionResult> compute(const Scene& scene)
{
    return CpuBackend().compute(resolveProblem(scene), ComputeOptions{});
}

const QRegularExpression& numberPattern()
{
    static const QRegularExpression pattern(
        QStringLiteral("[0-9]+(?:\\.[0-9]+)?(?:e[-+]?[0-9]+)?"));
    return pattern;
}

// Half a unit in the last written digit: how far a quoted number may be from what it rounds.
double halfUnit(const QString& number)
{
    const qsizetype e = number.indexOf(QLatin1Char('e'));
    const QString mantissa = e < 0 ? number : number.left(e);
    const int exponent = e < 0 ? 0 : number.mid(e + 1).toInt();
    const qsizetype point = mantissa.indexOf(QLatin1Char('.'));
    const int decimals = point < 0 ? 0 : int(mantissa.size() - point - 1);
    return 0.5 * std::pow(10.0, exponent - decimals);
}

bool isNumber(const QString& text)
{
    static const QRegularExpression whole(
        QRegularExpression::anchoredPattern(numberPattern().pattern()));
    return whole.match(text).hasMatch();
}

bool roundsTo(const QString& quoted, double value)
{
    return std::abs(quoted.toDouble() - value) <= halfUnit(quoted) * (1 + 1e-9);
}

bool isWordCharacter(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

// Where `quoted` occurs as a whole: not inside a longer word or number.
std::vector<qsizetype> occurrences(const QString& text, const QString& quoted)
{
    std::vector<qsizetype> found;
    for (qsizetype at = text.indexOf(quoted); at >= 0; at = text.indexOf(quoted, at + 1)) {
        const qsizetype end = at + quoted.size();
        const bool before =
            at == 0 || (!isWordCharacter(text[at - 1]) && text[at - 1] != QLatin1Char('.'));
        const bool after =
            end == text.size() ||
            (!isWordCharacter(text[end]) &&
             !(text[end] == QLatin1Char('.') && end + 1 < text.size() && text[end + 1].isDigit()));
        if (before && after)
            found.push_back(at);
    }
    return found;
}

int tokenIndex(const std::vector<Token>& tokens, const QString& text)
{
    for (std::size_t i = 0; i < tokens.size(); ++i)
        if (tokens[i].text == text)
            return int(i);
    return -1;
}

double populationDeviation(const Matrix& m)
{
    const double mean = double(m.cast<double>().mean());
    return std::sqrt((m.cast<double>().array() - mean).square().mean());
}

double meanRowMax(const Matrix& weights)
{
    return double(weights.cast<double>().rowwise().maxCoeff().mean());
}

// Seed 004's learned kernel (the Kernel tab's "kernel:learned"): its data set is built in, so
// the numbers do not depend on the scene. Trained once for every example that quotes them.
struct LearnedKernelNumbers
{
    RegressionData data = RegressionData::chirp();
    BestBandwidth best = bestBandwidth(data);
    LearnedKernel learned = learnKernelMaps(data);
};

std::optional<double> learnedKernelValue(const QJsonObject& claim, QString& why)
{
    static const LearnedKernelNumbers k;
    const QString what = claim.value(QLatin1String("what")).toString();
    if (what == QLatin1String("learned_kernel_points"))
        return double(k.data.x.size());
    if (what == QLatin1String("learned_kernel_x"))
        return claim.value(QLatin1String("which")).toString() == QLatin1String("last")
                   ? k.data.x.back()
                   : k.data.x.front();
    if (what == QLatin1String("learned_kernel_best_bandwidth"))
        return k.best.bandwidth;
    if (what == QLatin1String("learned_kernel_fixed_loss"))
        return k.best.loss;
    if (what == QLatin1String("learned_kernel_steps"))
        return double(k.learned.losses.size() - 1);
    if (what == QLatin1String("learned_kernel_start_bandwidth")) // the default start's 1/w
        return 1.0 / KernelMaps{}.key[0];
    if (what == QLatin1String("learned_kernel_loss"))
        return k.learned.losses.back();
    if (what == QLatin1String("learned_kernel_width"))
        return k.learned.maps.effectiveWidth(claim.value(QLatin1String("at")).toDouble());
    why = QStringLiteral("unknown claim \"%1\"").arg(what);
    return {};
}

// Every claim's kind computed from the scene; an empty optional with `why` set for an error.
class ClaimChecker
{
public:
    explicit ClaimChecker(const Scene& scene) : m_scene(scene), m_result(compute(scene)) {}

    std::optional<double> value(const QJsonObject& claim, QString& why)
    {
        const QString what = claim.value(QLatin1String("what")).toString();
        const int head = claim.value(QLatin1String("head")).toInt(1) - 1;
        if (head < 0 || head >= int(m_result->heads.size())) {
            why = QStringLiteral("no head %1").arg(head + 1);
            return {};
        }
        const HeadResult& h = m_result->heads[std::size_t(head)];
        const Problem& problem = *m_result->problem;
        const auto token = [&](const char* key, const std::vector<Token>& tokens) {
            const QString text = claim.value(QLatin1String(key)).toString();
            const int index = tokenIndex(tokens, text);
            if (index < 0)
                why = QStringLiteral("no token \"%1\"").arg(text);
            return index;
        };
        const auto scaling = [&](const ScalingComparison& c) -> const SoftmaxSensitivity& {
            return claim.value(QLatin1String("scaling")).toString() == QLatin1String("scaled")
                       ? c.scaled
                       : c.unscaled;
        };

        if (what == QLatin1String("tokens"))
            return problem.queryCount();
        if (what == QLatin1String("d_k"))
            return m_scene.weights.dK;
        if (what == QLatin1String("sqrt_d_k"))
            return std::sqrt(double(m_scene.weights.dK));
        if (what == QLatin1String("window"))
            return m_scene.mask.window;
        if (what == QLatin1String("temperature"))
            return double(m_scene.temperature);
        if (what == QLatin1String("bandwidth")) // the Kernel view's h = √T
            return std::sqrt(double(m_scene.temperature));
        if (what == QLatin1String("weight") || what == QLatin1String("raw_score")) {
            const int q = token("query", problem.queryTokens);
            const int k = token("key", problem.keyTokens);
            if (q < 0 || k < 0)
                return {};
            return double(what == QLatin1String("weight") ? h.weights(q, k) : h.rawScores(q, k));
        }
        if (what == QLatin1String("context_input_difference")) {
            // Seed 000: the word's input row in the scene and in the view's second sentence
            // ("context:WORD:SENTENCE"), computed again with that text.
            Scene other = m_scene;
            other.text = m_scene.view.view.section(QLatin1Char(':'), 2);
            const auto second = compute(other);
            const QString word = claim.value(QLatin1String("word")).toString();
            const int a = tokenIndex(problem.queryTokens, word);
            const int b = tokenIndex(second->problem->queryTokens, word);
            if (a < 0 || b < 0) {
                why = QStringLiteral("\"%1\" is not in both sentences").arg(word);
                return {};
            }
            return double((problem.queryInput().row(a) - second->problem->queryInput().row(b))
                              .cwiseAbs()
                              .maxCoeff());
        }
        if (what == QLatin1String("onehot_dimension")) {
            // Seed 001's one-hot: the word's input row is e_v; v counted from 1.
            const int t = token("word", problem.queryTokens);
            if (t < 0)
                return {};
            const auto row = problem.queryEmbedding.row(t);
            Eigen::Index at = 0;
            if (row.maxCoeff(&at) != 1.0f || row.sum() != 1.0f) {
                why = QStringLiteral("the word's input is not one-hot");
                return {};
            }
            return double(at + 1);
        }
        if (what == QLatin1String("soft_weight") || what == QLatin1String("lost_mass")) {
            // Seed 000: the softmax of the row's scaled scores, against what the argmax keeps.
            const int q = token("query", problem.queryTokens);
            if (q < 0)
                return {};
            const Eigen::VectorXd s = h.scaledScores.row(q).cast<double>().transpose();
            const Eigen::VectorXd w = (s.array() - s.maxCoeff()).exp().matrix();
            const Eigen::VectorXd soft = w / w.sum();
            if (what == QLatin1String("lost_mass")) {
                Eigen::Index best = 0;
                s.maxCoeff(&best);
                return 1.0 - soft(best);
            }
            const int k = token("key", problem.keyTokens);
            if (k < 0)
                return {};
            return soft(k);
        }
        if (what == QLatin1String("weights_sum")) {
            // The row sum farthest from the claimed one.
            const double expected = claim.value(QLatin1String("value")).toDouble();
            double worst = expected;
            for (Eigen::Index i = 0; i < h.weights.rows(); ++i) {
                const double sum = h.weights.row(i).cast<double>().sum();
                if (std::abs(sum - expected) > std::abs(worst - expected))
                    worst = sum;
            }
            return worst;
        }
        if (what == QLatin1String("score_spread"))
            return populationDeviation(h.rawScores);
        if (what == QLatin1String("wq_wk_norm")) {
            const HeadWeights& w = m_scene.weights.heads[std::size_t(head)];
            return (w.Wq.cast<double>() * w.Wk.cast<double>().transpose()).norm();
        }
        if (what == QLatin1String("d_model"))
            return m_scene.weights.dModel;
        if (what == QLatin1String("heads"))
            return m_scene.weights.headCount();
        if (what == QLatin1String("projection_difference")) {
            // Seed 002: X [W_1^Q ... W_h^Q] cut into blocks of d_k columns against each head's Q.
            const ModelWeights& w = m_scene.weights;
            Eigen::MatrixXd all(w.dModel, w.headCount() * w.dK);
            for (int i = 0; i < w.headCount(); ++i)
                all.middleCols(i * w.dK, w.dK) = w.heads[std::size_t(i)].Wq.cast<double>();
            const Eigen::MatrixXd q = problem.queryInput().cast<double>() * all;
            double worst = 0.0;
            for (int i = 0; i < w.headCount(); ++i)
                worst = std::max(worst, (q.middleCols(i * w.dK, w.dK) -
                                         m_result->heads[std::size_t(i)].Q.cast<double>())
                                            .cwiseAbs()
                                            .maxCoeff());
            return worst;
        }
        if (what == QLatin1String("qk_rank") || what == QLatin1String("ov_rank")) {
            const ModelWeights& w = m_scene.weights;
            const HeadWeights& hw = w.heads[std::size_t(head)];
            const Eigen::MatrixXd product =
                what == QLatin1String("qk_rank")
                    ? Eigen::MatrixXd(hw.Wq.cast<double>() * hw.Wk.cast<double>().transpose())
                    : Eigen::MatrixXd(hw.Wv.cast<double>() *
                                      w.Wo.cast<double>().middleRows(head * w.dV, w.dV));
            return Eigen::FullPivLU<Eigen::MatrixXd>(product).rank();
        }
        if (what == QLatin1String("bias_absorbed_difference")) {
            // Bishop p. 365: [X 1] [W; b] against the backend's X W + b, for Q, K and V.
            const HeadWeights& hw = m_scene.weights.heads[std::size_t(head)];
            const Eigen::MatrixXd x = problem.queryInput().cast<double>();
            Eigen::MatrixXd augmented(x.rows(), x.cols() + 1);
            augmented << x, Eigen::MatrixXd::Ones(x.rows(), 1);
            double worst = 0.0;
            for (auto [weights, bias, computed] : {std::tuple{&hw.Wq, &hw.bq, &h.Q},
                                                   {&hw.Wk, &hw.bk, &h.K},
                                                   {&hw.Wv, &hw.bv, &h.V}}) {
                if (bias->size() == 0) {
                    why = QStringLiteral("the head has no bias");
                    return {};
                }
                Eigen::MatrixXd stacked(weights->rows() + 1, weights->cols());
                stacked << weights->cast<double>(), bias->cast<double>();
                worst = std::max(
                    worst, (augmented * stacked - computed->cast<double>()).cwiseAbs().maxCoeff());
            }
            return worst;
        }
        if (what == QLatin1String("mean_row_max")) {
            Scene scene = m_scene;
            const auto score =
                parseScoreKind(claim.value(QLatin1String("score")).toString().toStdString());
            if (!score) {
                why = QStringLiteral("unknown score");
                return {};
            }
            scene.score = *score;
            return meanRowMax(compute(scene)->heads[std::size_t(head)].weights);
        }
        if (what == QLatin1String("jacobian_norm")) {
            const int q = token("query", problem.queryTokens);
            if (q < 0)
                return {};
            return scaling(compareScaling(*m_result, head, q)).jacobianNorm;
        }
        if (what == QLatin1String("rows_with_small_jacobian") ||
            what == QLatin1String("smallest_jacobian_norm")) {
            const double below = claim.value(QLatin1String("below")).toDouble();
            int count = 0;
            double smallest = std::numeric_limits<double>::infinity();
            for (int q = 0; q < problem.queryCount(); ++q) {
                const double norm = scaling(compareScaling(*m_result, head, q)).jacobianNorm;
                count += norm < below ? 1 : 0;
                smallest = std::min(smallest, norm);
            }
            return what == QLatin1String("smallest_jacobian_norm") ? smallest : double(count);
        }
        if (what == QLatin1String("words"))
            return space().size();
        if (what == QLatin1String("dimension"))
            return space().dimension();
        if (what == QLatin1String("cosine")) {
            const QString word = claim.value(QLatin1String("word")).toString();
            const QString other = claim.value(QLatin1String("other")).toString();
            const auto nearest = space().nearest(word, space().size());
            for (std::size_t rank = 0; rank < nearest.size(); ++rank)
                if (nearest[rank].word == other) {
                    const int claimed = claim.value(QLatin1String("rank")).toInt(0);
                    if (claimed > 0 && claimed != int(rank) + 1) {
                        why = QStringLiteral("%1 is %2's neighbour number %3, not %4")
                                  .arg(other, word)
                                  .arg(rank + 1)
                                  .arg(claimed);
                        return {};
                    }
                    return nearest[rank].cosine;
                }
            why = QStringLiteral("no word \"%1\"").arg(other);
            return {};
        }
        if (what == QLatin1String("analogy")) {
            const auto answer = space().analogy(claim.value(QLatin1String("a")).toString(),
                                                claim.value(QLatin1String("b")).toString(),
                                                claim.value(QLatin1String("c")).toString(), 1);
            const QString expected = claim.value(QLatin1String("answer")).toString();
            if (answer.answers.empty() || answer.answers.front().word != expected) {
                why = QStringLiteral("the analogy does not answer %1").arg(expected);
                return {};
            }
            return answer.answers.front().cosine;
        }
        if (what == QLatin1String("layers"))
            return double(layerCount(m_scene));
        if (what == QLatin1String("d_ff"))
            return m_scene.layers.empty() ? 0.0 : double(m_scene.layers.front().dFeedForward());
        if (what == QLatin1String("layer_input_difference")) {
            // Each block's X against the output Y of the block below it.
            CpuBackend backend;
            const std::vector<BlockForward> blocks = forwardLayers(m_scene, backend);
            double largest = 0.0;
            for (std::size_t l = 1; l < blocks.size(); ++l)
                largest = std::max(largest,
                                   double((blocks[l].attention->queryInput() - blocks[l - 1].output)
                                              .cwiseAbs()
                                              .maxCoeff()));
            return largest;
        }
        if (what == QLatin1String("mixing_change")) {
            // max |after − before| of a mixing matrix (1 fully connected, 2 convolution,
            // 3 attention) as the view's second sentence replaces the scene's.
            const int layer = claim.value(QLatin1String("layer")).toInt(0) - 1;
            if (layer < 0 || layer > 2) {
                why = QStringLiteral("layer: 1, 2 or 3");
                return {};
            }
            return compareMixing(m_scene, m_scene.view.view.section(QLatin1Char(':'), 1), head)
                .changes[layer];
        }
        if (what.startsWith(QLatin1String("learned_kernel_")))
            return learnedKernelValue(claim, why);
        why = QStringLiteral("unknown claim \"%1\"").arg(what);
        return {};
    }

private:
    const EmbeddingSpace& space()
    {
        if (!m_space)
            m_space = EmbeddingSpace::fromScene(m_scene);
        return *m_space;
    }

    const Scene& m_scene;
    std::shared_ptr<const AttentionResult> m_result;
    std::optional<EmbeddingSpace> m_space;
};

// The claim's numbers other than its value: what a further quoted number may stand for.
std::vector<double> otherNumbers(const QJsonObject& claim)
{
    std::vector<double> numbers;
    for (auto it = claim.begin(); it != claim.end(); ++it)
        if (it.value().isDouble() && it.key() != QLatin1String("value") &&
            it.key() != QLatin1String("tolerance") && it.key() != QLatin1String("head") &&
            it.key() != QLatin1String("rank"))
            numbers.push_back(it.value().toDouble());
    return numbers;
}

} // namespace

class TestExampleClaims : public QObject
{
    Q_OBJECT

private slots:
    void rulesOfTheCheck();
    void claimsHold_data();
    void claimsHold();
};

// The check's own rules on made-up text, so that a loophole shows here and not in a lecture.
void TestExampleClaims::rulesOfTheCheck()
{
    QVERIFY(isNumber(QStringLiteral("0.981")) && isNumber(QStringLiteral("1.05e-07")));
    QVERIFY(!isNumber(QStringLiteral("T = 1")) && !isNumber(QString()));
    QCOMPARE(halfUnit(QStringLiteral("0.981")), 0.0005);
    QCOMPARE(halfUnit(QStringLiteral("17")), 0.5);
    QVERIFY(std::abs(halfUnit(QStringLiteral("1.05e-07")) - 0.005e-7) < 1e-20);
    QVERIFY(roundsTo(QStringLiteral("0.807"), 0.807494877));
    QVERIFY(!roundsTo(QStringLiteral("0.808"), 0.807494877));
    QVERIFY(!roundsTo(QStringLiteral("2"), 1.22));
    // "2" does not occur inside "1.22" or "x2", "0.8" not inside "0.81"; "√4" and "(÷16)" hold
    // whole numbers.
    const QString text = QStringLiteral("spread 1.22 (x2), 0.81; √4 = 2 and (÷16).");
    QCOMPARE(occurrences(text, QStringLiteral("2")).size(), std::size_t(1));
    QVERIFY(occurrences(text, QStringLiteral("0.8")).empty());
    QCOMPARE(occurrences(text, QStringLiteral("4")).size(), std::size_t(1));
    QCOMPARE(occurrences(text, QStringLiteral("16")).size(), std::size_t(1));
}

void TestExampleClaims::claimsHold_data()
{
    QTest::addColumn<QString>("file");
    const QStringList files =
        QDir(examplesDir()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 19);
    for (const QString& file : files)
        QTest::newRow(qPrintable(file)) << file;
}

void TestExampleClaims::claimsHold()
{
    QFETCH(QString, file);
    const QString path = examplesDir() + QLatin1Char('/') + file;
    QFile json(path);
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(json.readAll()).object();
    const QJsonValue claimsValue = root.value(QLatin1String("claims"));
    QVERIFY2(claimsValue.isUndefined() || claimsValue.isArray(), "claims is a list");
    const QJsonArray claims = claimsValue.toArray();
    const Scene scene = loadScene(path);
    const QString text = scene.title + QLatin1Char('\n') + scene.description;

    ClaimChecker checker(scene);
    std::vector<std::pair<qsizetype, qsizetype>> covered; // quoted spans: [from, to)
    for (const QJsonValue& item : claims) {
        const QJsonObject claim = item.toObject();
        const QString what = claim.value(QLatin1String("what")).toString();
        const QString name = QString::fromUtf8(QJsonDocument(claim).toJson(QJsonDocument::Compact));
        const bool exact = what == QLatin1String("exact");
        const bool formula = claim.value(QLatin1String("formula")).toBool(false);

        if (!exact) {
            QVERIFY2(claim.contains(QLatin1String("value")), qPrintable(name));
            const double expected = claim.value(QLatin1String("value")).toDouble();
            const double tolerance = claim.value(QLatin1String("tolerance")).toDouble(0.0);
            QString why;
            const std::optional<double> actual = checker.value(claim, why);
            QVERIFY2(actual, qPrintable(name + QStringLiteral(": ") + why));
            QVERIFY2(std::abs(*actual - expected) <= tolerance + 1e-12 * std::abs(expected),
                     qPrintable(name + QStringLiteral(": computed %1").arg(*actual, 0, 'g', 10)));
        }

        const QJsonArray quoted = claim.value(QLatin1String("quoted")).toArray();
        QVERIFY2(!exact || !quoted.isEmpty(), qPrintable(name));
        for (qsizetype i = 0; i < quoted.size(); ++i) {
            const QString q = quoted[i].toString();
            QVERIFY2(!q.isEmpty(), qPrintable(name));
            const std::vector<qsizetype> at = occurrences(text, q);
            QVERIFY2(!at.empty(),
                     qPrintable(name + QStringLiteral(": \"%1\" is not in the text").arg(q)));
            for (qsizetype from : at)
                covered.emplace_back(from, from + q.size());
            if (exact || (formula && i == 0))
                continue;
            // Each number in the quoted text stands for the value (first entry) or for
            // another number of the claim.
            const std::vector<double> candidates =
                i == 0 ? std::vector<double>{claim.value(QLatin1String("value")).toDouble()}
                       : otherNumbers(claim);
            auto numbers = numberPattern().globalMatch(q);
            while (numbers.hasNext()) {
                const QString number = numbers.next().captured();
                QVERIFY2(
                    std::any_of(candidates.begin(), candidates.end(),
                                [&](double c) { return roundsTo(number, c); }),
                    qPrintable(name +
                               QStringLiteral(": \"%1\" is not what the claim holds").arg(number)));
            }
        }
    }

    // No number in the text without a claim.
    auto numbers = numberPattern().globalMatch(text);
    while (numbers.hasNext()) {
        const QRegularExpressionMatch m = numbers.next();
        const qsizetype from = m.capturedStart();
        const qsizetype to = m.capturedEnd();
        const bool claimed = std::any_of(covered.begin(), covered.end(), [&](const auto& span) {
            return span.first <= from && to <= span.second;
        });
        QVERIFY2(claimed, qPrintable(QStringLiteral("\"%1\" in “%2” has no claim")
                                         .arg(m.captured(),
                                              QString(text)
                                                  .replace(QLatin1Char('\n'), QLatin1Char(' '))
                                                  .mid(std::max<qsizetype>(0, from - 30), 60))));
    }
}

QTEST_GUILESS_MAIN(TestExampleClaims)
#include "tst_example_claims.moc"
