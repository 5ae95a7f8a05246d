#!/usr/bin/python3
r"""Tiny random Hugging Face checkpoints, and their expected forward passes, for the C++ tests.

Each folder is laid out exactly as `save_pretrained` / `huggingface-cli download` leaves it:
the hub's tensor names, shapes, layouts and dtypes in .safetensors (written here the way the
safetensors library writes them: tensors sorted by dtype then name, compact JSON header with
`__metadata__` {"format": "pt"} first, padded with spaces to a multiple of 8), a config.json with
the keys transformers 4.44 writes for that model type (sorted, indent 2), tokenizer files in the
model's real style, and expected.json from the float64 NumPy reference (reference.py).

| folder            | family (config)        | dtype | L | H/KV | d  | vocab | what it exercises |
|-------------------|------------------------|-------|---|------|----|-------|-------------------|
| gpt2              | gpt2 GPT2LMHeadModel   | F32   | 2 | 4/4  | 16 | 413   | `transformer.` prefix; Conv1D c_attn d_in x 3d (q,k,v fused); `h.N.attn.bias` [1,1,32,32] and scalar `attn.masked_bias` (shape []) buffers; tied head (no lm_head.weight); n_inner null (4d); gelu_new; vocab.json (\u-escaped) + merges.txt only, byte-level BPE, <|endoftext|> last |
| gpt2-noprefix-f16 | gpt2 (GPT2LMHeadModel) | F16   | 2 | 3/3  | 24 | 413   | GPT2Model names without prefix (as in the hub's own gpt2 repo, whose config also says GPT2LMHeadModel); 2 shards + model.safetensors.index.json; n_inner 72 (3d); 3 heads; tokenizer.json; <|endoftext|> inside a text |
| bert              | bert BertForMaskedLM   | F32   | 2 | 3/3  | 24 | 204   | nn.Linear d_out x d_in; old LayerNorm names gamma/beta everywhere; token types (0); an I64 `bert.embeddings.position_ids` buffer and unused pooler / cls.seq_relationship tensors (as bert-base-uncased carries); MLM head with tied decoder + cls.predictions.bias; erf gelu; eps 1e-12; vocab.txt only (lowercasing, accent folding of "Café", ## pieces, [UNK], [MASK]) |
| distilbert        | distilbert DistilBertForMaskedLM | F16 | 3 | 2/2 | 16 | 204 | q_lin/k_lin/v_lin/out_lin, sa_layer_norm, ffn, output_layer_norm; vocab_transform -> gelu -> vocab_layer_norm -> tied projector + vocab_projector.bias; eps 1e-12 (hard-coded in DistilBERT, not in config); 3 layers; tokenizer.json (BertNormalizer, BertPreTokenizer, WordPiece, TemplateProcessing [CLS] $A [SEP]); two [MASK]s |
| llama             | llama LlamaForCausalLM | BF16  | 2 | 4/2  | 32 | 447   | GQA (kv head = head // 2); RMSNorm; rotate-half RoPE theta 1e4; SwiGLU; untied lm_head.weight; tokenizer.json Llama-2 style: Prepend+Replace normalizer, BPE byte_fallback (<0x00>..<0xFF>, "ï" -> <0xC3><0xAF>), <s> via TemplateProcessing |
| smollm            | llama LlamaForCausalLM | F32   | 2 | 3/1  | 24 | 379   | one kv head for 3 heads (MQA); tie_word_embeddings true (no lm_head.weight); RoPE theta 1e5; byte-level BPE with Digits(individual) pre-tokenizer; special tokens at ids 0-2 |
| qwen2             | qwen2 Qwen2ForCausalLM | F32   | 2 | 4/2  | 24 | 448   | q/k/v biases; d_head 6; RoPE theta 1e6; eps 1e-6; tied; the embedding has 448 rows for a 399-token tokenizer (padded as Qwen2's are; logits have 448 values); NFC normalizer (a decomposed "é"), Qwen2 Split regex + ByteLevel, merges stored as pairs, <|im_start|> / <|im_end|> |
| mistral           | mistral MistralForCausalLM | F16 | 2 | 2/1 | 16 | 407   | head_dim in config; sliding_window 4096 (longer than every text); untied; tokenizer.json with the Metaspace pre-tokenizer (prepend_scheme first, split false), byte fallback ("H" is not in the vocabulary), two spaces in a row |
| pythia            | gpt_neox GPTNeoXForCausalLM | F16 | 2 | 2/2 | 32 | 414 | fused attention.query_key_value laid out head after head as [q | k | v] (not GPT-2's q | k | v); rotary_pct 0.25 of d_head 16 (4 dimensions turn, frequencies over the rotated width), rotary_emb_base; use_parallel_residual (x + attn(ln1 x) + mlp(ln2 x)); erf gelu; untied embed_out; byte-level tokenizer.json |
| gemma             | gemma GemmaForCausalLM | BF16  | 2 | 2/1  | 16 | 447   | head_dim 12 apart from d / heads = 8; embeddings x sqrt(16); RMSNorm weights stored as w for the gain 1 + w (drawn near 0); GeGLU with hidden_activation gelu_pytorch_tanh (hidden_act "gelu" ignored, as GemmaMLP does); tied; Llama-2-style tokenizer.json |
| opt               | opt OPTForCausalLM     | F32   | 2 | 4/4  | 16 | 416   | embed_positions with max_position_embeddings + 2 rows (position p reads row p + 2); ReLU; ffn_dim; do_layer_norm_before; tied head; tokenizer.json prepending </s> (OPT's BOS) by TemplateProcessing |
| roberta           | roberta RobertaForMaskedLM | F32 | 2 | 2/2 | 16 | 418   | BERT's encoder under roberta.; 34 position rows of which rows 0-1 are never read (positions from pad_token_id + 1 = 2); type_vocab_size 1; lm_head.dense / layer_norm / tied decoder + lm_head.bias; eps 1e-5; byte-level tokenizer.json with RobertaProcessing <s> A </s> and an lstrip <mask> |
| phi               | phi PhiForCausalLM     | F32   | 2 | 2/2  | 24 | 413   | one input_layernorm per block feeding attention and MLP in parallel; partial_rotary_factor 0.4 of d_head 12 (int(4.8) = 4 dimensions turn); self_attn.dense; final_layernorm; lm_head with a bias; num_key_value_heads null |

Weights: numpy.random.RandomState(seed) (a frozen stream), one seed per folder. Linear and
Conv1D weights ~ N(0, 1/d_in) (query and key projections x1.6, so attention is far from
uniform), biases ~ N(0, 0.1^2), norm gains ~ 1 + N(0, 0.1^2), embeddings N(0, 0.3^2) (0.5 for
the Llama family). float64 -> float32 -> the stored dtype (F16 by IEEE round to nearest even;
BF16 = the upper 16 bits of the float32 with round to nearest even).

Files in this folder:
  make_tiny_models.py  this script: vocabularies, tokenizer files, checkpoints, configs, expected.json
  reference.py         the float64 NumPy forward (GPT-2, BERT, DistilBERT, Llama/Mistral/Qwen2,
                       GPT-NeoX, Gemma, OPT, Phi)
  torch_check.py       the same forwards again in PyTorch, compared with both (--check-torch)
  tokenize_cases.mjs   token ids from Hugging Face's tokenizers library (npm "tokenizers")
  token_ids.json       its output for the texts in CASES, with a sha256 of each folder's tokenizer files

Regenerate (from the repository root; Debian 12 python3 3.11, python3-numpy 1.24.2, and for
the check python3-torch 1.13.1; Node 20.20.2 with npm):
  mkdir -p /tmp/fixture-node && (cd /tmp/fixture-node && npm init -y && npm install tokenizers@0.23.2)
  /usr/bin/python3 tests/data/models/make_tiny_models.py --tokenize --check-torch
`--tokenize` runs `node tokenize_cases.mjs` (FIXTURE_NODE=/tmp/fixture-node, or --node-dir)
and rewrites token_ids.json; without it the committed token_ids.json is used, and the script
stops if the texts or tokenizer files no longer match it. `--check-torch` runs torch_check.py
after writing. Running it again gives byte-identical files. Tests and CI run none of this; they
read the committed files.

expected.json (one per folder):
  family, architecture (config's model_type and architectures[0]), dtype, layers, heads, kv_heads,
  d_model, d_head, vocab (rows of the embedding = length of a logits vector), tokenizer_size
  (with added tokens), causal, cases: [
    text, ids (tokenizers library, special tokens included), tokens (the vocabulary pieces),
    attention [layer][head][query][key] (every layer and head, T x T, exact 0 above the
      diagonal of causal models),
    hidden_last T x d_model (after the final norm for GPT-2 / Llama family; the last layer's
      output, before the MLM head, for BERT / DistilBERT),
    logits [{position, values[vocab]}] (position counted from 0: the last position of causal
      models; every [MASK] position of masked models),
    heads_off [[layer, head], ...] (counted from 1): a second forward with these heads' outputs
      (softmax(QK^T/sqrt(d_head)) V of the head) zeroed before the output projection,
    heads_off_logits (same positions), heads_off_attention_last_layer [head][query][key] of the
      top layer in that second forward]
  Numbers are rounded to 10 significant digits (exact zeros written as 0).

RECORD of the PyTorch confirmation (torch 1.13.1, run with --check-torch; transformers is not
installed here, so torch_check.py rebuilds the modules from torch.nn.functional):
  * every F16 / BF16 tensor in the files equals torch's own float32 -> float16 / bfloat16
    conversion of the generated weights, bit for bit;
  * torch in float64 vs reference.py: max |attention diff| 1.8e-15, max |logit diff| / max|logit|
    1.8e-15 over all folders, cases and both forwards (plain and heads off); vs the rounded
    numbers in expected.json: attention 5.0e-11, logits 1.5e-10 relative, hidden_last 5.0e-10;
  * torch in float32 (weights converted to float32, float32 arithmetic, as a C++ float32 forward
    would do) vs expected.json: attention <= 9.8e-07, logits <= 1.3e-06 relative,
    hidden_last <= 2.8e-06 absolute, i.e. float32 implementations should be compared with
    tolerances around 1e-5.
  * pythia, gemma, opt, phi, roberta (added later, same run): torch float64 vs reference.py attention
    <= 2.6e-15, logits 4.1e-15 relative; torch float32 vs expected.json attention <= 1.1e-06,
    logits <= 1.1e-06 relative, hidden_last <= 2.4e-06.
"""
import argparse
import collections
import hashlib
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys

import numpy as np

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference  # noqa: E402  (the float64 NumPy forward, a sibling file)

TRANSFORMERS_VERSION = '4.44.2'   # the version the configs pretend to come from

# ----------------------------------------------------------------------------------------
# the text the BPE merges are learned on

CORPUS = """\
The cat sat on the mat. The dog sat on the rug. The cat and the dog are friends, and they
sat together on the mat in the sun. A small cat looked at the big dog, and the dog looked
back at the cat. Then the cat went to sleep on the warm mat, and the dog went out.
Attention lets every word look at the other words in the sentence. When a model reads a
sentence, each token asks a question, every other token offers a key, and the answer is a
weighted sum of their values. The weights come from the softmax of the scores, so they are
positive and they add up to one. Some heads look at the previous word, some look at the first
word, and some look at words that mean the same thing. In a language model the mask hides
the words that come later, so each word can only look back. It is said that attention is all
you need; the transformer was introduced in 2017, and since then models have grown from a
few million to many billions of parameters. The model predicts the next word, one token at a
time, and it learns the patterns of the language from the text it reads. There are many
heads in every layer, and there are many layers in the model. We can turn a head off and see
what changes: sometimes nothing changes at all, and sometimes the prediction is different.
The cats sat, the dogs ran, and the people watched them. She said that the weather was nice,
and he said that it was not. They went home, and then they ate dinner and read the news.
"""

# ----------------------------------------------------------------------------------------
# byte-level BPE (GPT-2 / Qwen2 / SmolLM style)


def bytes_to_unicode():
    """GPT-2's printable stand-ins for the 256 byte values, in GPT-2's vocabulary order."""
    bs = (list(range(ord('!'), ord('~') + 1)) + list(range(ord('¡'), ord('¬') + 1))
          + list(range(ord('®'), ord('ÿ') + 1)))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return [(b, chr(c)) for b, c in zip(bs, cs)]


BYTE_SYMBOLS = bytes_to_unicode()
BYTE_ENCODER = dict(BYTE_SYMBOLS)

# GPT-2's pre-tokenization regex, restricted to what Python's re can say (the corpus is ASCII)
GPT2_SPLIT = re.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?[^\W\d_]+| ?\d+| ?[^\s\w]+|\s+(?!\S)|\s+""")


def learn_merges(words, n_merges, allow=lambda a, b: True):
    """Plain BPE training: words is {tuple(symbols): count}; returns merges in rank order.
    Ties are broken by the smallest pair (string order), so the result is deterministic."""
    words = dict(words)
    merges = []
    while len(merges) < n_merges:
        pairs = collections.Counter()
        for w, c in words.items():
            for a, b in zip(w, w[1:]):
                if allow(a, b):
                    pairs[(a, b)] += c
        if not pairs:
            break
        best = min(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
        if best[1] < 2:
            break
        (a, b), _ = best
        merges.append((a, b))
        new = {}
        for w, c in words.items():
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and w[i] == a and w[i + 1] == b:
                    out.append(a + b)
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            new[tuple(out)] = new.get(tuple(out), 0) + c
        words = new
    return merges


def byte_level_merges(n):
    words = collections.Counter()
    for piece in GPT2_SPLIT.findall(CORPUS.replace('\n', ' ')):
        words[tuple(BYTE_ENCODER[b] for b in piece.encode('utf-8'))] += 1
    # no merges across digits (keeps numbers split the same way in every tokenizer)
    return learn_merges(words, n, allow=lambda a, b: not (a[-1].isdigit() or b[0].isdigit()))


def byte_level_vocab(merges, specials_first=(), specials_last=()):
    vocab = {}
    for s in specials_first:
        vocab[s] = len(vocab)
    for _b, ch in BYTE_SYMBOLS:
        vocab[ch] = len(vocab)
    for a, b in merges:
        assert a + b not in vocab, (a, b)
        vocab[a + b] = len(vocab)
    for s in specials_last:
        vocab[s] = len(vocab)
    return vocab


# ----------------------------------------------------------------------------------------
# SentencePiece-BPE in the Llama-2 tokenizer.json style (metaspace, byte fallback)

SP = '\u2581'   # ▁


def sentencepiece_vocab(n_merges):
    text = SP + CORPUS.replace('\n', ' ').strip().replace(' ', SP)
    pieces = re.findall(SP + r'?[^\W\d_]+|' + SP + r'?\d|' + SP + r'?[^\w\s' + SP + r']+|' + SP, text)
    words = collections.Counter(tuple(p) for p in pieces)
    merges = learn_merges(words, n_merges, allow=lambda a, b: not (a[-1].isdigit() or b[0].isdigit()))
    chars = collections.Counter(ch for p in pieces for ch in p)
    vocab = {'<unk>': 0, '<s>': 1, '</s>': 2}
    for b in range(256):
        vocab[f'<0x{b:02X}>'] = len(vocab)
    for a, b in merges:
        vocab[a + b] = len(vocab)
    # single characters last, most frequent first (as sentencepiece orders them)
    for ch, _ in sorted(chars.items(), key=lambda kv: (-kv[1], kv[0])):
        vocab[ch] = len(vocab)
    return vocab, merges


# ----------------------------------------------------------------------------------------
# WordPiece vocabulary (BERT uncased style)

WORDPIECE_WORDS = """
the of and to a in is it that was on for as with he she they we you at by from this are be
not but or an have had his her their them then when what which who one all can so said there
out if about up more some no time only other new after first two my me our into than its
cat cats dog dogs sat mat rug sun sleep went home ran look looked word words model models
head heads layer token tokens next attention mask language read reads see each every back
big small warm nice dinner news people day friends together sentence value values key keys
""".split()
WORDPIECE_SUFFIXES = """
##s ##ed ##ing ##ly ##er ##es ##en ##tion ##ten ##ion ##al ##ic ##e ##t ##d ##n ##y ##a ##o
""".split()


def wordpiece_vocab():
    toks = ['[PAD]', '[unused0]', '[unused1]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']
    toks += list('!"\'(),-.:;?')
    toks += [str(i) for i in range(10)]
    toks += [chr(c) for c in range(ord('a'), ord('z') + 1)]
    seen = set(toks)
    for w in WORDPIECE_WORDS:
        if w not in seen:
            toks.append(w)
            seen.add(w)
    for w in WORDPIECE_SUFFIXES + ['##' + chr(c) for c in range(ord('a'), ord('z') + 1)]:
        if w not in seen:
            toks.append(w)
            seen.add(w)
    return toks


# ----------------------------------------------------------------------------------------
# writing JSON the way the Python libraries do


def write_text(path, text):
    with open(path, 'w', encoding='utf-8', newline='\n') as f:
        f.write(text)


def write_json(path, obj, indent=2, sort_keys=False, ensure_ascii=False, newline=True):
    write_text(path, json.dumps(obj, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
               + ('\n' if newline else ''))


def write_config(folder, cfg):
    # PretrainedConfig.to_json_file: json.dumps(d, indent=2, sort_keys=True) + "\n"
    cfg = dict(cfg, transformers_version=TRANSFORMERS_VERSION)
    write_json(os.path.join(folder, 'config.json'), cfg, sort_keys=True)


def write_generation_config(folder, bos, eos):
    write_json(os.path.join(folder, 'generation_config.json'),
               {'_from_model_config': True, 'bos_token_id': bos, 'eos_token_id': eos,
                'transformers_version': TRANSFORMERS_VERSION}, sort_keys=True)


def added_token(id_, content, normalized=False, special=True):
    return {'id': id_, 'content': content, 'single_word': False, 'lstrip': False, 'rstrip': False,
            'normalized': normalized, 'special': special}


def tokenizer_json(added, normalizer, pre_tokenizer, post_processor, decoder, model):
    return {'version': '1.0', 'truncation': None, 'padding': None, 'added_tokens': added,
            'normalizer': normalizer, 'pre_tokenizer': pre_tokenizer,
            'post_processor': post_processor, 'decoder': decoder, 'model': model}


def bpe_model(vocab, merges, merges_as_pairs=False, byte_fallback=False, unk=None, fuse_unk=False,
              ignore_merges=None):
    m = {'type': 'BPE', 'dropout': None, 'unk_token': unk, 'continuing_subword_prefix': None if unk else '',
         'end_of_word_suffix': None if unk else '', 'fuse_unk': fuse_unk, 'byte_fallback': byte_fallback}
    if ignore_merges is not None:
        m['ignore_merges'] = ignore_merges
    m['vocab'] = vocab
    m['merges'] = [[a, b] for a, b in merges] if merges_as_pairs else [f'{a} {b}' for a, b in merges]
    return m


def byte_level(add_prefix_space, trim_offsets, use_regex=True):
    return {'type': 'ByteLevel', 'add_prefix_space': add_prefix_space, 'trim_offsets': trim_offsets,
            'use_regex': use_regex}


def template(bos_token=None, bos_id=None, cls_sep=None):
    if cls_sep:
        (cls, cls_id), (sep, sep_id) = cls_sep
        single = [{'SpecialToken': {'id': cls, 'type_id': 0}}, {'Sequence': {'id': 'A', 'type_id': 0}},
                  {'SpecialToken': {'id': sep, 'type_id': 0}}]
        pair = single + [{'Sequence': {'id': 'B', 'type_id': 1}}, {'SpecialToken': {'id': sep, 'type_id': 1}}]
        specials = {cls: {'id': cls, 'ids': [cls_id], 'tokens': [cls]},
                    sep: {'id': sep, 'ids': [sep_id], 'tokens': [sep]}}
        return {'type': 'TemplateProcessing', 'single': single, 'pair': pair, 'special_tokens': specials}
    single = [{'SpecialToken': {'id': bos_token, 'type_id': 0}}, {'Sequence': {'id': 'A', 'type_id': 0}}]
    pair = single + [{'SpecialToken': {'id': bos_token, 'type_id': 1}}, {'Sequence': {'id': 'B', 'type_id': 1}}]
    return {'type': 'TemplateProcessing', 'single': single, 'pair': pair,
            'special_tokens': {bos_token: {'id': bos_token, 'ids': [bos_id], 'tokens': [bos_token]}}}


QWEN2_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
               r"|\s*[\r\n]+|\s+(?!\S)|\s+")


def write_gpt2_legacy_tokenizer(folder, vocab, merges, n_positions):
    """vocab.json + merges.txt as the OpenAI / hub gpt2 files (vocab.json with \\u escapes)."""
    write_json(os.path.join(folder, 'vocab.json'), vocab, indent=None, ensure_ascii=True, newline=False)
    write_text(os.path.join(folder, 'merges.txt'),
               '#version: 0.2\n' + ''.join(f'{a} {b}\n' for a, b in merges))
    write_json(os.path.join(folder, 'tokenizer_config.json'), {'model_max_length': n_positions})


def write_gpt2_tokenizer_json(folder, vocab, merges, eot):
    tok = tokenizer_json([added_token(vocab[eot], eot, normalized=True)], None,
                         byte_level(False, True), byte_level(True, False), byte_level(True, True),
                         bpe_model(vocab, merges))
    write_json(os.path.join(folder, 'tokenizer.json'), tok)
    write_json(os.path.join(folder, 'tokenizer_config.json'),
               {'add_prefix_space': False, 'bos_token': eot, 'eos_token': eot, 'unk_token': eot,
                'model_max_length': 1024, 'tokenizer_class': 'GPT2Tokenizer'}, sort_keys=True)


def write_wordpiece_vocab_txt(folder, toks):
    write_text(os.path.join(folder, 'vocab.txt'), ''.join(t + '\n' for t in toks))
    write_json(os.path.join(folder, 'tokenizer_config.json'),
               {'do_lower_case': True, 'model_max_length': 512}, sort_keys=True)


def write_wordpiece_tokenizer_json(folder, toks, max_len):
    vocab = {t: i for i, t in enumerate(toks)}
    specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']
    added = [added_token(vocab[s], s) for s in sorted(specials, key=vocab.get)]
    tok = tokenizer_json(
        added,
        {'type': 'BertNormalizer', 'clean_text': True, 'handle_chinese_chars': True,
         'strip_accents': None, 'lowercase': True},
        {'type': 'BertPreTokenizer'},
        template(cls_sep=(('[CLS]', vocab['[CLS]']), ('[SEP]', vocab['[SEP]']))),
        {'type': 'WordPiece', 'prefix': '##', 'cleanup': True},
        {'type': 'WordPiece', 'unk_token': '[UNK]', 'continuing_subword_prefix': '##',
         'max_input_chars_per_word': 100, 'vocab': vocab})
    write_json(os.path.join(folder, 'tokenizer.json'), tok)
    write_json(os.path.join(folder, 'tokenizer_config.json'),
               {'clean_up_tokenization_spaces': True, 'cls_token': '[CLS]', 'do_lower_case': True,
                'mask_token': '[MASK]', 'model_max_length': max_len, 'pad_token': '[PAD]',
                'sep_token': '[SEP]', 'strip_accents': None, 'tokenize_chinese_chars': True,
                'tokenizer_class': 'DistilBertTokenizer', 'unk_token': '[UNK]'}, sort_keys=True)
    write_text(os.path.join(folder, 'vocab.txt'), ''.join(t + '\n' for t in toks))


def write_sentencepiece_tokenizer_json(folder, vocab, merges, metaspace_pre_tokenizer, max_len):
    """Llama-2 style; metaspace_pre_tokenizer=False: Prepend+Replace normalizer (the
    Llama-2 hub file), True: Metaspace pre-tokenizer (prepend_scheme first, split false, as the
    newer converters write it)."""
    added = [added_token(0, '<unk>'), added_token(1, '<s>'), added_token(2, '</s>')]
    if metaspace_pre_tokenizer:
        normalizer = None
        pre = {'type': 'Metaspace', 'replacement': SP, 'prepend_scheme': 'first', 'split': False}
        decoder = {'type': 'Metaspace', 'replacement': SP, 'prepend_scheme': 'first', 'split': False}
    else:
        normalizer = {'type': 'Sequence', 'normalizers': [
            {'type': 'Prepend', 'prepend': SP},
            {'type': 'Replace', 'pattern': {'String': ' '}, 'content': SP}]}
        pre = None
        decoder = {'type': 'Sequence', 'decoders': [
            {'type': 'Replace', 'pattern': {'String': SP}, 'content': ' '},
            {'type': 'ByteFallback'}, {'type': 'Fuse'},
            {'type': 'Strip', 'content': ' ', 'start': 1, 'stop': 0}]}
    tok = tokenizer_json(added, normalizer, pre, template('<s>', 1), decoder,
                         bpe_model(vocab, merges, byte_fallback=True, unk='<unk>', fuse_unk=True))
    write_json(os.path.join(folder, 'tokenizer.json'), tok)
    write_json(os.path.join(folder, 'tokenizer_config.json'),
               {'add_bos_token': True, 'add_eos_token': False, 'bos_token': '<s>',
                'clean_up_tokenization_spaces': False, 'eos_token': '</s>', 'legacy': False,
                'model_max_length': max_len, 'pad_token': None, 'tokenizer_class': 'LlamaTokenizer',
                'unk_token': '<unk>', 'use_default_system_prompt': False}, sort_keys=True)


def write_smollm_tokenizer_json(folder, vocab, merges, specials, max_len):
    tok = tokenizer_json(
        [added_token(vocab[s], s) for s in specials], None,
        {'type': 'Sequence', 'pretokenizers': [
            {'type': 'Digits', 'individual_digits': True}, byte_level(False, True)]},
        byte_level(True, False), byte_level(True, True), bpe_model(vocab, merges))
    write_json(os.path.join(folder, 'tokenizer.json'), tok)
    write_json(os.path.join(folder, 'tokenizer_config.json'),
               {'add_prefix_space': False, 'bos_token': specials[0], 'clean_up_tokenization_spaces': False,
                'eos_token': specials[0], 'model_max_length': max_len, 'tokenizer_class': 'GPT2Tokenizer',
                'unk_token': specials[0], 'vocab_size': len(vocab)}, sort_keys=True)


def write_qwen2_tokenizer_json(folder, vocab, merges, specials, max_len):
    tok = tokenizer_json(
        [added_token(vocab[s], s) for s in specials], {'type': 'NFC'},
        {'type': 'Sequence', 'pretokenizers': [
            {'type': 'Split', 'pattern': {'Regex': QWEN2_SPLIT}, 'behavior': 'Isolated', 'invert': False},
            byte_level(False, False, use_regex=False)]},
        byte_level(False, False, use_regex=False), byte_level(False, False, use_regex=False),
        bpe_model(vocab, merges, merges_as_pairs=True, ignore_merges=False))
    write_json(os.path.join(folder, 'tokenizer.json'), tok)
    write_json(os.path.join(folder, 'tokenizer_config.json'),
               {'add_prefix_space': False, 'bos_token': None, 'clean_up_tokenization_spaces': False,
                'eos_token': '<|endoftext|>', 'errors': 'replace', 'model_max_length': max_len,
                'pad_token': '<|endoftext|>', 'split_special_tokens': False,
                'tokenizer_class': 'Qwen2Tokenizer', 'unk_token': None}, sort_keys=True)


# ----------------------------------------------------------------------------------------
# safetensors writing, as the safetensors library (Rust core) does it: tensors sorted by
# dtype (larger alignment first) then name; compact JSON header with __metadata__ first and the
# tensors in data order; header padded with spaces to a multiple of 8; offsets relative to the
# end of the header.

DTYPE_RANK = ['BOOL', 'U8', 'I8', 'F8_E5M2', 'F8_E4M3', 'I16', 'U16', 'F16', 'BF16', 'I32', 'U32',
              'F32', 'F64', 'I64', 'U64']   # the order of safetensors' Dtype enum


def bf16_bits(a):
    """float -> bfloat16 bit patterns: float32 first, then round to nearest even on bit 16."""
    u = np.ascontiguousarray(a, dtype='<f4').view('<u4').astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype('<u2')


def encode_tensor(a, dtype):
    if dtype == 'F32':
        return np.ascontiguousarray(a, dtype='<f4').tobytes()
    if dtype == 'F16':
        return np.ascontiguousarray(a, dtype='<f4').astype('<f2').tobytes()
    if dtype == 'BF16':
        return bf16_bits(a).tobytes()
    if dtype == 'I64':
        return np.ascontiguousarray(a, dtype='<i8').tobytes()
    raise ValueError(dtype)


def write_safetensors(path, tensors):
    """tensors: list of (name, dtype, ndarray)."""
    entries = sorted(tensors, key=lambda t: (-DTYPE_RANK.index(t[1]), t[0]))
    header = {'__metadata__': {'format': 'pt'}}
    blobs, offset = [], 0
    for name, dtype, a in entries:
        b = encode_tensor(a, dtype)
        header[name] = {'dtype': dtype, 'shape': list(a.shape), 'data_offsets': [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    h = json.dumps(header, separators=(',', ':'), ensure_ascii=False).encode('utf-8')
    h += b' ' * ((8 - len(h) % 8) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)
    return offset


GENERATED = {}   # folder name -> the (name, dtype, float64 array) list it was written from


def save_checkpoint(folder, tensors, shards=None):
    """tensors: list of (name, dtype, ndarray) in module (state_dict) order. shards: None for
    one model.safetensors, or a list of name predicates, one per shard, as save_pretrained's
    max_shard_size splits the state dict in module order."""
    GENERATED[os.path.basename(folder)] = tensors
    if not shards:
        write_safetensors(os.path.join(folder, 'model.safetensors'), tensors)
        return
    n = len(shards)
    weight_map, total = {}, 0
    for i, pred in enumerate(shards):
        fn = f'model-{i + 1:05d}-of-{n:05d}.safetensors'
        part = [t for t in tensors if pred(t[0])]
        total += write_safetensors(os.path.join(folder, fn), part)
        for name, _dt, _a in part:
            weight_map[name] = fn
    assert len(weight_map) == len(tensors)
    write_json(os.path.join(folder, 'model.safetensors.index.json'),
               {'metadata': {'total_size': total}, 'weight_map': weight_map}, sort_keys=True)


class Weights:
    """Seeded random weights in module order. Linear weights ~ N(0, gain^2 / fan_in), norm
    gains ~ 1 + N(0, 0.1^2), biases ~ N(0, 0.1^2), embeddings ~ N(0, std^2)."""

    def __init__(self, seed, dtype):
        self.rng = np.random.RandomState(seed)   # legacy generator: its stream is frozen
        self.dtype = dtype
        self.items = []

    def add(self, name, a, dtype=None):
        self.items.append((name, dtype or self.dtype, np.asarray(a)))

    def normal(self, name, shape, std):
        self.add(name, self.rng.standard_normal(shape) * std)

    def linear(self, prefix, d_out, d_in, bias=True, gain=1.0):      # nn.Linear: d_out x d_in
        self.normal(prefix + 'weight', (d_out, d_in), gain / math.sqrt(d_in))
        if bias:
            self.normal(prefix + 'bias', (d_out,), 0.1)

    def conv1d(self, prefix, d_in, d_out, gain=1.0):                # GPT-2 Conv1D: d_in x d_out
        self.normal(prefix + 'weight', (d_in, d_out), gain / math.sqrt(d_in))
        self.normal(prefix + 'bias', (d_out,), 0.1)

    def norm(self, prefix, d, bias=True, names=('weight', 'bias')):
        self.add(prefix + names[0], 1.0 + 0.1 * self.rng.standard_normal(d))
        if bias:
            self.normal(prefix + names[1], (d,), 0.1)


# ----------------------------------------------------------------------------------------
# the models

QK_GAIN = 1.6   # query/key projections a little larger, so that attention is far from uniform


def build_gpt2(seed, dtype, d, H, L, P, n_inner, vocab_size, prefix, mask_buffers):
    w = Weights(seed, dtype)
    inner = n_inner or 4 * d
    w.normal(prefix + 'wte.weight', (vocab_size, d), 0.3)
    w.normal(prefix + 'wpe.weight', (P, d), 0.1)
    for l in range(L):
        p = f'{prefix}h.{l}.'
        w.norm(p + 'ln_1.', d)
        if mask_buffers:   # the causal-mask buffers older GPT-2 checkpoints keep
            w.add(p + 'attn.bias', np.tril(np.ones((P, P))).reshape(1, 1, P, P))
            w.add(p + 'attn.masked_bias', np.array(-10000.0))
        c = w.rng.standard_normal((d, 3 * d)) / math.sqrt(d)
        c[:, :2 * d] *= QK_GAIN
        w.add(p + 'attn.c_attn.weight', c)
        w.normal(p + 'attn.c_attn.bias', (3 * d,), 0.1)
        w.conv1d(p + 'attn.c_proj.', d, d)
        w.norm(p + 'ln_2.', d)
        w.conv1d(p + 'mlp.c_fc.', d, inner)
        w.conv1d(p + 'mlp.c_proj.', inner, d)
    w.norm(prefix + 'ln_f.', d)
    return w.items


def bert_layer(w, p, d, I, ln):
    """One BertLayer's tensors under p, in module order (RoBERTa's too)."""
    w.linear(p + 'attention.self.query.', d, d, gain=QK_GAIN)
    w.linear(p + 'attention.self.key.', d, d, gain=QK_GAIN)
    w.linear(p + 'attention.self.value.', d, d)
    w.linear(p + 'attention.output.dense.', d, d)
    w.norm(p + 'attention.output.LayerNorm.', d, names=ln)
    w.linear(p + 'intermediate.dense.', I, d)
    w.linear(p + 'output.dense.', d, I)
    w.norm(p + 'output.LayerNorm.', d, names=ln)


def build_bert(seed, dtype, d, H, L, I, P, vocab_size, type_vocab, old_ln_names):
    w = Weights(seed, dtype)
    ln = ('gamma', 'beta') if old_ln_names else ('weight', 'bias')
    e = 'bert.embeddings.'
    w.normal(e + 'word_embeddings.weight', (vocab_size, d), 0.3)
    w.normal(e + 'position_embeddings.weight', (P, d), 0.3)
    w.normal(e + 'token_type_embeddings.weight', (type_vocab, d), 0.3)
    w.norm(e + 'LayerNorm.', d, names=ln)
    # the int64 position_ids buffer checkpoints saved by transformers 4.x (< 4.31) carry
    w.add(e + 'position_ids', np.arange(P).reshape(1, P), dtype='I64')
    for l in range(L):
        bert_layer(w, f'bert.encoder.layer.{l}.', d, I, ln)
    w.linear('bert.pooler.dense.', d, d)                    # unused by the MLM head
    w.normal('cls.predictions.bias', (vocab_size,), 0.1)
    w.linear('cls.predictions.transform.dense.', d, d)
    w.norm('cls.predictions.transform.LayerNorm.', d, names=ln)
    w.linear('cls.seq_relationship.', 2, d)                 # unused (next-sentence head)
    return w.items


def build_distilbert(seed, dtype, d, H, L, hidden, P, vocab_size):
    w = Weights(seed, dtype)
    e = 'distilbert.embeddings.'
    w.normal(e + 'word_embeddings.weight', (vocab_size, d), 0.3)
    w.normal(e + 'position_embeddings.weight', (P, d), 0.3)
    w.norm(e + 'LayerNorm.', d)
    for l in range(L):
        p = f'distilbert.transformer.layer.{l}.'
        w.linear(p + 'attention.q_lin.', d, d, gain=QK_GAIN)
        w.linear(p + 'attention.k_lin.', d, d, gain=QK_GAIN)
        w.linear(p + 'attention.v_lin.', d, d)
        w.linear(p + 'attention.out_lin.', d, d)
        w.norm(p + 'sa_layer_norm.', d)
        w.linear(p + 'ffn.lin1.', hidden, d)
        w.linear(p + 'ffn.lin2.', d, hidden)
        w.norm(p + 'output_layer_norm.', d)
    w.linear('vocab_transform.', d, d)
    w.norm('vocab_layer_norm.', d)
    w.normal('vocab_projector.bias', (vocab_size,), 0.1)
    return w.items


def build_llama(seed, dtype, d, H, KV, dh, L, I, vocab_size, tied, qkv_bias):
    w = Weights(seed, dtype)
    w.normal('model.embed_tokens.weight', (vocab_size, d), 0.5)
    for l in range(L):
        p = f'model.layers.{l}.'
        w.linear(p + 'self_attn.q_proj.', H * dh, d, bias=qkv_bias, gain=QK_GAIN)
        w.linear(p + 'self_attn.k_proj.', KV * dh, d, bias=qkv_bias, gain=QK_GAIN)
        w.linear(p + 'self_attn.v_proj.', KV * dh, d, bias=qkv_bias)
        w.linear(p + 'self_attn.o_proj.', d, H * dh, bias=False)
        w.linear(p + 'mlp.gate_proj.', I, d, bias=False)
        w.linear(p + 'mlp.up_proj.', I, d, bias=False)
        w.linear(p + 'mlp.down_proj.', d, I, bias=False)
        w.norm(p + 'input_layernorm.', d, bias=False)
        w.norm(p + 'post_attention_layernorm.', d, bias=False)
    w.norm('model.norm.', d, bias=False)
    if not tied:
        w.linear('lm_head.', vocab_size, d, bias=False, gain=2.0)
    return w.items


def build_gpt_neox(seed, dtype, d, H, L, I, vocab_size):
    """GPTNeoXForCausalLM's names; query_key_value rows per head as [q | k | v]."""
    w = Weights(seed, dtype)
    dh = d // H
    w.normal('gpt_neox.embed_in.weight', (vocab_size, d), 0.5)
    for l in range(L):
        p = f'gpt_neox.layers.{l}.'
        w.norm(p + 'input_layernorm.', d)
        w.norm(p + 'post_attention_layernorm.', d)
        qkv = w.rng.standard_normal((H, 3, dh, d)) / math.sqrt(d)
        qkv[:, :2] *= QK_GAIN
        w.add(p + 'attention.query_key_value.weight', qkv.reshape(3 * d, d))
        w.normal(p + 'attention.query_key_value.bias', (3 * d,), 0.1)
        w.linear(p + 'attention.dense.', d, d)
        w.linear(p + 'mlp.dense_h_to_4h.', I, d)
        w.linear(p + 'mlp.dense_4h_to_h.', d, I)
    w.norm('gpt_neox.final_layer_norm.', d)
    w.linear('embed_out.', vocab_size, d, bias=False, gain=2.0)
    return w.items


def build_gemma(seed, dtype, d, H, KV, dh, L, I, vocab_size):
    """GemmaForCausalLM's names; norm weights near 0, as Gemma stores w for a gain of 1 + w."""
    w = Weights(seed, dtype)
    w.normal('model.embed_tokens.weight', (vocab_size, d), 0.1)
    for l in range(L):
        p = f'model.layers.{l}.'
        w.normal(p + 'input_layernorm.weight', (d,), 0.1)
        w.linear(p + 'mlp.down_proj.', d, I, bias=False)
        w.linear(p + 'mlp.gate_proj.', I, d, bias=False)
        w.linear(p + 'mlp.up_proj.', I, d, bias=False)
        w.normal(p + 'post_attention_layernorm.weight', (d,), 0.1)
        w.linear(p + 'self_attn.k_proj.', KV * dh, d, bias=False, gain=QK_GAIN)
        w.linear(p + 'self_attn.o_proj.', d, H * dh, bias=False)
        w.linear(p + 'self_attn.q_proj.', H * dh, d, bias=False, gain=QK_GAIN)
        w.linear(p + 'self_attn.v_proj.', KV * dh, d, bias=False)
    w.normal('model.norm.weight', (d,), 0.1)
    return w.items


def build_opt(seed, dtype, d, H, L, ffn, P, vocab_size):
    """OPTForCausalLM's names; embed_positions has P + 2 rows (offset 2); tied head."""
    w = Weights(seed, dtype)
    e = 'model.decoder.'
    w.normal(e + 'embed_tokens.weight', (vocab_size, d), 0.3)
    w.normal(e + 'embed_positions.weight', (P + 2, d), 0.3)
    for l in range(L):
        p = f'{e}layers.{l}.'
        w.linear(p + 'self_attn.k_proj.', d, d, gain=QK_GAIN)
        w.linear(p + 'self_attn.v_proj.', d, d)
        w.linear(p + 'self_attn.q_proj.', d, d, gain=QK_GAIN)
        w.linear(p + 'self_attn.out_proj.', d, d)
        w.norm(p + 'self_attn_layer_norm.', d)
        w.linear(p + 'fc1.', ffn, d)
        w.linear(p + 'fc2.', d, ffn)
        w.norm(p + 'final_layer_norm.', d)
    w.norm(e + 'final_layer_norm.', d)
    return w.items


def build_phi(seed, dtype, d, H, L, I, vocab_size):
    """PhiForCausalLM's names (transformers' own, not the original phi-1.5 "layers.N.mixer")."""
    w = Weights(seed, dtype)
    w.normal('model.embed_tokens.weight', (vocab_size, d), 0.5)
    for l in range(L):
        p = f'model.layers.{l}.'
        w.norm(p + 'input_layernorm.', d)
        w.linear(p + 'self_attn.q_proj.', d, d, gain=QK_GAIN)
        w.linear(p + 'self_attn.k_proj.', d, d, gain=QK_GAIN)
        w.linear(p + 'self_attn.v_proj.', d, d)
        w.linear(p + 'self_attn.dense.', d, d)
        w.linear(p + 'mlp.fc1.', I, d)
        w.linear(p + 'mlp.fc2.', d, I)
    w.norm('model.final_layernorm.', d)
    w.linear('lm_head.', vocab_size, d, gain=2.0)
    return w.items


def build_roberta(seed, dtype, d, H, L, I, P, vocab_size):
    """RobertaForMaskedLM's names; P rows of positions of which the first pad_token_id + 1 = 2
    are never read."""
    w = Weights(seed, dtype)
    e = 'roberta.embeddings.'
    w.normal(e + 'word_embeddings.weight', (vocab_size, d), 0.3)
    w.normal(e + 'position_embeddings.weight', (P, d), 0.3)
    w.normal(e + 'token_type_embeddings.weight', (1, d), 0.3)
    w.norm(e + 'LayerNorm.', d)
    for l in range(L):
        bert_layer(w, f'roberta.encoder.layer.{l}.', d, I, ('weight', 'bias'))
    w.normal('lm_head.bias', (vocab_size,), 0.1)
    w.linear('lm_head.dense.', d, d)
    w.norm('lm_head.layer_norm.', d)
    return w.items


def llama_config(arch, model_type, d, H, KV, L, I, vocab_size, dtype, theta, eps, tied, max_pos,
                 bos, eos, extra=None):
    cfg = {'architectures': [arch], 'attention_dropout': 0.0, 'bos_token_id': bos, 'eos_token_id': eos,
           'hidden_act': 'silu', 'hidden_size': d, 'initializer_range': 0.02, 'intermediate_size': I,
           'max_position_embeddings': max_pos, 'model_type': model_type, 'num_attention_heads': H,
           'num_hidden_layers': L, 'num_key_value_heads': KV, 'rms_norm_eps': eps, 'rope_theta': theta,
           'tie_word_embeddings': tied, 'torch_dtype': TORCH_DTYPE[dtype], 'use_cache': True,
           'vocab_size': vocab_size}
    cfg.update(extra or {})
    return cfg


TORCH_DTYPE = {'F32': 'float32', 'F16': 'float16', 'BF16': 'bfloat16'}


# ----------------------------------------------------------------------------------------
# the folders: each writes its checkpoint, config and tokenizer; CASES are the test inputs with
# the heads switched off in the second forward ((layer, head), counted from 1)

CASES = {
    'gpt2': [
        ('The cat sat on the', [[1, 2], [2, 1]]),
        ('The café cat looked at the dog, then went home.', [[1, 1], [1, 3], [2, 4]]),
    ],
    'gpt2-noprefix-f16': [
        ('The dog sat on the', [[1, 2], [2, 3]]),
        ('Hello<|endoftext|>The cat looked back at the dog.', [[2, 2]]),
    ],
    'bert': [
        ('The cat sat on the [MASK].', [[1, 2], [2, 1]]),
        ('The [MASK] sat in the Café, even Ω [MASK].', [[1, 1], [2, 2], [2, 3]]),
    ],
    'distilbert': [
        ('the dog sat on the [MASK].', [[1, 2], [2, 1]]),
        ('She said that the [MASK] was nice, and he said it was [MASK]!', [[1, 1], [3, 2]]),
    ],
    'llama': [
        ('The cat sat on the', [[1, 2], [2, 1]]),
        ('The naïve cat sat on 12 mats.', [[1, 1], [2, 3], [2, 4]]),
    ],
    'smollm': [
        ('The cat sat on the', [[1, 2], [2, 1]]),
        ('The cat sat on 12 mats in 1984.', [[1, 3], [2, 2]]),
    ],
    'qwen2': [
        ('The cat sat on the', [[1, 2], [2, 1]]),
        ("<|im_start|>The cafe\u0301 didn't sit?\n<|im_end|>", [[1, 1], [1, 2], [2, 3]]),
    ],
    'mistral': [
        ('The cat sat on the', [[1, 2], [2, 1]]),
        ('Hello  world: the model reads.', [[1, 2]]),
    ],
    'pythia': [
        ('The cat sat on the', [[1, 2], [2, 1]]),
        ('The dog looked back at the cat, then went home.', [[1, 1], [2, 2]]),
    ],
    'gemma': [
        ('The cat sat on the', [[1, 2], [2, 1]]),
        ('The naïve dog sat on 12 mats.', [[1, 1], [2, 2]]),
    ],
    'opt': [
        ('The cat sat on the', [[1, 2], [2, 1]]),
        ('Some heads look at the previous word.', [[1, 3], [2, 4]]),
    ],
    'phi': [
        ('The cat sat on the', [[1, 2], [2, 1]]),
        ('def attention(q, k): return q @ k', [[1, 1], [2, 2]]),
    ],
    'roberta': [
        ('The cat sat on the <mask>.', [[1, 2], [2, 1]]),
        ('The <mask> looked back at the dog, then <mask> home.', [[1, 1], [2, 2]]),
    ],
}


def make_gpt2(folder):
    merges = byte_level_merges(1000)                 # all the merges the corpus supports
    vocab = byte_level_vocab(merges, specials_last=['<|endoftext|>'])
    d, H, L, P = 16, 4, 2, 32
    save_checkpoint(folder, build_gpt2(101, 'F32', d, H, L, P, None, len(vocab), 'transformer.', True))
    write_config(folder, {
        'activation_function': 'gelu_new', 'architectures': ['GPT2LMHeadModel'], 'attn_pdrop': 0.1,
        'bos_token_id': vocab['<|endoftext|>'], 'embd_pdrop': 0.1, 'eos_token_id': vocab['<|endoftext|>'],
        'initializer_range': 0.02, 'layer_norm_epsilon': 1e-05, 'model_type': 'gpt2', 'n_ctx': P, 'n_embd': d,
        'n_head': H, 'n_inner': None, 'n_layer': L, 'n_positions': P, 'reorder_and_upcast_attn': False,
        'resid_pdrop': 0.1, 'scale_attn_by_inverse_layer_idx': False, 'scale_attn_weights': True,
        'summary_activation': None, 'summary_first_dropout': 0.1, 'summary_proj_to_labels': True,
        'summary_type': 'cls_index', 'summary_use_proj': True, 'torch_dtype': 'float32', 'use_cache': True,
        'vocab_size': len(vocab)})
    write_generation_config(folder, vocab['<|endoftext|>'], vocab['<|endoftext|>'])
    write_gpt2_legacy_tokenizer(folder, vocab, merges, P)
    return dict(dtype='F32', d=d, H=H, KV=H, L=L, vocab=len(vocab))


def make_gpt2_noprefix(folder):
    merges = byte_level_merges(1000)
    vocab = byte_level_vocab(merges, specials_last=['<|endoftext|>'])
    d, H, L, P, inner = 24, 3, 2, 64, 72
    items = build_gpt2(102, 'F16', d, H, L, P, inner, len(vocab), '', False)
    # save_pretrained(max_shard_size=...) fills shards in module order: embeddings and block 0,
    # then block 1 and ln_f
    save_checkpoint(folder, items, shards=[lambda n: n.startswith(('wte.', 'wpe.', 'h.0.')),
                                           lambda n: not n.startswith(('wte.', 'wpe.', 'h.0.'))])
    # architectures says GPT2LMHeadModel although the tensors carry GPT2Model's names, exactly as
    # in the hub's own "gpt2" repository; the LM head is the tied wte
    write_config(folder, {
        'activation_function': 'gelu_new', 'architectures': ['GPT2LMHeadModel'], 'attn_pdrop': 0.1,
        'bos_token_id': vocab['<|endoftext|>'], 'embd_pdrop': 0.1, 'eos_token_id': vocab['<|endoftext|>'],
        'initializer_range': 0.02, 'layer_norm_epsilon': 1e-05, 'model_type': 'gpt2', 'n_embd': d,
        'n_head': H, 'n_inner': inner, 'n_layer': L, 'n_positions': P, 'reorder_and_upcast_attn': False,
        'resid_pdrop': 0.1, 'scale_attn_by_inverse_layer_idx': False, 'scale_attn_weights': True,
        'summary_activation': None, 'summary_first_dropout': 0.1, 'summary_proj_to_labels': True,
        'summary_type': 'cls_index', 'summary_use_proj': True, 'torch_dtype': 'float16', 'use_cache': True,
        'vocab_size': len(vocab)})
    write_generation_config(folder, vocab['<|endoftext|>'], vocab['<|endoftext|>'])
    write_gpt2_tokenizer_json(folder, vocab, merges, '<|endoftext|>')
    return dict(dtype='F16', d=d, H=H, KV=H, L=L, vocab=len(vocab))


def make_bert(folder):
    toks = wordpiece_vocab()
    d, H, L, I, P = 24, 3, 2, 48, 32
    save_checkpoint(folder, build_bert(103, 'F32', d, H, L, I, P, len(toks), 2, old_ln_names=True))
    write_config(folder, {
        'architectures': ['BertForMaskedLM'], 'attention_probs_dropout_prob': 0.1, 'classifier_dropout': None,
        'gradient_checkpointing': False, 'hidden_act': 'gelu', 'hidden_dropout_prob': 0.1, 'hidden_size': d,
        'initializer_range': 0.02, 'intermediate_size': I, 'layer_norm_eps': 1e-12,
        'max_position_embeddings': P, 'model_type': 'bert', 'num_attention_heads': H, 'num_hidden_layers': L,
        'pad_token_id': 0, 'position_embedding_type': 'absolute', 'torch_dtype': 'float32',
        'type_vocab_size': 2, 'use_cache': True, 'vocab_size': len(toks)})
    write_wordpiece_vocab_txt(folder, toks)
    return dict(dtype='F32', d=d, H=H, KV=H, L=L, vocab=len(toks), mask_token='[MASK]')


def make_distilbert(folder):
    toks = wordpiece_vocab()
    d, H, L, hidden, P = 16, 2, 3, 48, 32
    save_checkpoint(folder, build_distilbert(104, 'F16', d, H, L, hidden, P, len(toks)))
    write_config(folder, {
        'activation': 'gelu', 'architectures': ['DistilBertForMaskedLM'], 'attention_dropout': 0.1, 'dim': d,
        'dropout': 0.1, 'hidden_dim': hidden, 'initializer_range': 0.02, 'max_position_embeddings': P,
        'model_type': 'distilbert', 'n_heads': H, 'n_layers': L, 'pad_token_id': 0, 'qa_dropout': 0.1,
        'seq_classif_dropout': 0.2, 'sinusoidal_pos_embds': False, 'tie_weights_': True,
        'torch_dtype': 'float16', 'vocab_size': len(toks)})
    write_wordpiece_tokenizer_json(folder, toks, P)
    return dict(dtype='F16', d=d, H=H, KV=H, L=L, vocab=len(toks), mask_token='[MASK]')


def make_llama(folder):
    vocab, merges = sentencepiece_vocab(150)
    d, H, KV, L, I, P = 32, 4, 2, 2, 80, 128
    save_checkpoint(folder, build_llama(105, 'BF16', d, H, KV, d // H, L, I, len(vocab), tied=False, qkv_bias=False))
    write_config(folder, llama_config('LlamaForCausalLM', 'llama', d, H, KV, L, I, len(vocab), 'BF16', 10000.0,
                                      1e-05, False, P, 1, 2, {'attention_bias': False, 'mlp_bias': False,
                                                              'pretraining_tp': 1, 'rope_scaling': None}))
    write_generation_config(folder, 1, 2)
    write_sentencepiece_tokenizer_json(folder, vocab, merges, metaspace_pre_tokenizer=False, max_len=P)
    return dict(dtype='BF16', d=d, H=H, KV=KV, L=L, vocab=len(vocab))


def make_smollm(folder):
    merges = byte_level_merges(120)
    specials = ['<|endoftext|>', '<|im_start|>', '<|im_end|>']
    vocab = byte_level_vocab(merges, specials_first=specials)
    d, H, KV, L, I, P = 24, 3, 1, 2, 64, 128
    save_checkpoint(folder, build_llama(106, 'F32', d, H, KV, d // H, L, I, len(vocab), tied=True, qkv_bias=False))
    write_config(folder, llama_config('LlamaForCausalLM', 'llama', d, H, KV, L, I, len(vocab), 'F32', 100000.0,
                                      1e-05, True, P, 0, 0, {'attention_bias': False, 'mlp_bias': False,
                                                             'pretraining_tp': 1, 'rope_scaling': None}))
    write_generation_config(folder, 0, 0)
    write_smollm_tokenizer_json(folder, vocab, merges, specials, P)
    return dict(dtype='F32', d=d, H=H, KV=KV, L=L, vocab=len(vocab))


def make_qwen2(folder):
    merges = byte_level_merges(140)
    specials = ['<|endoftext|>', '<|im_start|>', '<|im_end|>']
    vocab = byte_level_vocab(merges, specials_last=specials)
    rows = -(-len(vocab) // 64) * 64   # the embedding is padded past the tokenizer, as in Qwen2
    d, H, KV, L, I, P = 24, 4, 2, 2, 64, 256
    save_checkpoint(folder, build_llama(107, 'F32', d, H, KV, d // H, L, I, rows, tied=True, qkv_bias=True))
    eot = vocab['<|endoftext|>']
    write_config(folder, llama_config('Qwen2ForCausalLM', 'qwen2', d, H, KV, L, I, rows, 'F32', 1000000.0,
                                      1e-06, True, P, eot, eot, {'max_window_layers': L, 'sliding_window': P,
                                                                 'use_sliding_window': False}))
    write_generation_config(folder, eot, eot)
    write_qwen2_tokenizer_json(folder, vocab, merges, specials, P)
    return dict(dtype='F32', d=d, H=H, KV=KV, L=L, vocab=rows)


def make_mistral(folder):
    vocab, merges = sentencepiece_vocab(110)
    d, H, KV, L, I, P = 16, 2, 1, 2, 48, 256
    dh = d // H
    save_checkpoint(folder, build_llama(108, 'F16', d, H, KV, dh, L, I, len(vocab), tied=False, qkv_bias=False))
    write_config(folder, llama_config('MistralForCausalLM', 'mistral', d, H, KV, L, I, len(vocab), 'F16', 10000.0,
                                      1e-05, False, P, 1, 2, {'head_dim': dh, 'sliding_window': 4096}))
    write_generation_config(folder, 1, 2)
    write_sentencepiece_tokenizer_json(folder, vocab, merges, metaspace_pre_tokenizer=True, max_len=P)
    return dict(dtype='F16', d=d, H=H, KV=KV, L=L, vocab=len(vocab))


def make_pythia(folder):
    merges = byte_level_merges(1000)
    vocab = byte_level_vocab(merges, specials_first=['<|endoftext|>', '<|padding|>'])
    d, H, L, I, P = 32, 2, 2, 64, 64
    save_checkpoint(folder, build_gpt_neox(109, 'F16', d, H, L, I, len(vocab)))
    write_config(folder, {
        'architectures': ['GPTNeoXForCausalLM'], 'attention_bias': True, 'attention_dropout': 0.0,
        'bos_token_id': 0, 'classifier_dropout': 0.1, 'eos_token_id': 0, 'hidden_act': 'gelu',
        'hidden_dropout': 0.0, 'hidden_size': d, 'initializer_range': 0.02, 'intermediate_size': I,
        'layer_norm_eps': 1e-05, 'max_position_embeddings': P, 'model_type': 'gpt_neox',
        'num_attention_heads': H, 'num_hidden_layers': L, 'rope_scaling': None, 'rotary_emb_base': 10000,
        'rotary_pct': 0.25, 'tie_word_embeddings': False, 'torch_dtype': 'float16', 'use_cache': True,
        'use_parallel_residual': True, 'vocab_size': len(vocab)})
    write_generation_config(folder, 0, 0)
    write_gpt2_tokenizer_json(folder, vocab, merges, '<|endoftext|>')
    return dict(dtype='F16', d=d, H=H, KV=H, L=L, vocab=len(vocab))


def make_gemma(folder):
    vocab, merges = sentencepiece_vocab(150)
    d, H, KV, dh, L, I, P = 16, 2, 1, 12, 2, 48, 128
    save_checkpoint(folder, build_gemma(110, 'BF16', d, H, KV, dh, L, I, len(vocab)))
    write_config(folder, {
        'architectures': ['GemmaForCausalLM'], 'attention_bias': False, 'attention_dropout': 0.0,
        'bos_token_id': 1, 'eos_token_id': 2, 'head_dim': dh, 'hidden_act': 'gelu',
        'hidden_activation': 'gelu_pytorch_tanh', 'hidden_size': d, 'initializer_range': 0.02,
        'intermediate_size': I, 'max_position_embeddings': P, 'model_type': 'gemma',
        'num_attention_heads': H, 'num_hidden_layers': L, 'num_key_value_heads': KV, 'pad_token_id': 0,
        'rms_norm_eps': 1e-06, 'rope_theta': 10000.0, 'torch_dtype': 'bfloat16', 'use_cache': True,
        'vocab_size': len(vocab)})
    write_generation_config(folder, 1, 2)
    write_sentencepiece_tokenizer_json(folder, vocab, merges, metaspace_pre_tokenizer=False, max_len=P)
    return dict(dtype='BF16', d=d, H=H, KV=KV, L=L, vocab=len(vocab))


def make_opt(folder):
    merges = byte_level_merges(1000)
    vocab = byte_level_vocab(merges, specials_first=['<s>', '<pad>', '</s>', '<unk>'])
    d, H, L, ffn, P = 16, 4, 2, 64, 32
    save_checkpoint(folder, build_opt(111, 'F32', d, H, L, ffn, P, len(vocab)))
    write_config(folder, {
        '_remove_final_layer_norm': False, 'activation_dropout': 0.0, 'activation_function': 'relu',
        'architectures': ['OPTForCausalLM'], 'attention_dropout': 0.0, 'bos_token_id': 2,
        'do_layer_norm_before': True, 'dropout': 0.1, 'enable_bias': True, 'eos_token_id': 2,
        'ffn_dim': ffn, 'hidden_size': d, 'init_std': 0.02, 'layer_norm_elementwise_affine': True,
        'layerdrop': 0.0, 'max_position_embeddings': P, 'model_type': 'opt', 'num_attention_heads': H,
        'num_hidden_layers': L, 'pad_token_id': 1, 'prefix': '</s>', 'torch_dtype': 'float32',
        'use_cache': True, 'vocab_size': len(vocab), 'word_embed_proj_dim': d})
    write_generation_config(folder, 2, 2)
    # GPT2TokenizerFast with </s> prepended (OPT's add_bos_token), as the converter writes it
    specials = ['<s>', '<pad>', '</s>', '<unk>']
    tok = tokenizer_json([added_token(vocab[t], t) for t in specials], None, byte_level(False, True),
                         template('</s>', vocab['</s>']), byte_level(True, True), bpe_model(vocab, merges))
    write_json(os.path.join(folder, 'tokenizer.json'), tok)
    write_json(os.path.join(folder, 'tokenizer_config.json'),
               {'add_bos_token': True, 'add_prefix_space': False, 'bos_token': '</s>', 'eos_token': '</s>',
                'pad_token': '<pad>',
                'tokenizer_class': 'GPT2Tokenizer', 'unk_token': '</s>'}, sort_keys=True)
    return dict(dtype='F32', d=d, H=H, KV=H, L=L, vocab=len(vocab))


def make_phi(folder):
    merges = byte_level_merges(1000)
    vocab = byte_level_vocab(merges, specials_last=['<|endoftext|>'])
    d, H, L, I, P = 24, 2, 2, 64, 64
    save_checkpoint(folder, build_phi(112, 'F32', d, H, L, I, len(vocab)))
    write_config(folder, {
        'architectures': ['PhiForCausalLM'], 'attention_dropout': 0.0, 'bos_token_id': len(vocab) - 1,
        'embd_pdrop': 0.0, 'eos_token_id': len(vocab) - 1, 'hidden_act': 'gelu_new', 'hidden_size': d,
        'initializer_range': 0.02, 'intermediate_size': I, 'layer_norm_eps': 1e-05,
        'max_position_embeddings': P, 'model_type': 'phi', 'num_attention_heads': H,
        'num_hidden_layers': L, 'num_key_value_heads': None, 'partial_rotary_factor': 0.4,
        'qk_layernorm': False, 'resid_pdrop': 0.1, 'rope_scaling': None, 'rope_theta': 10000.0,
        'tie_word_embeddings': False, 'torch_dtype': 'float32', 'use_cache': True,
        'vocab_size': len(vocab)})
    write_generation_config(folder, len(vocab) - 1, len(vocab) - 1)
    write_gpt2_tokenizer_json(folder, vocab, merges, '<|endoftext|>')
    return dict(dtype='F32', d=d, H=H, KV=H, L=L, vocab=len(vocab))


def make_roberta(folder):
    merges = byte_level_merges(1000)
    vocab = byte_level_vocab(merges, specials_first=['<s>', '<pad>', '</s>', '<unk>'], specials_last=['<mask>'])
    d, H, L, I, P = 16, 2, 2, 48, 34
    save_checkpoint(folder, build_roberta(113, 'F32', d, H, L, I, P, len(vocab)))
    write_config(folder, {
        'architectures': ['RobertaForMaskedLM'], 'attention_probs_dropout_prob': 0.1, 'bos_token_id': 0,
        'classifier_dropout': None, 'eos_token_id': 2, 'hidden_act': 'gelu', 'hidden_dropout_prob': 0.1,
        'hidden_size': d, 'initializer_range': 0.02, 'intermediate_size': I, 'layer_norm_eps': 1e-05,
        'max_position_embeddings': P, 'model_type': 'roberta', 'num_attention_heads': H,
        'num_hidden_layers': L, 'pad_token_id': 1, 'position_embedding_type': 'absolute',
        'torch_dtype': 'float32', 'type_vocab_size': 1, 'use_cache': True, 'vocab_size': len(vocab)})
    # roberta-base's tokenizer.json: <mask> strips the space before it; RobertaProcessing <s> A </s>
    added = [added_token(vocab[t], t) for t in ['<s>', '<pad>', '</s>', '<unk>']]
    mask = added_token(vocab['<mask>'], '<mask>')
    mask['lstrip'] = True
    post = {'type': 'RobertaProcessing', 'sep': ['</s>', vocab['</s>']], 'cls': ['<s>', vocab['<s>']],
            'trim_offsets': True, 'add_prefix_space': False}
    tok = tokenizer_json(added + [mask], None, byte_level(False, True), post, byte_level(True, True),
                         bpe_model(vocab, merges))
    write_json(os.path.join(folder, 'tokenizer.json'), tok)
    write_json(os.path.join(folder, 'tokenizer_config.json'),
               {'add_prefix_space': False, 'bos_token': '<s>', 'cls_token': '<s>', 'eos_token': '</s>',
                'mask_token': '<mask>', 'model_max_length': P - 2, 'pad_token': '<pad>', 'sep_token': '</s>',
                'tokenizer_class': 'RobertaTokenizer', 'unk_token': '<unk>'}, sort_keys=True)
    return dict(dtype='F32', d=d, H=H, KV=H, L=L, vocab=len(vocab), mask_token='<mask>')


MODELS = {
    'gpt2': make_gpt2,
    'gpt2-noprefix-f16': make_gpt2_noprefix,
    'bert': make_bert,
    'distilbert': make_distilbert,
    'llama': make_llama,
    'smollm': make_smollm,
    'qwen2': make_qwen2,
    'mistral': make_mistral,
    'pythia': make_pythia,
    'gemma': make_gemma,
    'opt': make_opt,
    'phi': make_phi,
    'roberta': make_roberta,
}

TOKENIZER_FILES = ['tokenizer.json', 'vocab.json', 'merges.txt', 'vocab.txt', 'tokenizer_config.json']


def tokenizer_digest(folder):
    h = hashlib.sha256()
    for fn in TOKENIZER_FILES:
        p = os.path.join(folder, fn)
        if os.path.exists(p):
            with open(p, 'rb') as f:
                h.update(fn.encode() + b'\0' + f.read() + b'\0')
    return h.hexdigest()


def tokenize_with_node(node_dir):
    request = {'folders': {name: [t for t, _ in CASES[name]] for name in MODELS}}
    env = dict(os.environ, FIXTURE_NODE=node_dir)
    res = subprocess.run(['node', os.path.join(HERE, 'tokenize_cases.mjs'), HERE], input=json.dumps(request),
                         capture_output=True, text=True, env=env, check=True)
    out = json.loads(res.stdout)
    for name in MODELS:
        out['folders'][name]['tokenizer_sha256'] = tokenizer_digest(os.path.join(HERE, name))
    out['how'] = ('FIXTURE_NODE=/tmp/fixture-node node tokenize_cases.mjs tests/data/models '
                  '(run by make_tiny_models.py --tokenize)')
    with open(os.path.join(HERE, 'token_ids.json'), 'w', encoding='utf-8', newline='\n') as f:
        f.write('{\n')
        f.write(f' "package": {json.dumps(out["package"])},\n "version": {json.dumps(out["version"])},\n')
        f.write(f' "how": {json.dumps(out["how"])},\n "folders": {{\n')
        names = list(MODELS)
        for i, name in enumerate(names):
            fo = out['folders'][name]
            f.write(f'  {json.dumps(name)}: {{"source": {json.dumps(fo["source"])}, "size": {fo["size"]}, '
                    f'"tokenizer_sha256": {json.dumps(fo["tokenizer_sha256"])}, "cases": [\n')
            for j, c in enumerate(fo['cases']):
                f.write('   ' + json.dumps(c, ensure_ascii=False, separators=(', ', ': '))
                        + (',\n' if j + 1 < len(fo['cases']) else '\n'))
            f.write('  ]}' + (',\n' if i + 1 < len(names) else '\n'))
        f.write(' }\n}\n')


def read_token_ids():
    path = os.path.join(HERE, 'token_ids.json')
    if not os.path.exists(path):
        sys.exit('token_ids.json is missing: run with --tokenize (needs node and the tokenizers package)')
    with open(path, encoding='utf-8') as f:
        tk = json.load(f)
    for name in MODELS:
        fo = tk['folders'].get(name)
        if fo is None or [c['text'] for c in fo['cases']] != [t for t, _ in CASES[name]]:
            sys.exit(f'token_ids.json does not have the texts of {name}: run with --tokenize')
        if fo['tokenizer_sha256'] != tokenizer_digest(os.path.join(HERE, name)):
            sys.exit(f'{name}: the tokenizer files changed since token_ids.json was written: run with --tokenize')
    return tk


# ----------------------------------------------------------------------------------------
# expected.json

SIG_DIGITS = 10


def rounded(a):
    """Nested lists of floats rounded to SIG_DIGITS significant digits (no -0.0)."""
    a = np.asarray(a, dtype=np.float64)
    if a.ndim == 0:
        v = float(f'{float(a):.{SIG_DIGITS}g}') + 0.0
        return 0 if v == 0 else v
    return [rounded(x) for x in a]


def logits_at(logits, positions):
    return [{'position': int(p), 'values': rounded(logits[p])} for p in positions]


def expected_for(name, info, cfg, tk):
    folder = os.path.join(HERE, name)
    W, _dtypes = reference.load_checkpoint(folder)
    fwd = reference.FORWARDS[cfg['model_type']]
    causal = cfg['model_type'] not in ('bert', 'distilbert', 'roberta')
    out = {
        'family': cfg['model_type'], 'architecture': cfg['architectures'][0], 'dtype': info['dtype'],
        'layers': info['L'], 'heads': info['H'], 'kv_heads': info['KV'], 'd_model': info['d'],
        'd_head': cfg.get('head_dim') or info['d'] // info['H'], 'vocab': info['vocab'],
        'tokenizer_size': tk['size'], 'causal': causal, 'cases': [],
    }
    for (text, heads_off), tc in zip(CASES[name], tk['cases']):
        ids = np.asarray(tc['ids'], dtype=np.int64)
        assert tc['text'] == text
        base = fwd(W, cfg, ids)
        off = fwd(W, cfg, ids, heads_off)
        if causal:
            positions = [len(ids) - 1]
        else:
            mask_id = tk_vocab_id(folder, info['mask_token'])
            positions = [i for i, t in enumerate(ids) if t == mask_id]
            assert positions, f'{name}: {text!r} has no mask'
        out['cases'].append({
            'text': text, 'ids': [int(i) for i in ids], 'tokens': vocabulary_pieces(folder, tc['tokens']),
            'attention': rounded(base['attention']),
            'hidden_last': rounded(base['hidden_last']),
            'logits': logits_at(base['logits'], positions),
            'heads_off': heads_off,
            'heads_off_logits': logits_at(off['logits'], positions),
            'heads_off_attention_last_layer': rounded(off['attention'][-1]),
        })
    return out


def vocabulary_pieces(folder, tokens):
    """The library's tokens as vocabulary pieces: it reports an added token that strips the
    space before it (RoBERTa's <mask>, lstrip) with that space (' <mask>')."""
    p = os.path.join(folder, 'tokenizer.json')
    if not os.path.exists(p):
        return tokens
    with open(p, encoding='utf-8') as f:
        stripping = {t['content'] for t in json.load(f)['added_tokens'] if t['lstrip']}
    return [t.lstrip() if t.lstrip() in stripping else t for t in tokens]


def tk_vocab_id(folder, token):
    p = os.path.join(folder, 'vocab.txt')
    if not os.path.exists(p):
        with open(os.path.join(folder, 'tokenizer.json'), encoding='utf-8') as f:
            return json.load(f)['model']['vocab'][token]
    with open(p, encoding='utf-8') as f:
        return f.read().split('\n').index(token)


def dump_expected(path, e):
    """One key per line at the top and in each case, values compact: diffable and small."""
    def c(v):
        return json.dumps(v, ensure_ascii=False, separators=(',', ':'))
    lines = ['{']
    keys = [k for k in e if k != 'cases']
    for k in keys:
        lines.append(f' {c(k)}: {c(e[k])},')
    lines.append(' "cases": [')
    for i, case in enumerate(e['cases']):
        lines.append('  {')
        ck = list(case)
        for j, k in enumerate(ck):
            lines.append(f'   {c(k)}: {c(case[k])}' + (',' if j + 1 < len(ck) else ''))
        lines.append('  }' + (',' if i + 1 < len(e['cases']) else ''))
    lines.append(' ]')
    lines.append('}')
    write_text(path, '\n'.join(lines) + '\n')


# ----------------------------------------------------------------------------------------
# main

def generate():
    infos = {}
    for name, make in MODELS.items():
        folder = os.path.join(HERE, name)
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        os.makedirs(folder)
        infos[name] = make(folder)
    return infos


def write_expected(infos):
    tk = read_token_ids()
    for name, info in infos.items():
        folder = os.path.join(HERE, name)
        with open(os.path.join(folder, 'config.json')) as f:
            cfg = json.load(f)
        fo = tk['folders'][name]
        e = expected_for(name, info, cfg, fo)
        dump_expected(os.path.join(folder, 'expected.json'), e)


def generated_items():
    """The generated weights of every folder (before dtype conversion), built in a scratch
    folder so that nothing here is rewritten."""
    import tempfile
    tmp = tempfile.mkdtemp()
    try:
        for name, make in MODELS.items():
            os.makedirs(os.path.join(tmp, name))
            make(os.path.join(tmp, name))
    finally:
        shutil.rmtree(tmp)
    return {name: GENERATED[name] for name in MODELS}


def check_torch():
    import torch_check
    for line in torch_check.check(generated_items()):
        print(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--tokenize', action='store_true',
                    help='run tokenize_cases.mjs with node and rewrite token_ids.json')
    ap.add_argument('--node-dir', default=os.environ.get('FIXTURE_NODE', '/tmp/fixture-node'),
                    help='folder whose node_modules holds the tokenizers package')
    ap.add_argument('--check-torch', action='store_true',
                    help='after writing, recompute everything with PyTorch and compare')
    ap.add_argument('--print-requests', action='store_true',
                    help='print the JSON that tokenize_cases.mjs reads on stdin, and stop')
    args = ap.parse_args()
    if args.print_requests:
        print(json.dumps({'folders': {name: [t for t, _ in CASES[name]] for name in MODELS}}, ensure_ascii=False))
        return
    infos = generate()
    if args.tokenize:
        tokenize_with_node(args.node_dir)
    write_expected(infos)
    if args.check_torch:
        check_torch()


if __name__ == '__main__':
    main()
