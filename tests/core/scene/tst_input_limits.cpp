// Found by probing the readers as an attacker would: files refused before they are read whole or
// anything is allocated for them (peak memory measured), JSON keys given twice, word-vector values
// and headers that say what is wrong, a scene from a much newer version.
#include "core/error.h"
#include "core/json_duplicate_keys.h"
#include "core/matrix_io.h"
#include "core/scene_json.h"
#include "core/word_vectors.h"
#include "support/error_of.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <sys/resource.h>

namespace core = attn::core;

namespace {

using attn::test::errorOf;

// The process's peak resident memory so far, in MiB.
double peakMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

QByteArray npyHeader(const QByteArray& dict)
{
    QByteArray header = dict;
    header.append(QByteArray((64 - (10 + header.size() + 1) % 64) % 64, ' '));
    header.append('\n');
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out.append(char(header.size() & 0xff));
    out.append(char(header.size() >> 8));
    return out + header;
}

// A scene as small as the format allows, with `extra` members spliced into its top level.
QByteArray scene(const QByteArray& extra = {})
{
    return R"({"format": "attention-explorer-scene", "version": 1, "text": "a cat")" + extra +
           R"(, "model": {"d_model": 4, "heads": 1}})";
}

} // namespace

class TestInputLimits : public QObject
{
    Q_OBJECT

private slots:
    // First, while the process's peak memory is still small: a refusal must not read the file.
    // A 1 GB .npy (sparse here) whose shape is one row over the element limit: refused from
    // its header, not after reading a gigabyte.
    void npyShapeIsRefusedBeforeTheDataIsRead()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.npy"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QByteArray header =
            npyHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (16385, 16384), }");
        file.write(header);
        QVERIFY(file.resize(header.size() + qint64(16385) * 16384 * 4)); // a hole: no disk used
        file.close();
        const double before = peakMiB();
        const QString error = errorOf([&] { core::readMatrixFile(path); });
        QVERIFY2(error.contains(
                     QStringLiteral("16385x16384 is more than the 268435456 elements allowed")),
                 qPrintable(error));
        QVERIFY2(peakMiB() - before < 64,
                 qPrintable(QStringLiteral("peak memory grew by %1 MiB").arg(peakMiB() - before)));
    }

    // The probe's 537 MB CSV of 16,385 x 16,384 zeros: refused from a scan of its lines, in
    // pieces, before a number is parsed or the text is held (it took 36 s and 1.6 GB).
    void csvShapeIsRefusedBeforeTheFileIsRead()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.csv"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QByteArray line;
            for (int j = 0; j < 16384; ++j)
                line.append(j ? ",0" : "0");
            line.append('\n');
            const QByteArray block = line.repeated(64);
            for (int k = 0; k < 256; ++k)
                QCOMPARE(file.write(block), block.size());
            QCOMPARE(file.write(line), line.size()); // 16,385 lines
        }
        const double before = peakMiB();
        QElapsedTimer timer;
        timer.start();
        const QString error = errorOf([&] { core::readMatrixFile(path); });
        QVERIFY2(error.contains(
                     QStringLiteral("16385x16384 is more than the 268435456 elements allowed")),
                 qPrintable(error));
        QVERIFY2(peakMiB() - before < 64,
                 qPrintable(QStringLiteral("peak memory grew by %1 MiB").arg(peakMiB() - before)));
        qInfo("refused in %lld ms", timer.elapsed());
    }

    // A header claiming 2^62 elements is refused, never allocated, in every binary format.
    void headersClaimingHugeShapesAreRefused()
    {
        const QByteArray npy =
            npyHeader(
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2147483648, 2147483648), }") +
            QByteArray(16, '\0');
        QVERIFY(errorOf([&] {
                    core::parseNpy(npy, QStringLiteral("x.npy"));
                }).contains(QStringLiteral("claims")));
        const QByteArray json =
            R"({"m": {"dtype": "F32", "shape": [2147483648, 2147483648], "data_offsets": [0, 16]}})";
        QByteArray st;
        for (int k = 0; k < 8; ++k)
            st.append(char((json.size() >> (8 * k)) & 0xff));
        st += json + QByteArray(16, '\0');
        QVERIFY(errorOf([&] {
                    core::parseSafetensors(st, "m", QStringLiteral("x.safetensors"));
                }).contains(QStringLiteral("claims")));
    }

    void duplicateKeysAreFound_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("path");
        QTest::addRow("top level") << QByteArray(R"({"a": 1, "b": 2, "a": 3})") << "a";
        QTest::addRow("nested") << QByteArray(R"({"a": {"x": 1, "y": {"z": 1}, "x": 2}})") << "a.x";
        QTest::addRow("in an array")
            << QByteArray(R"({"h": [{"w": 1}, {"w": 1, "v": 2, "w": 3}]})") << "h[1].w";
        QTest::addRow("escaped") << QByteArray(R"({"text": 1, "te\u0078t": 2})") << "text";
        QTest::addRow("same key, other objects")
            << QByteArray(R"({"a": {"k": 1}, "b": {"k": 1}, "k": [1]})") << "";
        QTest::addRow("keys inside strings")
            << QByteArray("{\"a\": \"\\\"a\\\": 1, \\\"a\\\": 2\", \"b\": [\"a\", \"a\"]}") << "";
        QTest::addRow("arrays of arrays")
            << QByteArray(R"({"m": [[1, 2], [3, {"q": 1, "q": 2}]]})") << "m[1][1].q";
    }

    void duplicateKeysAreFound()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, path);
        const auto found = core::findDuplicateJsonKey(json);
        QCOMPARE(found ? QString::fromStdString(found->path) : QString(), path);
    }

    // QJsonDocument keeps the last of two equal keys: a scene that says two things is refused
    // with the path of the key.
    void scenesWithADuplicateKeyAreRefused()
    {
        QCOMPARE(errorOf([] { core::sceneFromJson(scene(R"(, "text": "a dog")")); }),
                 QStringLiteral("text: given twice; a key may appear once in each object"));
        const QByteArray nested =
            R"({"format": "attention-explorer-scene", "version": 1, "text": "a cat",
            "model": {"d_model": 4, "heads": 1, "d_model": 8}})";
        QCOMPARE(
            errorOf([&] { core::sceneFromJson(nested); }),
            QStringLiteral("model.d_model: given twice; a key may appear once in each object"));
        QCOMPARE(errorOf([] { core::sceneFromJson(scene()); }), QString());
    }

    // safetensors shares the same scan: a key given twice inside a tensor's entry too.
    void safetensorsWithADuplicateKeyAreRefused()
    {
        const QByteArray json =
            R"({"m": {"dtype": "F32", "shape": [1], "dtype": "F16", "data_offsets": [0, 4]}})";
        QByteArray st;
        for (int k = 0; k < 8; ++k)
            st.append(char((json.size() >> (8 * k)) & 0xff));
        st += json + QByteArray(4, '\0');
        QCOMPARE(
            errorOf([&] { core::parseSafetensors(st, "m", QStringLiteral("x.safetensors")); }),
            QStringLiteral(
                "x.safetensors: tensor 'm': 'm.dtype' is given twice in the safetensors header"));
    }

    void versionFarInTheFutureIsANewerFormat_data()
    {
        QTest::addColumn<QByteArray>("version");
        QTest::addColumn<QString>("shown");
        QTest::addRow("3") << QByteArray("3") << "3";
        QTest::addRow("2^63") << QByteArray("9223372036854775808") << "9223372036854775808";
        QTest::addRow("2^64") << QByteArray("18446744073709551616") << "18446744073709551616";
        QTest::addRow("1e300") << QByteArray("1e300") << "1e+300";
    }

    void versionFarInTheFutureIsANewerFormat()
    {
        QFETCH(QByteArray, version);
        QFETCH(QString, shown);
        const QByteArray json =
            R"({"format": "attention-explorer-scene", "version": )" + version + R"(, "text": "a"})";
        QCOMPARE(errorOf([&] { core::sceneFromJson(json); }),
                 QStringLiteral(
                     "this scene was written by a newer Attention Explorer (format version %1); "
                     "this build reads version 2")
                     .arg(shown));
    }

    void wordVectorsSayWhatIsWrong_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::addRow("negative word2vec count")
            << QByteArray("-1 3\ncat 1 2 3\n")
            << "v.txt line 1: the word2vec header says -1 words; expected 'count dimensions', two "
               "whole numbers >= 0";
        QTest::addRow("beyond float32")
            << QByteArray("cat 1 1e39 3\n")
            << "v.txt line 1: '1e39' is out of float32 range (at most about 3.4e38 in "
               "magnitude) (value 2 of 'cat')";
        QTest::addRow("beyond double")
            << QByteArray("cat 1 1e999 3\n")
            << "v.txt line 1: '1e999' is out of float32 range (at most about 3.4e38 in "
               "magnitude) (value 2 of 'cat')";
        QTest::addRow("too small")
            << QByteArray("cat 1 1e-50 3\n")
            << "v.txt line 1: '1e-50' is too close to 0 for float32 (write it as 0) (value 2 "
               "of 'cat')";
        QTest::addRow("nan")
            << QByteArray("cat 1 2 3\ndog nan 0 1\n")
            << "v.txt line 2: 'nan' is NaN; word vectors must be finite numbers (value 1 of 'dog')";
        QTest::addRow("inf")
            << QByteArray("cat 1 2 3\ndog 0 -inf 1\n")
            << "v.txt line 2: '-inf' is infinite; word vectors must be finite numbers (value 2 of "
               "'dog')";
        QTest::addRow("not a number") << QByteArray("cat 1 2 x3\n")
                                      << "v.txt line 1: 'x3' is not a number (value 3 of 'cat')";
    }

    void wordVectorsSayWhatIsWrong()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        QCOMPARE(errorOf([&] { core::WordVectors::parse(text, QStringLiteral("v.txt")); }), error);
    }
};

QTEST_GUILESS_MAIN(TestInputLimits)
#include "tst_input_limits.moc"
