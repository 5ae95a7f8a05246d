#include "core/tokenizers/unigram_model.h"

#include "core/token_display.h"

#include <algorithm>
#include <limits>

namespace attn::core::hf {

namespace {

// The unknown token's score is this far below the least likely piece (model.rs,
// K_UNK_PENALTY; SentencePiece's unigram_model.cc, kUnkPenalty).
constexpr double kUnkPenalty = 10.0;

// The code unit at `depth` of a piece, or -1 past its end (shorter pieces sort first).
int unitAt(const QString& piece, qsizetype depth)
{
    return depth < piece.size() ? piece.at(depth).unicode() : -1;
}

} // namespace

UnigramModel::UnigramModel(std::vector<UnigramPiece> pieces, std::optional<int> unkId,
                           bool byteFallback, JsonReader file, QString unkIdPath)
    : m_pieces(std::move(pieces)), m_unkId(unkId), m_byteFallback(byteFallback),
      m_file(std::move(file)), m_unkIdPath(std::move(unkIdPath))
{
    double minScore = std::numeric_limits<double>::infinity();
    m_ids.reserve(qsizetype(m_pieces.size()));
    for (std::size_t id = 0; id < m_pieces.size(); ++id) {
        m_ids.insert(m_pieces[id].piece, int(id));
        minScore = std::min(minScore, m_pieces[id].score);
        m_longest = std::max(m_longest, m_pieces[id].piece.size());
    }
    m_unkScore = minScore - kUnkPenalty;
    for (int b = 0; b < 256; ++b)
        m_byteIds[std::size_t(b)] = idOf(byteTokenText(static_cast<unsigned char>(b))).value_or(-1);
    m_sorted.reserve(std::size_t(m_ids.size()));
    for (auto it = m_ids.constBegin(); it != m_ids.constEnd(); ++it)
        if (!it.key().isEmpty())
            m_sorted.push_back(it.value());
    std::sort(m_sorted.begin(), m_sorted.end(),
              [this](int a, int b) { return m_pieces[a].piece < m_pieces[b].piece; });
}

std::optional<int> UnigramModel::idOf(const QString& piece) const
{
    const auto it = m_ids.constFind(piece);
    if (it == m_ids.constEnd())
        return std::nullopt;
    return *it;
}

QString UnigramModel::pieceOf(int id) const
{
    if (id < 0 || std::size_t(id) >= m_pieces.size())
        return {};
    return m_pieces[std::size_t(id)].piece;
}

void UnigramModel::missingUnkId(const QString& word, qsizetype begin, qsizetype end) const
{
    m_file.fail(m_unkIdPath,
                QStringLiteral("the vocabulary has no unknown token, and no piece covers '") +
                    word.mid(begin, end - begin) + QStringLiteral("' in '") + word + u'\'');
}

void UnigramModel::tokenize(const QString& word, std::vector<ModelToken>& out,
                            WordCache& cache) const
{
    if (word.isEmpty())
        return;
    tokenizeCached(word, out, cache,
                   [&](std::vector<ModelToken>& tokens) { segment(word, tokens); });
}

void UnigramModel::segment(const QString& word, std::vector<ModelToken>& out) const
{
    // model.rs, encode_optimized (SentencePiece's unigram_model.cc, EncodeOptimized): the best
    // path ending at each position, positions from left to right, the pieces starting at a
    // position shortest first; a later candidate replaces a node only when strictly better,
    // and the sums are formed in the library's order, so ties and rounding resolve the same.
    struct Node
    {
        double score = 0;
        qsizetype start = -1;
        int id = 0;
    };
    const qsizetype size = word.size();
    std::vector<Node> best(std::size_t(size) + 1);
    const auto offer = [&](qsizetype start, qsizetype end, int id, double score) {
        Node& node = best[std::size_t(end)];
        const double candidate = score + best[std::size_t(start)].score;
        if (node.start < 0 || candidate > node.score) {
            node = {candidate, start, id};
            return true;
        }
        return false;
    };
    for (qsizetype start = 0; start < size;) {
        const qsizetype charLength = utf16Length(codePointAt(word, start));
        bool singleCharacter = false;
        // The pieces that begin the rest of the word: narrow the sorted pieces one code unit
        // at a time; a piece exactly as long as the depth sorts first in its range.
        auto lo = m_sorted.begin();
        auto hi = m_sorted.end();
        for (qsizetype depth = 0; depth < m_longest && start + depth < size && lo != hi; ++depth) {
            const int unit = word.at(start + depth).unicode();
            lo = std::lower_bound(lo, hi, unit, [&](int id, int u) {
                return unitAt(m_pieces[std::size_t(id)].piece, depth) < u;
            });
            hi = std::upper_bound(lo, hi, unit, [&](int u, int id) {
                return u < unitAt(m_pieces[std::size_t(id)].piece, depth);
            });
            if (lo == hi)
                break;
            const UnigramPiece& first = m_pieces[std::size_t(*lo)];
            if (first.piece.size() == depth + 1) {
                offer(start, start + depth + 1, *lo, first.score);
                if (depth + 1 == charLength)
                    singleCharacter = true;
            }
        }
        // The library asks for the unknown id only when the unknown token would win the node.
        if (!singleCharacter &&
            offer(start, start + charLength, m_unkId.value_or(-1), m_unkScore) && !m_unkId)
            missingUnkId(word, start, start + charLength);
        start += charLength;
    }

    // Back from the end; unknown tokens next to each other fuse (the library's fuse_unk).
    std::vector<ModelToken> path;
    for (qsizetype end = size; end > 0;) {
        const Node& node = best[std::size_t(end)];
        if (m_unkId && node.id == *m_unkId && !path.empty() && path.back().id == *m_unkId &&
            path.back().begin == end)
            path.back().begin = node.start;
        else
            path.push_back({node.id, node.start, end});
        end = node.start;
    }
    std::reverse(path.begin(), path.end());

    // model.rs, tokenize: each token is looked up by its text, so a fused run of unknown
    // characters is the unknown token unless byte fallback spells it in byte pieces.
    for (const ModelToken& token : path) {
        if (!m_unkId || token.id != *m_unkId) {
            out.push_back(token);
            continue;
        }
        const QString text = word.mid(token.begin, token.end - token.begin);
        if (const auto id = idOf(text)) {
            out.push_back({*id, token.begin, token.end});
            continue;
        }
        if (m_byteFallback) {
            const QByteArray bytes = text.toUtf8();
            const bool all = std::all_of(bytes.begin(), bytes.end(), [this](char byte) {
                return m_byteIds[std::uint8_t(byte)] >= 0;
            });
            if (all) {
                for (const char byte : bytes)
                    out.push_back({m_byteIds[std::uint8_t(byte)], token.begin, token.end});
                continue;
            }
        }
        out.push_back(token);
    }
}

} // namespace attn::core::hf
