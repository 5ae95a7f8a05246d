#include "safetensors_format.h"

#include "error.h"
#include "json_duplicate_keys.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <Eigen/Core>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace attn::core {

namespace {

[[noreturn]] void fail(const QString& name, const std::string& what)
{
    throw Error(name.toStdString(), what);
}

std::uint64_t loadLittleEndian64(const char* p)
{
    std::uint64_t value = 0;
    for (int k = 7; k >= 0; --k)
        value = (value << 8) | static_cast<unsigned char>(p[k]);
    return value;
}

std::int64_t jsonCount(const QJsonValue& value)
{
    return value.isDouble() ? value.toInteger(-1) : -1;
}

} // namespace

std::int64_t safetensorsHeaderLength(const char* first8, std::int64_t fileSize, const QString& name)
{
    const std::uint64_t length = loadLittleEndian64(first8);
    if (length > kMaxSafetensorsHeaderBytes)
        fail(name, "safetensors header length " + std::to_string(length) + " is more than the " +
                       std::to_string(kMaxSafetensorsHeaderBytes) + " bytes allowed");
    if (length > std::uint64_t(fileSize - 8))
        fail(name, "safetensors header length " + std::to_string(length) + " is larger than the " +
                       std::to_string(fileSize - 8) + " bytes after it");
    return std::int64_t(length);
}

std::vector<SafetensorsEntry> parseSafetensorsHeader(const QByteArray& json, std::int64_t dataSize,
                                                     const QString& name)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        fail(name, "safetensors header is not valid JSON: " + error.errorString().toStdString() +
                       " at offset " + std::to_string(error.offset));
    if (!document.isObject())
        fail(name, "safetensors header is not a JSON object");

    // QJsonDocument keeps only the last of two equal keys, which would silently pick one of
    // two tensors of the same name.
    if (const auto twice = findDuplicateJsonKey(json)) {
        if (twice->topLevel)
            fail(name, "tensor '" + twice->key.toStdString() +
                           "' is given twice in the safetensors header");
        fail(name, "tensor '" + twice->topLevelKey.toStdString() + "': '" + twice->path +
                       "' is given twice in the safetensors header");
    }

    std::vector<SafetensorsEntry> tensors;
    const QJsonObject root = document.object();
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (it.key() == QLatin1String("__metadata__"))
            continue;
        SafetensorsEntry entry;
        entry.name = it.key().toStdString();
        const std::string what = "tensor '" + entry.name + "': ";
        const QJsonObject info = it.value().toObject();
        const QJsonArray offsets = info.value(QLatin1String("data_offsets")).toArray();
        const QJsonValue dtype = info.value(QLatin1String("dtype"));
        const QJsonValue shape = info.value(QLatin1String("shape"));
        if (!it.value().isObject() || !dtype.isString() || !shape.isArray() || offsets.size() != 2)
            fail(name, what + "needs 'dtype', 'shape' and two 'data_offsets'");
        entry.dtype = dtype.toString().toStdString();
        for (const QJsonValue dim : shape.toArray()) {
            entry.shape.push_back(jsonCount(dim));
            if (entry.shape.back() < 0)
                fail(name, what + "shape entries must be non-negative integers");
        }
        entry.begin = jsonCount(offsets[0]);
        entry.end = jsonCount(offsets[1]);
        if (entry.begin < 0 || entry.end < 0)
            fail(name, what + "data_offsets must be two non-negative integers");
        if (entry.end < entry.begin || entry.end > dataSize)
            fail(name, what + "data_offsets [" + std::to_string(entry.begin) + ", " +
                           std::to_string(entry.end) + "] are not a range within the " +
                           std::to_string(dataSize) + " bytes of data");
        tensors.push_back(std::move(entry));
    }

    std::vector<const SafetensorsEntry*> byOffset;
    for (const SafetensorsEntry& entry : tensors)
        byOffset.push_back(&entry);
    std::sort(
        byOffset.begin(), byOffset.end(),
        [](const SafetensorsEntry* a, const SafetensorsEntry* b) { return a->begin < b->begin; });
    for (std::size_t k = 1; k < byOffset.size(); ++k) {
        if (byOffset[k]->begin < byOffset[k - 1]->end)
            fail(name, "tensors '" + byOffset[k - 1]->name + "' and '" + byOffset[k]->name +
                           "' overlap in the data section");
    }
    std::sort(tensors.begin(), tensors.end(),
              [](const SafetensorsEntry& a, const SafetensorsEntry& b) { return a.name < b.name; });
    return tensors;
}

std::optional<ElementType> floatElementType(std::string_view dtype)
{
    if (dtype == "F32")
        return ElementType::F32;
    if (dtype == "F16")
        return ElementType::F16;
    if (dtype == "BF16")
        return ElementType::BF16;
    if (dtype == "F64")
        return ElementType::F64;
    return std::nullopt;
}

int safetensorsDtypeSize(std::string_view dtype)
{
    // The dtypes of the format's Dtype enum (safetensors/src/tensor.rs).
    static constexpr std::pair<std::string_view, int> kSizes[] = {
        {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E5M2", 1}, {"F8_E4M3", 1},
        {"I16", 2},  {"U16", 2}, {"F16", 2}, {"BF16", 2},    {"I32", 4},
        {"U32", 4},  {"F32", 4}, {"F64", 8}, {"I64", 8},     {"U64", 8},
    };
    for (const auto& [name, size] : kSizes)
        if (name == dtype)
            return size;
    return 0;
}

float halfToFloat(std::uint16_t h)
{
    const float value = static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(h));
    // Eigen 3.4's portable conversion keeps a signalling NaN signalling; quieted here (bit 22
    // set), as the F16C instruction of the bulk path does, so both paths give the same bits.
    return std::isnan(value)
               ? std::bit_cast<float>(std::bit_cast<std::uint32_t>(value) | 0x00400000u)
               : value;
}

float bfloat16ToFloat(std::uint16_t b)
{
    return static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(b));
}

namespace {

template <typename Bits> Bits loadLittleEndianBits(const char* p)
{
    Bits bits;
    std::memcpy(&bits, p, sizeof bits);
    if constexpr (std::endian::native == std::endian::big) {
        if constexpr (sizeof(Bits) == 2)
            bits = __builtin_bswap16(bits);
        else
            bits = __builtin_bswap32(bits);
    }
    return bits;
}

#if defined(__x86_64__)
// Eight values at a time where the CPU has the instructions: each routine is compiled for
// its own instruction set (GCC's target attribute) and chosen at run time, so the library
// runs on a baseline x86-64 CPU. Both return how many leading values they decoded.
// Kept hand-written because Eigen 3.4 is slower here: 64 Mi values on the default build (GCC
// 12 -O3, x86-64 baseline, AMD EPYC), best of 7: F16 12-28 ms here against 116-188 ms for
// Eigen::half (scalar or Array::cast<float>, which never uses F16C under GCC); BF16 20-32 ms
// against 35-47 ms for Eigen::bfloat16 (docs/PERFORMANCE.md, "Libraries measured").
__attribute__((target("avx,f16c"))) std::int64_t decodeHalfF16c(const char* data,
                                                                std::int64_t count, float* out)
{
    std::int64_t k = 0;
    for (; k + 8 <= count; k += 8) {
        const __m128i halves = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 2 * k));
        _mm256_storeu_ps(out + k, _mm256_cvtph_ps(halves));
    }
    return k;
}

__attribute__((target("avx2"))) std::int64_t decodeBfloat16Avx2(const char* data,
                                                                std::int64_t count, float* out)
{
    std::int64_t k = 0;
    for (; k + 8 <= count; k += 8) {
        const __m128i halves = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 2 * k));
        const __m256i widened = _mm256_slli_epi32(_mm256_cvtepu16_epi32(halves), 16);
        _mm256_storeu_ps(out + k, _mm256_castsi256_ps(widened));
    }
    return k;
}

#endif

void decodeHalf(const char* data, std::int64_t count, float* out)
{
    std::int64_t k = 0;
#if defined(__x86_64__)
    static const bool f16c = [] {
        // F16C: CPUID leaf 1, ECX bit 29 (clang's __builtin_cpu_supports does not know it); its
        // instructions need the AVX state the OS saves, which "avx" checks.
        __builtin_cpu_init();
        unsigned a = 0, b = 0, c = 0, d = 0;
        return __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) &&
               (c & bit_F16C) != 0;
    }();
    if (std::endian::native == std::endian::little && f16c)
        k = decodeHalfF16c(data, count, out);
#endif
    for (; k < count; ++k)
        out[k] = halfToFloat(loadLittleEndianBits<std::uint16_t>(data + 2 * k));
}

void decodeBfloat16(const char* data, std::int64_t count, float* out)
{
    std::int64_t k = 0;
#if defined(__x86_64__)
    static const bool avx2 = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    }();
    if (std::endian::native == std::endian::little && avx2)
        k = decodeBfloat16Avx2(data, count, out);
#endif
    for (; k < count; ++k)
        out[k] = bfloat16ToFloat(loadLittleEndianBits<std::uint16_t>(data + 2 * k));
}

void decodeFloat(const char* data, std::int64_t count, float* out)
{
    if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(out, data, std::size_t(count) * sizeof(float));
    } else {
        for (std::int64_t k = 0; k < count; ++k)
            out[k] = std::bit_cast<float>(loadLittleEndianBits<std::uint32_t>(data + 4 * k));
    }
}

} // namespace

void decodeLittleEndian(const char* data, ElementType type, std::int64_t count, float* out)
{
    switch (type) {
    case ElementType::F16:
        decodeHalf(data, count, out);
        return;
    case ElementType::BF16:
        decodeBfloat16(data, count, out);
        return;
    case ElementType::F32:
        decodeFloat(data, count, out);
        return;
    case ElementType::F64:
        break;
    }
    throw Error("decodeLittleEndian: F64 must be decoded by the caller (range check)");
}

} // namespace attn::core
