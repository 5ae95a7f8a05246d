#include "core/hub/hub_repo.h"

#include "core/error.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace attn::core::hub {

using core::Error;

namespace {

const QRegularExpression& idPattern()
{
    static const QRegularExpression id(
        QStringLiteral("^([A-Za-z0-9][A-Za-z0-9._-]*/)?[A-Za-z0-9][A-Za-z0-9._-]*$"));
    return id;
}

bool isHex(const QString& text, int length)
{
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]+$"));
    return text.size() == length && hex.match(text).hasMatch();
}

QString stringField(const QJsonObject& object, const QString& key, const QString& where)
{
    const QJsonValue value = object.value(key);
    if (!value.isString())
        throw Error(where.toStdString() + "." + key.toStdString() + ": missing or not a string");
    return value.toString();
}

qint64 sizeField(const QJsonObject& object, const QString& key, const QString& where)
{
    const QJsonValue value = object.value(key);
    const double size = value.toDouble(-1);
    if (!value.isDouble() || size < 0 || size != static_cast<double>(static_cast<qint64>(size)))
        throw Error(where.toStdString() + "." + key.toStdString() +
                    ": missing or not a size in bytes");
    return static_cast<qint64>(size);
}

} // namespace

ModelRef parseModelRef(const QString& text)
{
    ModelRef ref;
    const qsizetype at = text.indexOf('@');
    ref.id = at < 0 ? text : text.left(at);
    if (at >= 0)
        ref.revision = text.mid(at + 1);
    if (ref.id.isEmpty())
        throw Error("no model id given: name one such as openai-community/gpt2");
    if (!idPattern().match(ref.id).hasMatch() || ref.id.contains(QLatin1String("--")) ||
        ref.id.contains(QLatin1String("..")))
        throw Error(ref.id.toStdString() +
                    ": not a model id (NAME or ORG/NAME of letters, digits, '-', '_' and '.')");
    if (ref.revision.isEmpty() || ref.revision.contains(QLatin1String("..")) ||
        ref.revision.startsWith('/'))
        throw Error(text.toStdString() + ": no revision after '@' (a branch, tag or commit)");
    return ref;
}

RepoRevision parseRevision(const QByteArray& json)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (!document.isObject())
        throw Error("the Hub's answer is not a JSON object (" +
                    parseError.errorString().toStdString() + ")");
    const QJsonObject root = document.object();
    RepoRevision revision;
    revision.commit = stringField(root, QStringLiteral("sha"), QStringLiteral("answer"));
    if (!isCommitHash(revision.commit))
        throw Error("answer.sha: not a commit hash: " + revision.commit.toStdString());
    const QJsonValue siblings = root.value(QStringLiteral("siblings"));
    if (!siblings.isArray())
        throw Error("answer.siblings: missing or not a list");
    const QJsonArray files = siblings.toArray();
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QString where = QStringLiteral("answer.siblings[%1]").arg(i);
        const QJsonObject sibling = files.at(i).toObject();
        RepoFile file;
        file.path = stringField(sibling, QStringLiteral("rfilename"), where);
        file.size = sizeField(sibling, QStringLiteral("size"), where);
        file.blobId = stringField(sibling, QStringLiteral("blobId"), where);
        if (!isHex(file.blobId, 40))
            throw Error(where.toStdString() + ".blobId: not a git blob id");
        const QJsonValue lfs = sibling.value(QStringLiteral("lfs"));
        if (lfs.isObject()) {
            const QString lfsWhere = where + QStringLiteral(".lfs");
            file.sha256 = stringField(lfs.toObject(), QStringLiteral("sha256"), lfsWhere);
            if (!isHex(file.sha256, 64))
                throw Error(lfsWhere.toStdString() + ".sha256: not a sha256");
            file.size = sizeField(lfs.toObject(), QStringLiteral("size"), lfsWhere);
        }
        if (file.path.isEmpty() || file.path.startsWith('/') ||
            file.path.contains(QLatin1String("..")))
            throw Error(where.toStdString() +
                        ".rfilename: not a relative path: " + file.path.toStdString());
        revision.files.push_back(file);
    }
    return revision;
}

bool isWantedFile(const QString& path)
{
    if (path.contains('/'))
        return false;
    static const QStringList names = {QStringLiteral("config.json"),
                                      QStringLiteral("generation_config.json"),
                                      QStringLiteral("tokenizer.json"),
                                      QStringLiteral("tokenizer_config.json"),
                                      QStringLiteral("special_tokens_map.json"),
                                      QStringLiteral("added_tokens.json"),
                                      QStringLiteral("vocab.json"),
                                      QStringLiteral("vocab.txt"),
                                      QStringLiteral("merges.txt"),
                                      QStringLiteral("tokenizer.model"),
                                      QStringLiteral("spiece.model"),
                                      QStringLiteral("source.spm"),
                                      QStringLiteral("target.spm"),
                                      QStringLiteral("sentencepiece.bpe.model")};
    return names.contains(path) || path.endsWith(QLatin1String(".safetensors")) ||
           path.endsWith(QLatin1String(".safetensors.index.json"));
}

std::vector<RepoFile> wantedFiles(const RepoRevision& revision, const QString& id)
{
    std::vector<RepoFile> wanted;
    bool config = false;
    bool weights = false;
    QStringList others;
    for (const RepoFile& file : revision.files) {
        if (isWantedFile(file.path)) {
            wanted.push_back(file);
            config = config || file.path == QLatin1String("config.json");
            weights = weights || file.path.endsWith(QLatin1String(".safetensors"));
        } else if (!file.path.contains('/')) {
            for (const char* format : {".bin", ".h5", ".msgpack", ".onnx", ".ot", ".pt"})
                if (file.path.endsWith(QLatin1String(format)))
                    others << file.path;
        }
    }
    if (!config)
        throw Error(id.toStdString() + ": revision " + revision.commit.toStdString() +
                    " has no config.json: not a transformers model the explorer can open");
    if (!weights)
        throw Error(
            id.toStdString() + ": revision " + revision.commit.toStdString() +
            " has no .safetensors weights" +
            (others.isEmpty() ? std::string() : " (only " + others.join(", ").toStdString() + ")") +
            "; the explorer reads safetensors only");
    return wanted;
}

QString repoFolderName(const QString& id)
{
    return QStringLiteral("models--") + QString(id).replace('/', QLatin1String("--"));
}

bool isCommitHash(const QString& text)
{
    return isHex(text, 40);
}

} // namespace attn::core::hub
