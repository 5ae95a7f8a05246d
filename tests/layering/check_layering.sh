#!/bin/sh
# sh check_layering.sh SOURCE_DIR
#
# The arrows of docs/ARCHITECTURE.md, checked: every #include "..." in app/, core/, gpu/ and ui/
# that names a file of the project must name a file of its own part or of a part it may
# include. Prints FILE:LINE for each include that may not be there, and each file of core/ that
# belongs to no part; exits 1 if there is any. Reads the sources only: no build, a second.
set -eu
cd "$1"

# One line per part: its name, the files it owns (an awk regular expression on the path), the
# parts below it. A part may include its own files and those of every part below it, directly
# or through others. Parts are listed bottom-up and may only name parts listed before them, so
# the graph has no cycle. (No apostrophe in the table or in the awk program: both are quoted
# in single quotes.)
ATTN_PARTS='
# errors, limits, the matrix type, regular files, JSON helpers, atomic writes, random streams
base        ^core/(allocator|atomic_file|enum_names|error|json_duplicate_keys|json_numbers|json_path_reader|limits|matrix|random|regular_file|token_display)\.
# the CPU job runner (core/parallel.h) and the GEMM kernels
kernels     ^core/(kernels/|parallel\.)  base
# files of numbers that know nothing of attention: .npy, .csv, .safetensors, word vectors
io          ^core/(matrix_io[a-z_]*|safetensors_format|word_vectors)\.  base
# one attention problem and its backends: settings, the explorer tokenizer, embeddings, weights, masks, normalizations, results, the block ops, the CPU backend
mechanism   ^core/(attention_result|attention_settings|backend|backend_factory|block_ops|cpu_backend|cpu_block_ops|diagnostics|embedding|fallback_words|mask|model_weights|normalization|pooling|problem|random_problem|result_json|tokenizer)\.  kernels io
# Hugging Face tokenizers (tokenizer.json, vocab.json + merges.txt, vocab.txt)
tokenizers  ^core/tokenizers/  mechanism
# real transformers: configs, checkpoints, the families, the forward pass, interventions
model       ^core/model/  tokenizers
# what a scene file holds and its format
scene       ^core/scene(_[a-z_]*)?\.  model
# training a single-layer scene: the layer in double with its backward, tasks, losses, Adam
training    ^core/training/  scene
# the concept pages: the softmax gradient, kernel smoother, positions, embedding spaces, comparisons
analysis    ^core/analysis/  training
# sequence to sequence: the RNN encoder-decoder of the PyTorch translation tutorial, decoded and trained
seq2seq     ^core/seq2seq/  model
# the Hugging Face Hub: downloading a model into the shared cache (the one part on the network)
hub         ^core/hub/  model
# every part of core, for the parts above it (owns no file)
core        ^$  analysis seq2seq hub
# the Vulkan compute backend
gpu         ^gpu/  core
# the windows, views, figures, exports; app hands them a backend, so they never include gpu
ui          ^ui/  core
# the executables: the GUI, the command line, the benchmark
app         ^app/  ui gpu
'
export ATTN_PARTS

{
    find app core gpu ui -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.inc' \) | sort
    echo '--'
    grep -rn --include='*.h' --include='*.cpp' --include='*.inc' \
        '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' app core gpu ui
} | awk '
function fail(message) { print message; failures++ }
function normalise(path,    n, i, out, segments, k) {
    n = split(path, segments, "/")
    k = 0
    for (i = 1; i <= n; i++) {
        if (segments[i] == "" || segments[i] == ".") continue
        if (segments[i] == ".." && k > 0) { k--; continue }
        out[++k] = segments[i]
    }
    path = ""
    for (i = 1; i <= k; i++) path = path (i > 1 ? "/" : "") out[i]
    return path
}
function partOf(path,    i) {
    for (i = 1; i <= count; i++)
        if (path ~ pattern[i]) return name[i]
    return ""
}
BEGIN {
    lines = split(ENVIRON["ATTN_PARTS"], table, "\n")
    for (l = 1; l <= lines; l++) {
        if (table[l] ~ /^[[:space:]]*(#|$)/) continue
        n = split(table[l], field, /[[:space:]]+/)
        count++
        name[count] = field[1]
        pattern[count] = field[2]
        defined[field[1]] = 1
        for (i = 3; i <= n; i++) {
            if (!(field[i] in defined))
                fail("check_layering.sh: " field[1] " may include " field[i] ", which is not listed before it")
            allowed[field[1], field[i]] = 1
            for (j = 1; j < count; j++)
                if ((field[i], name[j]) in allowed) allowed[field[1], name[j]] = 1
        }
    }
    listing = 1
}
listing && $0 == "--" { listing = 0; next }
listing {
    exists[$0] = 1
    if ($0 ~ /^core\// && partOf($0) == "")
        fail($0 ": in no part (name it in a part here, tests/layering/check_layering.sh, and in the CMake target of that part)")
    next
}
{
    first = index($0, ":")
    file = substr($0, 1, first - 1)
    rest = substr($0, first + 1)
    second = index(rest, ":")
    line = substr(rest, 1, second - 1)
    text = substr(rest, second + 1)
    if (!match(text, /"[^"]*"/)) next
    included = substr(text, RSTART + 1, RLENGTH - 2)
    # As the preprocessor looks: beside the including file, then from the project root.
    directory = file
    sub(/\/[^\/]*$/, "", directory)
    target = normalise(directory "/" included)
    if (!(target in exists)) {
        target = normalise(included)
        if (!(target in exists)) next # generated (shaders, moc) or a library header
    }
    from = partOf(file)
    to = partOf(target)
    if (from == "" || to == "" || from == to || ((from, to) in allowed)) next
    fail(file ":" line ": " from " may not include " to " (" target ")")
}
END {
    if (failures) {
        print failures " finding(s) against the parts of docs/ARCHITECTURE.md"
        exit 1
    }
}'
