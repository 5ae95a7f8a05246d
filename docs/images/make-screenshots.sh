#!/bin/sh
# Renders the README's pictures of the model window with the app itself (ATTN_SCREENSHOT, see
# app/main.cpp), on the offscreen platform: no display, no network, no downloaded weights.
#   sh docs/images/make-screenshots.sh [BUILD_DIR]      (default build/ci; run from anywhere)
# model-window.png: the tiny GPT-2 test checkpoint (real GPT-2 tokenizer, random weights), the
# grid, the predictions and head 1 of layer 1. model-grid-12x12.png: a random checkpoint with
# GPT-2's shapes (12 layers x 12 heads; its tokenizer has no merges, one token per byte),
# written by attention-bench, at 1920x1080. model-rollout.png: the Rollout tab.
# model-translate.png: the Translate tab on the tiny Marian checkpoint. model-gallery.png: the
# window with no model open, its gallery. model-lens.png,
# model-patching.png, model-attribution.png: the Logit lens, Patching and Attribution tabs.
# model-kv-cache.png: the KV Cache tab on the tiny Llama test checkpoint (grouped-query heads).
# seq2seq-dates.png: the sequence-to-sequence window (below).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/ci}
exe=$build/app/attention-explorer
out=$root/docs/images
export QT_QPA_PLATFORM=offscreen

shot() { # NAME TAB ARGS...
  name=$1 tab=$2
  shift 2
  ATTN_SCREENSHOT="$out/$name" ATTN_SCREENSHOT_TAB=$tab timeout 300 "$exe" "$@" 2>/dev/null
}

shot model-window.png 0 --model "$root/tests/data/models/gpt2" --text "The cat sat on the"
shot model-rollout.png 4 --model "$root/tests/data/models/gpt2" --text "The cat sat on the"
shot model-kv-cache.png 7 --model "$root/tests/data/models/llama" --text "The cat sat on the mat and"
# model-translate.png: the Translate tab on the tiny Marian checkpoint, translated first.
export ATTN_SCREENSHOT_TRANSLATE=1
shot model-translate.png 8 --model "$root/tests/data/models/marian" --text "Hi cat"
unset ATTN_SCREENSHOT_TRANSLATE
# The Logit lens, Patching (lens_reference.py's pair, at a projector's 1024x768) and Attribution tabs.
shot model-lens.png 9 --model "$root/tests/data/models/gpt2" --text "The cat sat on the"
ATTN_SCREENSHOT_SIZE=1024x768 ATTN_SCREENSHOT_PATCHING="The cat sat on the|The dog sat on the| cat, dog" \
  shot model-patching.png 10 --model "$root/tests/data/models/gpt2" --text "The cat sat on the"
shot model-attribution.png 11 --model "$root/tests/data/models/gpt2" --text "The cat sat on the"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# model-gallery.png: the window with no model open, its gallery, over an empty cache, at 1024x768.
HF_HOME="$tmp/hf" ATTN_SCREENSHOT_GALLERY=1 ATTN_SCREENSHOT_SIZE=1024x768 HF_HUB_CACHE= HUGGINGFACE_HUB_CACHE= \
  shot model-gallery.png 0
"$build/app/attention-bench" --models gpt2 --model-sizes 8 --model-backends cpu --no-torch --quick \
  --model-dir "$tmp" >/dev/null
checkpoint=$(find "$tmp" -name config.json -exec dirname {} \; | head -1)
shot model-grid-12x12.png 0 --model "$checkpoint" --text "The animal did not cross the street"

# seq2seq-dates.png: an encoder-decoder trained here on the dates task (300 steps, seconds),
# translating "27 nov 2026" word by word, seven of its eleven steps shown, at 1280x800.
"$exe" --seq2seq-train dates --steps 300 --save "$tmp/dates" >/dev/null
ATTN_SCREENSHOT="$out/seq2seq-dates.png" ATTN_SCREENSHOT_SIZE=1280x800 ATTN_SCREENSHOT_STEP=7 timeout 300 "$exe" \
  --seq2seq "$tmp/dates" --text "27 nov 2026" 2>/dev/null
