#include "core/error.h"
#include "core/matrix_io.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

using attn::core::Matrix;

Q_DECLARE_METATYPE(attn::core::Matrix)

namespace {

QString dataFile(const QString& name)
{
    return QStringLiteral(ATTN_TEST_DATA_DIR "/matrices/") + name;
}

QByteArray fileBytes(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open test data %s", qPrintable(path));
    return file.readAll();
}

void writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

Matrix rows(std::initializer_list<std::initializer_list<float>> values)
{
    Matrix m(Eigen::Index(values.size()), Eigen::Index(values.begin()->size()));
    Eigen::Index i = 0;
    for (const auto& row : values) {
        Eigen::Index j = 0;
        for (float v : row)
            m(i, j++) = v;
        ++i;
    }
    return m;
}

float fromBits(quint32 bits)
{
    return std::bit_cast<float>(bits);
}

// Same shape and the same bits in every cell (so -0 vs 0 and NaN payloads count).
bool bitExact(const Matrix& a, const Matrix& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0;
}

QByteArray describe(const Matrix& m)
{
    QByteArray text =
        QByteArray::number(qint64(m.rows())) + "x" + QByteArray::number(qint64(m.cols())) + ":";
    for (Eigen::Index k = 0; k < m.size() && k < 16; ++k)
        text += " " + QByteArray::number(double(m.data()[k]), 'g', 9);
    return text;
}

#define VERIFY_BIT_EXACT(actual, expected)                                                         \
    QVERIFY2(bitExact(actual, expected),                                                           \
             ("got " + describe(actual) + ", expected " + describe(expected)).constData())

enum class NamePosition { First, Anywhere };

// Runs `call`, which must throw Error whose message starts with `name` (or, for the
// "cannot read/write <path>: <reason>" messages of atomic_file.h, names it) and
// contains `fragment`.
void expectError(const std::function<void()>& call, const QString& name, const QString& fragment,
                 NamePosition position = NamePosition::First)
{
    try {
        call();
    } catch (const attn::core::Error& error) {
        const QString message = QString::fromStdString(error.what());
        QVERIFY2(position == NamePosition::First ? message.startsWith(name + ": ")
                                                 : message.contains(name),
                 qPrintable("message does not name " + name + ": " + message));
        QVERIFY2(message.contains(fragment), qPrintable("'" + fragment + "' not in: " + message));
        return;
    }
    QFAIL(qPrintable("no Error thrown, expected one containing '" + fragment + "'"));
}

// A .npy file with a hand-written header dict (padded like numpy's) and raw data.
QByteArray npyWith(const QByteArray& dict, const QByteArray& data, int major = 1)
{
    QByteArray header = dict;
    const int lengthBytes = major == 1 ? 2 : 4;
    while ((8 + lengthBytes + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    QByteArray out("\x93NUMPY", 6);
    out += char(major);
    out += char(0);
    for (int k = 0; k < lengthBytes; ++k)
        out += char((header.size() >> (8 * k)) & 0xff);
    return out + header + data;
}

// JSON written with single quotes, to keep the test rows readable.
QByteArray jsonText(QByteArray text)
{
    return text.replace('\'', '"');
}

// A safetensors file from a JSON header and raw data.
QByteArray safetensorsWith(const QByteArray& json, const QByteArray& data)
{
    QByteArray out;
    for (int k = 0; k < 8; ++k)
        out += char((quint64(json.size()) >> (8 * k)) & 0xff);
    return out + json + data;
}

QByteArray littleEndianFloats(std::initializer_list<float> values)
{
    QByteArray out;
    for (float v : values) {
        const quint32 bits = std::bit_cast<quint32>(v);
        for (int k = 0; k < 4; ++k)
            out += char((bits >> (8 * k)) & 0xff);
    }
    return out;
}

QByteArray littleEndianDoubles(std::initializer_list<double> values)
{
    QByteArray out;
    for (double v : values) {
        const quint64 bits = std::bit_cast<quint64>(v);
        for (int k = 0; k < 8; ++k)
            out += char((bits >> (8 * k)) & 0xff);
    }
    return out;
}

// Finite float32 values drawn from random bit patterns, so every exponent and mantissa
// shape appears (the hard cases for shortest-decimal CSV output).
Matrix randomBitsMatrix(Eigen::Index r, Eigen::Index c, unsigned seed)
{
    std::mt19937 generator(seed);
    Matrix m(r, c);
    for (Eigen::Index k = 0; k < m.size(); ++k) {
        float v;
        do
            v = std::bit_cast<float>(quint32(generator()));
        while (!std::isfinite(v));
        m.data()[k] = v;
    }
    return m;
}

Matrix specialValues()
{
    constexpr auto lim = std::numeric_limits<float>();
    return rows({{0.0f, -0.0f, 0.1f, 1.0f / 3.0f},
                 {lim.min(), lim.denorm_min(), lim.max(), -lim.max()},
                 {lim.infinity(), -lim.infinity(), lim.quiet_NaN(), -1e-40f}});
}

void addRoundTripRows()
{
    QTest::addColumn<Matrix>("matrix");
    QTest::newRow("1x1") << rows({{42.5f}});
    QTest::newRow("specials 3x4") << specialValues();
    QTest::newRow("one row 1x7") << rows({{1, 2, 3, 4, 5, 6, 7}});
    QTest::newRow("one column 5x1") << rows({{1}, {-2}, {3}, {-4}, {5}});
    QTest::newRow("random bits 64x48") << randomBitsMatrix(64, 48, 1);
}

} // namespace

class TestMatrixIo : public QObject
{
    Q_OBJECT

private slots:
    // ---- .npy
    void npyRoundTrip_data() { addRoundTripRows(); }
    void npyRoundTrip()
    {
        QFETCH(Matrix, matrix);
        VERIFY_BIT_EXACT(attn::core::parseNpy(attn::core::npyBytes(matrix), "m.npy"), matrix);
    }

    void npyNanPayloadSurvives()
    {
        const Matrix m = rows({{fromBits(0x7fc12345u), fromBits(0xffa00001u)}});
        VERIFY_BIT_EXACT(attn::core::parseNpy(attn::core::npyBytes(m), "m.npy"), m);
    }

    void npyHeaderLayout()
    {
        const QByteArray bytes = attn::core::npyBytes(rows({{1, 2, 3}, {4, 5, 6}}));
        QCOMPARE(bytes.left(8), QByteArray("\x93NUMPY\x01\x00", 8));
        const int headerLength = quint8(bytes[8]) | (quint8(bytes[9]) << 8);
        QCOMPARE((10 + headerLength) % 64, 0); // NEP 1: data starts 64-byte aligned
        const QByteArray header = bytes.mid(10, headerLength);
        QVERIFY(header.startsWith("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"));
        QVERIFY(header.endsWith(" \n"));
        QCOMPARE(bytes.size(), 10 + headerLength + 6 * 4);
        QCOMPARE(bytes.mid(10 + headerLength, 4), littleEndianFloats({1.0f}));
    }

    void npyFromNumpy_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<Matrix>("expected");
        QTest::newRow("float64 Fortran order")
            << "f8_fortran.npy" << rows({{1.5f, -2.25f, 3}, {4, 5.125f, -6}});
        QTest::newRow("float32 big-endian")
            << "f4_big_endian.npy"
            << rows({{0.1f, -1e-3f}, {std::numeric_limits<float>::max(), 7}});
        QTest::newRow("float64 big-endian 1-D")
            << "f8_big_endian_1d.npy" << rows({{0.5f, -0.25f, static_cast<float>(1e-3)}});
        QTest::newRow("float32 1-D is one row") << "f4_1d.npy" << rows({{0, 0.5f, 1, 1.5f, 2}});
        QTest::newRow("format 2.0") << "f4_v2.npy" << rows({{1, 2}, {3, -4.5f}});
        QTest::newRow("format 3.0") << "f4_v3.npy" << rows({{1, 2}, {3, -4.5f}});
    }
    void npyFromNumpy()
    {
        QFETCH(QString, file);
        QFETCH(Matrix, expected);
        VERIFY_BIT_EXACT(attn::core::readNpy(dataFile(file)), expected);
        VERIFY_BIT_EXACT(attn::core::readMatrixFile(dataFile(file)), expected);
    }

    void npyRejects_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("fragment");
        const QByteArray good = attn::core::npyBytes(rows({{1, 2, 3}, {4, 5, 6}}));
        const QByteArray f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': ";
        const QByteArray eightBytes = littleEndianFloats({1, 2});

        QTest::newRow("empty file") << QByteArray() << "magic";
        QTest::newRow("wrong magic") << QByteArray("\x93NUMPZ\x01\x00", 8) + good.mid(8) << "magic";
        QTest::newRow("cut in the length") << good.left(9) << "truncated";
        QTest::newRow("cut in the header") << good.left(40) << "truncated";
        QTest::newRow("version 4.0")
            << QByteArray("\x93NUMPY\x04\x00", 8) + good.mid(8) << "version 4.0";
        QTest::newRow("data cut short")
            << good.chopped(4) << "shape (2, 3) claims 6 elements, the file holds 20 bytes";
        QTest::newRow("data too long") << good + "abcd"
                                       << "the file holds 28 bytes";
        QTest::newRow("int32 from numpy")
            << fileBytes(dataFile("i4.npy")) << "unsupported dtype '<i4'";
        QTest::newRow("bool from numpy")
            << fileBytes(dataFile("b1.npy")) << "unsupported dtype '|b1'";
        QTest::newRow("float16") << npyWith(
                                        "{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }",
                                        "abcd")
                                 << "unsupported dtype '<f2'";
        QTest::newRow("rank 3 from numpy") << fileBytes(dataFile("rank3.npy")) << "shape (2, 2, 2)";
        QTest::newRow("scalar from numpy") << fileBytes(dataFile("scalar.npy")) << "shape ()";
        QTest::newRow("0x3 from numpy") << fileBytes(dataFile("empty.npy")) << "empty matrix";
        QTest::newRow("float64 beyond float32")
            << fileBytes(dataFile("f8_out_of_range.npy")) << "value out of float32 range at (0, 1)";
        QTest::newRow("missing comma")
            << npyWith("{'descr': '<f4' 'fortran_order': False}", eightBytes)
            << "malformed .npy header";
        QTest::newRow("missing key") << npyWith("{'descr': '<f4', 'shape': (2,), }", eightBytes)
                                     << "needs 'descr', 'fortran_order' and 'shape'";
        QTest::newRow("extra key") << npyWith(f4 + "(2,), 'extra': 1, }", eightBytes)
                                   << "unexpected or repeated key 'extra'";
        QTest::newRow("repeated key") << npyWith(f4 + "(2,), 'shape': (2,), }", eightBytes)
                                      << "unexpected or repeated key 'shape'";
        QTest::newRow("structured dtype")
            << npyWith("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }",
                       eightBytes)
            << "structured";
        QTest::newRow("fortran_order not a bool")
            << npyWith("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }", eightBytes)
            << "True or False";
        QTest::newRow("negative dimension")
            << npyWith(f4 + "(-1, 2), }", eightBytes) << "non-negative";
        QTest::newRow("dimension beyond int64")
            << npyWith(f4 + "(99999999999999999999, 1), }", eightBytes) << "larger than 2^63";
        QTest::newRow("element count overflows")
            << npyWith(f4 + "(9223372036854775807, 2), }", eightBytes)
            << "claims more than 2^63 elements";
        QTest::newRow("text after the dict")
            << npyWith(f4 + "(2,), } x", eightBytes) << "after the closing";
    }
    void npyRejects()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, fragment);
        expectError([&] { attn::core::parseNpy(bytes, "weights.npy"); }, "weights.npy", fragment);

        QTemporaryDir dir;
        const QString path = dir.filePath("bad.npy");
        writeBytes(path, bytes);
        expectError([&] { attn::core::readMatrixFile(path); }, path, fragment);
    }

    void npyHugeClaimFailsFast()
    {
        const QByteArray bytes =
            npyWith("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000, 1000000), }",
                    QByteArray(48, '\0'));
        QElapsedTimer timer;
        timer.start();
        expectError([&] { attn::core::parseNpy(bytes, "weights.npy"); }, "weights.npy",
                    "claims 1000000000000 elements, the file holds 48 bytes of data");
        QVERIFY2(timer.elapsed() < 500, "a huge header claim must fail before any allocation");
    }

    // ---- CSV
    void csvRoundTrip_data() { addRoundTripRows(); }
    void csvRoundTrip()
    {
        QFETCH(Matrix, matrix);
        VERIFY_BIT_EXACT(attn::core::parseCsv(attn::core::csvBytes(matrix), "m.csv"), matrix);
    }

    void csvText()
    {
        QCOMPARE(attn::core::csvBytes(rows({{1.5f, -2}, {0.1f, 3e-5f}})),
                 QByteArray("1.5,-2\n0.1,3e-05\n"));
    }

    void csvParse_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<Matrix>("expected");
        QTest::newRow("plain") << QByteArray("1,2,3\n4,5,6\n") << rows({{1, 2, 3}, {4, 5, 6}});
        QTest::newRow("CRLF and trailing blank lines")
            << QByteArray("1,2\r\n3,4\r\n\r\n  \r\n") << rows({{1, 2}, {3, 4}});
        QTest::newRow("no final newline") << QByteArray("1,2\n3,4") << rows({{1, 2}, {3, 4}});
        QTest::newRow("header skipped") << QByteArray("key a,key b\n1,2\n") << rows({{1, 2}});
        QTest::newRow("spaces and tabs around fields")
            << QByteArray(" 1 ,\t2\n3,  4 \n") << rows({{1, 2}, {3, 4}});
        QTest::newRow("byte order mark") << QByteArray("\xEF\xBB\xBF"
                                                       "1,2\n")
                                         << rows({{1, 2}});
        QTest::newRow("leading blank line") << QByteArray("\n1,2\n") << rows({{1, 2}});
        QTest::newRow("one column") << QByteArray("1\n2\n3\n") << rows({{1}, {2}, {3}});
        QTest::newRow("signs and exponents")
            << QByteArray("-1.5e-3,+2,.5,5.,1E2\n") << rows({{-1.5e-3f, 2, 0.5f, 5, 100}});
        QTest::newRow("underflow is a signed zero")
            << QByteArray("1e-50,-1e-50,-1e-400\n") << rows({{0.0f, -0.0f, -0.0f}});
        QTest::newRow("subnormal") << QByteArray("1e-40\n") << rows({{1e-40f}});
        QTest::newRow("float32 max")
            << QByteArray("3.4028235e38\n") << rows({{std::numeric_limits<float>::max()}});
    }
    void csvParse()
    {
        QFETCH(QByteArray, text);
        QFETCH(Matrix, expected);
        VERIFY_BIT_EXACT(attn::core::parseCsv(text, "m.csv"), expected);
    }

    void csvNanAndInfinity()
    {
        const Matrix m = attn::core::parseCsv("nan,-inf,inf\n", "m.csv");
        QVERIFY(std::isnan(m(0, 0)));
        QCOMPARE(m(0, 1), -std::numeric_limits<float>::infinity());
        QCOMPARE(m(0, 2), std::numeric_limits<float>::infinity());
    }

    void csvFromNumpySavetxt()
    {
        VERIFY_BIT_EXACT(attn::core::readCsv(dataFile("savetxt_header.csv")),
                         rows({{0.25f, -1, 3}, {1e-3f, 2.5e10f, -0.0f}}));
    }

    void csvRejects_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("ragged") << QByteArray("1,2,3\n4,5\n")
                                << "line 2 has 2 columns, the rows above have 3";
        QTest::newRow("ragged after a header")
            << QByteArray("a,b\n1,2\n3\n") << "line 3 has 1 columns";
        QTest::newRow("ragged with CRLF")
            << QByteArray("1,2\r\n3,4\r\n5,6,7\r\n") << "line 3 has 3 columns";
        QTest::newRow("bad number")
            << QByteArray("1,2\n3,x4\n") << "line 2, column 2: 'x4' is not a number";
        QTest::newRow("number with junk") << QByteArray("1,2.5.1\n") << "line 1, column 2: '2.5.1'";
        QTest::newRow("empty field") << QByteArray("1,,3\n") << "line 1, column 2";
        QTest::newRow("trailing comma") << QByteArray("1,2,\n") << "line 1, column 3";
        QTest::newRow("hexadecimal")
            << QByteArray("1\n0x10\n") << "line 2, column 1: '0x10' is not a number";
        QTest::newRow("semicolons")
            << QByteArray("1,2\n3;4\n") << "line 2, column 1: '3;4' is not a number";
        QTest::newRow("semicolons on the only line")
            << QByteArray("1;2\n") << "empty matrix: its only line, '1;2', was taken for a header";
        QTest::newRow("beyond float32")
            << QByteArray("1,1e39\n") << "line 1, column 2: value '1e39' is out of float32 range";
        QTest::newRow("beyond float64") << QByteArray("-1e400\n") << "out of float32 range";
        QTest::newRow("second non-numeric line")
            << QByteArray("a,b\nc,d\n") << "line 2, column 1: 'c'";
        QTest::newRow("blank line inside")
            << QByteArray("1,2\n\n3,4\n") << "line 2 is blank but more data follows";
        QTest::newRow("empty file") << QByteArray() << "empty matrix";
        QTest::newRow("header only") << QByteArray("a,b,c\n") << "empty matrix";
    }
    void csvRejects()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, fragment);
        expectError([&] { attn::core::parseCsv(text, "scores.csv"); }, "scores.csv", fragment);
    }

    // ---- safetensors
    void safetensorsRoundTrip_data() { addRoundTripRows(); }
    void safetensorsRoundTrip()
    {
        QFETCH(Matrix, matrix);
        const std::map<std::string, Matrix> tensors{{"wq", matrix},
                                                    {"bias", rows({{1, 2, 3, 4}})},
                                                    {"a.weight", randomBitsMatrix(5, 7, 2)}};
        const QByteArray bytes = attn::core::safetensorsBytes(tensors);

        quint64 headerLength = 0;
        for (int k = 7; k >= 0; --k)
            headerLength = (headerLength << 8) | quint8(bytes[k]);
        QCOMPARE((8 + headerLength) % 8, 0u); // data 8-byte aligned
        const QJsonObject header =
            QJsonDocument::fromJson(bytes.mid(8, qsizetype(headerLength))).object();
        QCOMPARE(header.keys(), QStringList({"a.weight", "bias", "wq"}));
        QCOMPARE(header["a.weight"].toObject()["data_offsets"].toArray(), QJsonArray({0, 140}));
        QCOMPARE(header["bias"].toObject()["data_offsets"].toArray(), QJsonArray({140, 156}));
        QCOMPARE(header["wq"].toObject()["dtype"].toString(), QString("F32"));
        QCOMPARE(header["wq"].toObject()["shape"].toArray(),
                 QJsonArray({qint64(matrix.rows()), qint64(matrix.cols())}));

        for (const auto& [name, expected] : tensors)
            VERIFY_BIT_EXACT(attn::core::parseSafetensors(bytes, name, "m.safetensors"), expected);

        QTemporaryDir dir;
        const QString path = dir.filePath("m.safetensors");
        writeBytes(path, bytes);
        QCOMPARE(attn::core::safetensorsNames(path),
                 (std::vector<std::string>{"a.weight", "bias", "wq"}));
        for (const auto& [name, expected] : tensors)
            VERIFY_BIT_EXACT(attn::core::readSafetensors(path, name), expected);
    }

    void safetensorsHalfPrecision_data()
    {
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<quint16>("bits");
        QTest::addColumn<quint32>("expectedBits");
        QTest::newRow("F16 1.5") << "F16" << quint16(0x3E00) << 0x3FC00000u;
        QTest::newRow("F16 -2") << "F16" << quint16(0xC000) << 0xC0000000u;
        QTest::newRow("F16 65504 (max)") << "F16" << quint16(0x7BFF) << 0x477FE000u;
        QTest::newRow("F16 1/3 rounded")
            << "F16" << quint16(0x3555) << 0x3EAAA000u; // 0.333251953125
        QTest::newRow("F16 2^-24 (smallest subnormal)") << "F16" << quint16(0x0001) << 0x33800000u;
        QTest::newRow("F16 largest subnormal") << "F16" << quint16(0x03FF) << 0x387FC000u;
        QTest::newRow("F16 2^-14 (smallest normal)") << "F16" << quint16(0x0400) << 0x38800000u;
        QTest::newRow("F16 -0") << "F16" << quint16(0x8000) << 0x80000000u;
        QTest::newRow("F16 inf") << "F16" << quint16(0x7C00) << 0x7F800000u;
        QTest::newRow("F16 -inf") << "F16" << quint16(0xFC00) << 0xFF800000u;
        QTest::newRow("F16 NaN") << "F16" << quint16(0x7E00) << 0x7FC00000u;
        QTest::newRow("BF16 1.5") << "BF16" << quint16(0x3FC0) << 0x3FC00000u;
        QTest::newRow("BF16 -2") << "BF16" << quint16(0xC000) << 0xC0000000u;
        QTest::newRow("BF16 3.140625") << "BF16" << quint16(0x4049) << 0x40490000u;
        QTest::newRow("BF16 max") << "BF16" << quint16(0x7F7F) << 0x7F7F0000u;
        QTest::newRow("BF16 subnormal") << "BF16" << quint16(0x0001) << 0x00010000u;
        QTest::newRow("BF16 -inf") << "BF16" << quint16(0xFF80) << 0xFF800000u;
    }
    void safetensorsHalfPrecision()
    {
        QFETCH(QString, dtype);
        QFETCH(quint16, bits);
        QFETCH(quint32, expectedBits);
        // The value sits second, after a 1.0, to exercise the element stride.
        const quint16 one = dtype == "F16" ? 0x3C00 : 0x3F80;
        const char raw[] = {char(one & 0xff), char(one >> 8), char(bits & 0xff), char(bits >> 8)};
        const QByteArray data(raw, sizeof raw);
        const QByteArray json =
            "{\"t\":{\"dtype\":\"" + dtype.toLatin1() + "\",\"shape\":[2],\"data_offsets\":[0,4]}}";
        const Matrix m =
            attn::core::parseSafetensors(safetensorsWith(json, data), "t", "m.safetensors");
        VERIFY_BIT_EXACT(m, rows({{1.0f, fromBits(expectedBits)}}));
    }

    // Nine copies of one value: the first eight take the vectorised path where the CPU has
    // F16C / AVX2, the ninth the scalar one; both must give these bits.
    void safetensorsSpecialBitsEveryPath_data()
    {
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<quint16>("bits");
        QTest::addColumn<quint32>("expectedBits");
        QTest::newRow("F16 signalling NaN, made quiet") << "F16" << quint16(0x7C01) << 0x7FC02000u;
        QTest::newRow("F16 -signalling NaN, payload kept")
            << "F16" << quint16(0xFD55) << 0xFFEAA000u;
        QTest::newRow("F16 quiet NaN, payload kept") << "F16" << quint16(0x7FFF) << 0x7FFFE000u;
        QTest::newRow("F16 -2^-24 (subnormal)") << "F16" << quint16(0x8001) << 0xB3800000u;
        QTest::newRow("F16 2^-15 (subnormal)") << "F16" << quint16(0x0200) << 0x38000000u;
        QTest::newRow("F16 -largest subnormal") << "F16" << quint16(0x83FF) << 0xB87FC000u;
        QTest::newRow("F16 inf") << "F16" << quint16(0x7C00) << 0x7F800000u;
        QTest::newRow("F16 -inf") << "F16" << quint16(0xFC00) << 0xFF800000u;
        QTest::newRow("F16 -0") << "F16" << quint16(0x8000) << 0x80000000u;
        QTest::newRow("BF16 signalling NaN, kept") << "BF16" << quint16(0x7F81) << 0x7F810000u;
        QTest::newRow("BF16 -quiet NaN") << "BF16" << quint16(0xFFC0) << 0xFFC00000u;
        QTest::newRow("BF16 -subnormal") << "BF16" << quint16(0x8001) << 0x80010000u;
        QTest::newRow("BF16 inf") << "BF16" << quint16(0x7F80) << 0x7F800000u;
    }
    void safetensorsSpecialBitsEveryPath()
    {
        QFETCH(QString, dtype);
        QFETCH(quint16, bits);
        QFETCH(quint32, expectedBits);
        QByteArray data;
        for (int k = 0; k < 9; ++k)
            data.append(char(bits & 0xff)).append(char(bits >> 8));
        const QByteArray json = "{\"t\":{\"dtype\":\"" + dtype.toLatin1() +
                                "\",\"shape\":[9],\"data_offsets\":[0,18]}}";
        const Matrix m =
            attn::core::parseSafetensors(safetensorsWith(json, data), "t", "m.safetensors");
        VERIFY_BIT_EXACT(m, Matrix::Constant(1, 9, fromBits(expectedBits)));
    }

    void safetensorsFromPythonFile()
    {
        const QString path = dataFile("mixed.safetensors");
        QCOMPARE(attn::core::safetensorsNames(path),
                 (std::vector<std::string>{"bias", "brain", "half", "wide"}));
        VERIFY_BIT_EXACT(attn::core::readSafetensors(path, "half"),
                         rows({{1.5f, -2, 65504}, {0x1p-24f, 0x1p-14f, -0.0f}}));
        VERIFY_BIT_EXACT(attn::core::readSafetensors(path, "brain"),
                         rows({{1.5f, -2, 3.140625f, 0x1p-130f}}));
        VERIFY_BIT_EXACT(attn::core::readMatrixFile(path, "wide"),
                         rows({{0.5f, static_cast<float>(-1e-3)}, {2, static_cast<float>(1e30)}}));
        VERIFY_BIT_EXACT(attn::core::parseSafetensors(fileBytes(path), "bias", "mixed.safetensors"),
                         rows({{1, 2, 3}}));
        expectError([&] { attn::core::readMatrixFile(path); }, path,
                    "holds 4 tensors, choose one of: bias, brain, half, wide");
    }

    void safetensorsOnlyTensorByDefault()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("one.safetensors");
        attn::core::writeMatrixFile(path, rows({{1, 2}}), "w");
        QCOMPARE(attn::core::safetensorsNames(path), std::vector<std::string>{"w"});
        VERIFY_BIT_EXACT(attn::core::readMatrixFile(path), rows({{1, 2}}));
    }

    void safetensorsOtherTensorsMayBeExotic()
    {
        // Only the tensor read must be a supported matrix; an int64 neighbour is fine.
        const QByteArray bytes = safetensorsWith(
            jsonText("{'a':{'dtype':'F32','shape':[2],'data_offsets':[0,8]},"
                     "'ids':{'dtype':'I64','shape':[2,2,1],'data_offsets':[8,40]}}"),
            littleEndianFloats({1.5f, -3}) + QByteArray(32, '\0'));
        VERIFY_BIT_EXACT(attn::core::parseSafetensors(bytes, "a", "m.safetensors"),
                         rows({{1.5f, -3}}));
        expectError([&] { attn::core::parseSafetensors(bytes, "ids", "m.safetensors"); },
                    "m.safetensors", "tensor 'ids': unsupported dtype 'I64'");
    }

    void safetensorsRejects_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<QString>("fragment");
        const QByteArray two = littleEndianFloats({1, 2});
        auto one = [](const QByteArray& dtype, const QByteArray& shape, const QByteArray& offsets) {
            return jsonText("{'t':{'dtype':'" + dtype + "','shape':" + shape +
                            ",'data_offsets':" + offsets + "}}");
        };
        QByteArray lengthOnly(8, '\0');
        lengthOnly[0] = char(0xe8);
        lengthOnly[1] = char(0x03); // 1000
        QByteArray hugeLength(8, '\0');
        hugeLength[5] = 1; // 2^40

        QTest::newRow("shorter than 8 bytes") << QByteArray("abc") << "t"
                                              << "too short";
        QTest::newRow("header longer than the file")
            << lengthOnly + "{}"
            << "t"
            << "header length 1000 is larger than the 2 bytes after it";
        QTest::newRow("header over 100 MB") << hugeLength + "{}"
                                            << "t"
                                            << "more than the 100000000 bytes allowed";
        QTest::newRow("bad JSON") << safetensorsWith(jsonText("{'t': "), two) << "t"
                                  << "not valid JSON";
        QTest::newRow("JSON array") << safetensorsWith("[1, 2]", two) << "t"
                                    << "not a JSON object";
        QTest::newRow("fields missing")
            << safetensorsWith(jsonText("{'t':{'dtype':'F32'}}"), two) << "t"
            << "tensor 't': needs 'dtype', 'shape' and two 'data_offsets'";
        QTest::newRow("end beyond the data")
            << safetensorsWith(one("F32", "[4]", "[0,16]"), two) << "t"
            << "data_offsets [0, 16] are not a range within the 8 bytes of data";
        QTest::newRow("begin after end") << safetensorsWith(one("F32", "[0]", "[8,0]"), two) << "t"
                                         << "[8, 0]";
        QTest::newRow("negative offset") << safetensorsWith(one("F32", "[2]", "[-4,4]"), two) << "t"
                                         << "two non-negative integers";
        QTest::newRow("fractional offset")
            << safetensorsWith(one("F32", "[2]", "[0.5,8]"), two) << "t"
            << "two non-negative integers";
        QTest::newRow("overlapping tensors")
            << safetensorsWith(jsonText("{'a':{'dtype':'F32','shape':[2],'data_offsets':[0,8]},"
                                        "'b':{'dtype':'F32','shape':[2],'data_offsets':[4,12]}}"),
                               two + two.left(4))
            << "a"
            << "tensors 'a' and 'b' overlap";
        QTest::newRow("size differs from shape")
            << safetensorsWith(one("F32", "[3]", "[0,8]"), two) << "t"
            << "tensor 't': shape (3,) claims 3 elements, the file holds 8 bytes of data (expected "
               "12)";
        QTest::newRow("huge shape claim")
            << safetensorsWith(one("F32", "[1000000,1000000]", "[0,8]"), two) << "t"
            << "claims 1000000000000 elements";
        QTest::newRow("unsupported dtype")
            << safetensorsWith(one("I32", "[2]", "[0,8]"), two) << "t"
            << "unsupported dtype 'I32'";
        QTest::newRow("rank 3") << safetensorsWith(one("F32", "[1,1,2]", "[0,8]"), two) << "t"
                                << "shape (1, 1, 2) is not a matrix";
        QTest::newRow("rank 0") << safetensorsWith(one("F32", "[]", "[0,4]"), two.left(4)) << "t"
                                << "shape () is not a matrix";
        QTest::newRow("empty") << safetensorsWith(one("F32", "[0,4]", "[0,0]"), {}) << "t"
                               << "empty matrix";
        QTest::newRow("negative dimension")
            << safetensorsWith(one("F32", "[-2]", "[0,8]"), two) << "t"
            << "non-negative integers";
        QTest::newRow("F64 beyond float32")
            << safetensorsWith(one("F64", "[1,2]", "[0,16]"), littleEndianDoubles({1.0, -1e300}))
            << "t"
            << "value out of float32 range at (0, 1)";
        QTest::newRow("no such tensor")
            << safetensorsWith(one("F32", "[2]", "[0,8]"), two) << "nope"
            << "no tensor 'nope'; the file holds: t";
        QTest::newRow("no tensors at all")
            << safetensorsWith(jsonText("{'__metadata__':{'a':'b'}}"), {}) << ""
            << "holds no tensors";
    }
    void safetensorsRejects()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, tensor);
        QFETCH(QString, fragment);
        expectError(
            [&] { attn::core::parseSafetensors(bytes, tensor.toStdString(), "model.safetensors"); },
            "model.safetensors", fragment);

        // The file reader reads header and tensor separately; it must agree.
        QTemporaryDir dir;
        const QString path = dir.filePath("model.safetensors");
        writeBytes(path, bytes);
        expectError([&] { attn::core::readSafetensors(path, tensor.toStdString()); }, path,
                    fragment);
    }

    // ---- By extension, atomic writes
    void matrixFileRoundTrip_data()
    {
        QTest::addColumn<QString>("fileName");
        for (const char* name :
             {"m.npy", "M.NPY", "m.csv", "m.Csv", "m.safetensors", "m.SafeTensors"})
            QTest::newRow(name) << QString(name);
    }
    void matrixFileRoundTrip()
    {
        QFETCH(QString, fileName);
        QTemporaryDir dir;
        const QString path = dir.filePath(fileName);
        const Matrix m = randomBitsMatrix(9, 11, 3);
        attn::core::writeMatrixFile(path, m);
        VERIFY_BIT_EXACT(attn::core::readMatrixFile(path), m);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList{fileName}); // no temp left
    }

    void matrixFileUnknownExtension()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("m.txt");
        expectError([&] { attn::core::writeMatrixFile(path, rows({{1}})); }, path,
                    "unknown matrix format '.txt'");
        writeBytes(path, "1,2\n");
        expectError([&] { attn::core::readMatrixFile(path); }, path,
                    "(expected .npy, .csv or .safetensors)");
    }

    void matrixFileMissing()
    {
        const QString path = QDir::tempPath() + "/attn-no-such-dir/none.npy";
        expectError([&] { attn::core::readMatrixFile(path); }, path, "cannot read",
                    NamePosition::Anywhere);
    }

    void writeToMissingDirectoryThrows()
    {
        const QString path = QDir::tempPath() + "/attn-no-such-dir/x.npy";
        expectError([&] { attn::core::writeMatrixFile(path, rows({{1}})); }, path, "cannot write",
                    NamePosition::Anywhere);
        QVERIFY(!QFile::exists(path));
    }

    void writeOverDirectoryThrows()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("looks_like_a_file.npy");
        QVERIFY(QDir(dir.path()).mkdir("looks_like_a_file.npy"));
        expectError([&] { attn::core::writeMatrixFile(path, rows({{1}})); }, path, "cannot write",
                    NamePosition::Anywhere);
        QVERIFY(QFileInfo(path).isDir());
    }

    void writeReplacesExistingFileCompletely()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("w.npy");
        attn::core::writeMatrixFile(path, randomBitsMatrix(20, 20, 4));
        const Matrix small = rows({{1, 2}, {3, 4}});
        attn::core::writeMatrixFile(path, small);
        QCOMPARE(fileBytes(path),
                 attn::core::npyBytes(small)); // nothing of the bigger file remains
        VERIFY_BIT_EXACT(attn::core::readMatrixFile(path), small);
    }

    void failedWriteLeavesExistingFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("w.csv");
        attn::core::writeMatrixFile(path, rows({{1, 2}}));
        const QByteArray before = fileBytes(path);
        expectError([&] { attn::core::writeMatrixFile(path, Matrix(0, 3)); }, path,
                    "empty matrix (0x3)");
        QCOMPARE(fileBytes(path), before);
    }
};

QTEST_GUILESS_MAIN(TestMatrixIo)
#include "tst_matrix_io.moc"
