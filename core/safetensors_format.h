#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn::core {

// The parts of the safetensors format that the single-matrix reader (matrix_io) and the model
// checkpoint (model/checkpoint) share: the header and the element decoding.
//
// safetensors: an 8-byte little-endian header length N, N bytes of JSON (per tensor: dtype,
// shape, data_offsets relative to the end of the header; "__metadata__" ignored), then the
// data, little-endian and row-major (https://github.com/huggingface/safetensors, "Format").

// The safetensors reference implementation refuses headers over 100 MB too.
inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100'000'000;

struct SafetensorsEntry
{
    std::string name;
    std::string dtype; // as written: "F32", "BF16", "I64", ...
    std::vector<std::int64_t> shape;
    std::int64_t begin = 0; // data_offsets, relative to the start of the data section
    std::int64_t end = 0;
};

// The 8-byte header length, checked against the cap and against the file size. Throws Error
// naming `name`.
std::int64_t safetensorsHeaderLength(const char* first8, std::int64_t fileSize,
                                     const QString& name);

// Parses the JSON header and checks every tensor's offsets (within the `dataSize` bytes of
// data, begin <= end, no two tensors overlapping) and that no tensor name is given twice;
// sorted by name. Dtypes and shapes are not checked here, so that a reader can decide whether
// one exotic tensor spoils the file.
std::vector<SafetensorsEntry> parseSafetensorsHeader(const QByteArray& json, std::int64_t dataSize,
                                                     const QString& name);

// The element types read as float32.
enum class ElementType { F16, BF16, F32, F64 };

constexpr int itemSize(ElementType type)
{
    return type == ElementType::F64 ? 8 : type == ElementType::F32 ? 4 : 2;
}

// "F16", "BF16", "F32", "F64"; nullopt for every other dtype.
std::optional<ElementType> floatElementType(std::string_view dtype);
// Bytes per element of any dtype the format defines (BOOL, U8 ... F64); 0 for an unknown one.
int safetensorsDtypeSize(std::string_view dtype);

// IEEE 754 binary16; every half value is exactly representable as a float.
float halfToFloat(std::uint16_t h);
// bfloat16 is the top half of a float32.
float bfloat16ToFloat(std::uint16_t b);

// `count` contiguous little-endian F16, BF16 or F32 elements (any alignment) as float32 into
// `out`. Exact, NaN and infinity included (F16 NaNs come out quiet). F64 is the caller's, as
// its values may lie beyond float32 range. Vectorised with F16C / AVX2 where the build has them.
void decodeLittleEndian(const char* data, ElementType type, std::int64_t count, float* out);

} // namespace attn::core
