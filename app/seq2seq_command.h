#pragma once

#include "core/seq2seq/output_head_trainer.h"
#include "core/seq2seq/seq2seq_trainer.h"

#include <QSize>
#include <QString>

#include <optional>
#include <vector>

class QCommandLineParser;

namespace attn::app {

struct CommandLineError;

// What the command line asks of a sequence-to-sequence model: --seq2seq DIR to decode with a
// model folder (docs/SEQ2SEQ_FORMAT.md), --seq2seq-train TASK to train one first.
struct Seq2SeqOptions
{
    QString folder;          // --seq2seq DIR
    QString trainTask;       // --seq2seq-train TASK|PAIRS.tsv
    bool trainPairs = false; // trainTask is a pairs file, not a task
    // trainTask is tagging or classification: an encoder and an output head, not a decoder
    std::optional<core::OutputHeadKind> outputHead;
    core::SentencePooling pooling = core::SentencePooling::Mean; // --seq2seq-pooling
    core::Seq2SeqPairsFilter filter; // --pairs-max-words N, --pairs-english-prefixes
    core::Seq2SeqAttention attention = core::Seq2SeqAttention::Bahdanau; // --seq2seq-attention
    core::Seq2SeqCell cell = core::Seq2SeqCell::Gru;                     // --seq2seq-cell gru|lstm
    int layers = 1;                                                      // --seq2seq-layers 1|2
    bool bidirectional = false;                                          // --seq2seq-bidirectional
    int steps = 300;                            // --steps N (shared with --train)
    QString savePath;                           // --save DIR: the trained model's folder
    int beam = 1;                               // --beam K: 1 is greedy
    QString view = QStringLiteral("alignment"); // --view alignment|states, for --export

    bool active() const { return !folder.isEmpty() || !trainTask.isEmpty(); }
};

// Adds --seq2seq, --seq2seq-train, --save and --beam to the parser.
void addSeq2SeqOptions(QCommandLineParser& parser);
// Reads them back after parsing (and --steps, --view with them); false with a usage error for
// a malformed value or an option that needs one of --seq2seq and --seq2seq-train.
bool readSeq2SeqOptions(const QCommandLineParser& parser, Seq2SeqOptions& options,
                        CommandLineError& error);

// What --seq2seq-train prints when done: "TASK: N steps, loss FIRST -> LAST, " and `accuracy`.
QString trainingSummary(const QString& task, const std::vector<double>& losses,
                        const QString& accuracy);

// The headless run: trains when asked (the final loss and held-out exact match on stdout),
// decodes --text when given (the translation on stdout), writes --dump, --export and --save
// all or none. Returns the exit code (README): 3 for a model folder, a task or a source word
// that cannot be used, 4 for an output that cannot be written.
int runSeq2SeqHeadless(const Seq2SeqOptions& options, const std::optional<QString>& text,
                       const QString& dumpPath, const QString& exportPath, QSize figureSize,
                       double dpi);

} // namespace attn::app
