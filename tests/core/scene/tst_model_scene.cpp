// Scenes that name a real model (format version 2, "checkpoint"): read, written and read
// again unchanged; every malformed field refused with its JSON path; older files still open;
// a scene without a model still written as version 1.

#include "core/error.h"
#include "core/scene_json.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace attn::core;

namespace {

QByteArray sceneWith(const QByteArray& checkpoint)
{
    return R"({"format": "attention-explorer-scene", "version": 2, "text": "The cat sat on the",
               "checkpoint": )" +
           checkpoint + "}";
}

QString errorOf(const QByteArray& json)
{
    try {
        sceneFromJson(json);
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    return QString();
}

} // namespace

class TestModelScene : public QObject
{
    Q_OBJECT

private slots:
    void readsEveryField();
    void roundTrip();
    void encoderDecoderKinds();
    void relativeFolderBesideTheScene();
    void versionWritten();
    void malformed_data();
    void malformed();
};

void TestModelScene::readsEveryField()
{
    const Scene scene = sceneFromJson(sceneWith(R"({"path": "gpt2", "layer": 5, "head": 2,
        "heads_off": [[3, 1], [5, 7]],
        "edits": [{"layer": 5, "score": "dot", "normalize": "sparsemax", "temperature": 0.5, "fill": "-9e15",
                   "mask": {"causal": true, "window": 2},
                   "heads": [{"head": 1, "W_q": [[1, 0], [0, 1], [2, 2]]}]}]})"));
    QVERIFY(scene.checkpoint);
    const CheckpointReference& c = *scene.checkpoint;
    QCOMPARE(c.path, QStringLiteral("gpt2"));
    QCOMPARE(c.resolved, QStringLiteral("gpt2")); // no such folder here: an id
    QCOMPARE(c.layer, 4);
    QCOMPARE(c.head, 1);
    QVERIFY((c.interventions.headsOff == std::set<std::pair<int, int>>{{2, 0}, {4, 6}}));
    const LayerEdit& edit = c.interventions.layers.at(4);
    QVERIFY(edit.score == ScoreKind::Dot);
    QVERIFY(edit.normalization == Normalization::Sparsemax);
    QCOMPARE(*edit.temperature, 0.5f);
    QVERIFY(edit.fill == MaskFill::MinusNineE15);
    QVERIFY(edit.mask->causal);
    QCOMPARE(edit.mask->window, 2);
    QCOMPARE(*edit.heads.at(0).Wq, (Matrix{{1, 0}, {0, 1}, {2, 2}}));
    QVERIFY(!edit.heads.at(0).Wk);
    QCOMPARE(scene.text, QStringLiteral("The cat sat on the"));
}

void TestModelScene::roundTrip()
{
    Scene scene = sceneFromJson(sceneWith(R"({"path": "gpt2"})"));
    QCOMPARE(scene.checkpoint->layer, 0);
    QCOMPARE(scene.checkpoint->head, 0);
    scene.checkpoint->layer = 6;
    scene.checkpoint->interventions.headsOff = {{0, 0}, {11, 11}};
    LayerEdit& edit = scene.checkpoint->interventions.layers[2];
    edit.temperature = 0.0675f;
    edit.mask = MaskSpec{};
    edit.mask->customCells = {{1, 0}};
    edit.heads[3].Wv = Matrix{{0.1f, -0.25f}};
    const Scene again = sceneFromJson(sceneToJson(scene));
    QVERIFY(again.checkpoint == scene.checkpoint);
}

// An encoder-decoder model's encoder and cross-attention interventions and the kind selected;
// a checkpoint without them has none, and writes none of the three keys.
void TestModelScene::encoderDecoderKinds()
{
    const Scene scene = sceneFromJson(sceneWith(
        R"({"path": "m", "layer": 2, "head": 3, "kind": "cross", "heads_off": [[1, 1]],
            "encoder": {"heads_off": [[2, 1]], "edits": [{"layer": 1, "temperature": 2}]},
            "cross": {"edits": [{"layer": 2, "heads": [{"head": 1, "W_v": [[0.5]]}]}]}})"));
    const CheckpointReference& c = *scene.checkpoint;
    QCOMPARE(c.kind, QStringLiteral("cross"));
    QCOMPARE(c.layer, 1);
    QCOMPARE(c.head, 2);
    QCOMPARE(c.interventions.headsOff, (std::set<std::pair<int, int>>{{0, 0}}));
    QCOMPARE(c.encoderInterventions.headsOff, (std::set<std::pair<int, int>>{{1, 0}}));
    QCOMPARE(c.encoderInterventions.layers.at(0).temperature, std::optional<float>(2.0f));
    QVERIFY(c.crossInterventions.headsOff.empty());
    QCOMPARE(*c.crossInterventions.layers.at(1).heads.at(0).Wv, Matrix{{0.5f}});
    const Scene again = sceneFromJson(sceneToJson(scene));
    QVERIFY(again.checkpoint == scene.checkpoint);

    const Scene old = sceneFromJson(sceneWith(R"({"path": "m", "heads_off": [[1, 2]]})"));
    QVERIFY(old.checkpoint->kind.isEmpty());
    QVERIFY(old.checkpoint->encoderInterventions.empty());
    QVERIFY(old.checkpoint->crossInterventions.empty());
    const QJsonObject written = QJsonDocument::fromJson(sceneToJson(old))["checkpoint"].toObject();
    QCOMPARE(written.keys(), (QStringList{QStringLiteral("edits"), QStringLiteral("head"),
                                          QStringLiteral("heads_off"), QStringLiteral("layer"),
                                          QStringLiteral("path")}));
}

void TestModelScene::relativeFolderBesideTheScene()
{
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("models/tiny")));
    const QString path = dir.filePath(QStringLiteral("scene.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(sceneWith(R"({"path": "models/tiny"})"));
    file.close();
    const Scene scene = loadScene(path);
    QCOMPARE(scene.checkpoint->path, QStringLiteral("models/tiny"));
    QCOMPARE(scene.checkpoint->resolved, dir.filePath(QStringLiteral("models/tiny")));
    // Saved again, the path stays as the user wrote it.
    QVERIFY(sceneToJson(scene).contains("\"path\": \"models/tiny\""));
}

void TestModelScene::versionWritten()
{
    Scene scene = sceneFromJson(
        R"({"format": "attention-explorer-scene", "version": 1, "text": "This is a cat."})");
    QVERIFY(!scene.checkpoint);
    QCOMPARE(QJsonDocument::fromJson(sceneToJson(scene))["version"].toInt(), 1);
    scene.checkpoint = CheckpointReference{};
    scene.checkpoint->path = QStringLiteral("gpt2");
    QCOMPARE(QJsonDocument::fromJson(sceneToJson(scene))["version"].toInt(), 2);
    // A version this build does not know is refused for what it is.
    QVERIFY(errorOf(R"({"format": "attention-explorer-scene", "version": 3, "text": "x"})")
                .contains(QLatin1String("newer Attention Explorer (format version 3)")));
}

void TestModelScene::malformed_data()
{
    QTest::addColumn<QByteArray>("checkpoint");
    QTest::addColumn<QString>("message");
    QTest::newRow("not an object")
        << QByteArray("12") << QStringLiteral("checkpoint: expected an object, got 12");
    QTest::newRow("no path") << QByteArray("{}") << QStringLiteral("checkpoint.path: missing");
    QTest::newRow("layer 0") << QByteArray(R"({"path": "m", "layer": 0})")
                             << QStringLiteral("checkpoint.layer: must be an integer >= 1, got 0");
    QTest::newRow("pair of three")
        << QByteArray(R"({"path": "m", "heads_off": [[1, 2, 3]]})")
        << QStringLiteral("checkpoint.heads_off[0]: expected [layer, head], both from 1");
    QTest::newRow("head 0") << QByteArray(R"({"path": "m", "heads_off": [[1, 0]]})")
                            << QStringLiteral("checkpoint.heads_off[0][1]: must be between 1 and");
    QTest::newRow("edit without layer")
        << QByteArray(R"({"path": "m", "edits": [{"score": "dot"}]})")
        << QStringLiteral("checkpoint.edits[0].layer: missing");
    QTest::newRow("unknown score")
        << QByteArray(R"({"path": "m", "edits": [{"layer": 1, "score": "magic"}]})")
        << QStringLiteral("checkpoint.edits[0].score: unknown value \"magic\"");
    QTest::newRow("zero temperature")
        << QByteArray(R"({"path": "m", "edits": [{"layer": 1, "temperature": 0}]})")
        << QStringLiteral("checkpoint.edits[0].temperature: must be a positive finite number");
    QTest::newRow("ragged W_q")
        << QByteArray(
               R"({"path": "m", "edits": [{"layer": 1, "heads": [{"head": 1, "W_q": [[1, 2], [3]]}]}]})")
        << QStringLiteral("checkpoint.edits[0].heads[0].W_q[1]: expected 2 numbers, got 1");
    QTest::newRow("W_q not a matrix")
        << QByteArray(R"({"path": "m", "edits": [{"layer": 1, "heads": [{"head": 1, "W_q": 3}]}]})")
        << QStringLiteral("checkpoint.edits[0].heads[0].W_q: expected a matrix");
    QTest::newRow("head edit without head")
        << QByteArray(R"({"path": "m", "edits": [{"layer": 1, "heads": [{"W_q": [[1]]}]}]})")
        << QStringLiteral("checkpoint.edits[0].heads[0].head: missing");
    QTest::newRow("unknown kind")
        << QByteArray(R"({"path": "m", "kind": "sideways"})")
        << QStringLiteral(
               "checkpoint.kind: expected \"encoder\", \"decoder\" or \"cross\", got \"sideways\"");
    QTest::newRow("encoder not an object")
        << QByteArray(R"({"path": "m", "encoder": [1]})")
        << QStringLiteral("checkpoint.encoder: expected an object, got");
    QTest::newRow("cross pair of three")
        << QByteArray(R"({"path": "m", "cross": {"heads_off": [[1, 2, 3]]}})")
        << QStringLiteral("checkpoint.cross.heads_off[0]: expected [layer, head], both from 1");
}

void TestModelScene::malformed()
{
    QFETCH(QByteArray, checkpoint);
    QFETCH(QString, message);
    const QString error = errorOf(sceneWith(checkpoint));
    QVERIFY2(error.startsWith(message), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestModelScene)
#include "tst_model_scene.moc"
