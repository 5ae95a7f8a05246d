#include "core/tokenizers/sentencepiece_model.h"

#include "core/error.h"
#include "core/regular_file.h"

#include <sentencepiece_processor.h>

#include <string>

namespace attn::core {

namespace {

// The largest public SentencePiece models (XLM-R's, NLLB's 256k pieces) are about 5 MB.
constexpr qint64 kMaxModelBytes = qint64(256) << 20;

// UTF-16 position of every UTF-8 byte offset of `utf8` (one past the end included); a byte
// inside a character maps to the character's start.
std::vector<qsizetype> utf16Positions(const std::string& utf8)
{
    std::vector<qsizetype> positions(utf8.size() + 1, 0);
    qsizetype units = 0;
    for (std::size_t i = 0; i < utf8.size();) {
        const auto lead = std::uint8_t(utf8[i]);
        const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        for (std::size_t k = 0; k < length && i + k < utf8.size(); ++k)
            positions[i + k] = units;
        i += length;
        units += length == 4 ? 2 : 1;
    }
    positions[utf8.size()] = units;
    return positions;
}

} // namespace

SentencePieceModel::SentencePieceModel()
    : m_processor(std::make_unique<sentencepiece::SentencePieceProcessor>())
{
}

SentencePieceModel::~SentencePieceModel() = default;

std::shared_ptr<const SentencePieceModel> SentencePieceModel::load(const QString& path)
{
    return fromBytes(readRegularFile(path, kMaxModelBytes), path);
}

std::shared_ptr<const SentencePieceModel> SentencePieceModel::fromBytes(const QByteArray& bytes,
                                                                        const QString& name)
{
    std::shared_ptr<SentencePieceModel> model(new SentencePieceModel);
    model->m_name = name;
    const auto status =
        model->m_processor->LoadFromSerializedProto(std::string(bytes.constData(), bytes.size()));
    if (!status.ok())
        throw Error(name.toStdString(),
                    std::string("not a SentencePiece model (") + status.message() + ")");
    return model;
}

std::vector<SentencePieceModel::Piece> SentencePieceModel::encode(const QString& text,
                                                                  int maxTokens) const
{
    const std::string utf8 = text.toStdString();
    const sentencepiece::ImmutableSentencePieceText encoded =
        m_processor->EncodeAsImmutableProto(utf8);
    if (encoded.pieces_size() > std::size_t(std::max(maxTokens, 0))) {
        const std::string limit = std::to_string(maxTokens);
        throw Error("the text has more than " + limit + " tokens; the limit is " + limit);
    }
    const std::vector<qsizetype> positions = utf16Positions(utf8);
    std::vector<Piece> pieces;
    pieces.reserve(encoded.pieces_size());
    for (const auto& piece : encoded.pieces()) {
        const std::size_t begin = std::min<std::size_t>(piece.begin(), utf8.size());
        const std::size_t end =
            std::min<std::size_t>(std::max(piece.end(), piece.begin()), utf8.size());
        pieces.push_back({int(piece.id()), QString::fromStdString(piece.piece()), positions[begin],
                          positions[end]});
    }
    return pieces;
}

QString SentencePieceModel::decode(const std::vector<int>& ids) const
{
    std::vector<int> known;
    known.reserve(ids.size());
    for (int id : ids)
        if (id >= 0 && id < size())
            known.push_back(id);
    return QString::fromStdString(m_processor->DecodeIds(known));
}

int SentencePieceModel::size() const
{
    return m_processor->GetPieceSize();
}

QString SentencePieceModel::pieceOf(int id) const
{
    if (id < 0 || id >= size())
        return {};
    return QString::fromStdString(m_processor->IdToPiece(id));
}

std::optional<int> SentencePieceModel::idOf(const QString& piece) const
{
    const std::string utf8 = piece.toStdString();
    const int id = m_processor->PieceToId(utf8);
    // PieceToId answers unk_id for a piece it does not know.
    if (id < 0 || (id == m_processor->unk_id() && m_processor->IdToPiece(id) != utf8))
        return std::nullopt;
    return id;
}

std::optional<int> SentencePieceModel::unkId() const
{
    const int id = m_processor->unk_id();
    if (id < 0 || id >= size())
        return std::nullopt;
    return id;
}

} // namespace attn::core
