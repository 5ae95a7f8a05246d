#pragma once

#include <QString>

#include <vector>

namespace attn::core::hub {

// "gpt2", "openai-community/gpt2@main" or "ID@COMMIT", as --download takes it.
struct ModelRef
{
    QString id;
    QString revision = QStringLiteral("main");
};

// Splits "ID[@REVISION]"; throws core::Error naming what is wrong with the id (the Hub's own
// rule: NAME or ORG/NAME of letters, digits, '-', '_', '.').
ModelRef parseModelRef(const QString& text);

// One file of a revision as the Hub's API lists it (/api/models/ID/revision/REV?blobs=true).
struct RepoFile
{
    QString path; // "model.safetensors"
    qint64 size = 0;
    QString blobId; // the git blob's sha1
    QString sha256; // LFS files only: the content's sha256

    bool isLfs() const { return !sha256.isEmpty(); }
    // The name huggingface_hub gives its blob in the cache: the sha256 for an LFS file, else the
    // git blob id (file_download.py: the ETag, X-Linked-Etag for LFS files).
    QString blobName() const { return isLfs() ? sha256 : blobId; }
};

struct RepoRevision
{
    QString commit; // 40 hexadecimal digits
    std::vector<RepoFile> files;
};

// Reads the API's answer; throws core::Error naming the field that is missing or malformed.
RepoRevision parseRevision(const QByteArray& json);

// Whether the explorer needs the file: the config, the tokenizer's files, the safetensors
// weights and their index. Never another format's weights (.bin, .h5, .msgpack, .onnx), nor
// a file in a subfolder (those hold other formats' copies).
bool isWantedFile(const QString& path);

// The files of `revision` the explorer needs; throws core::Error when there is no config.json
// or no .safetensors weights (naming what the model has instead).
std::vector<RepoFile> wantedFiles(const RepoRevision& revision, const QString& id);

// "models--openai-community--gpt2": the repository's folder in the hub cache.
QString repoFolderName(const QString& id);

// Whether `text` is a full commit hash (40 hexadecimal digits).
bool isCommitHash(const QString& text);

} // namespace attn::core::hub
