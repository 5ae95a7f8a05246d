#!/usr/bin/python3
r"""Tiny T5 checkpoints (t5-small's layout and flan-t5's), and their expected forward passes.

Written apart from make_tiny_models.py (whose folders it leaves alone), from the T5 paper
(Raffel et al. 2020, sec. 2.1 and 3.1) and the math of transformers' modeling_t5.py, with its
safetensors writer and Weights helper. Every folder is laid out as save_pretrained leaves it:
the hub's tensor names and shapes, the config.json keys T5Config writes, a Unigram
tokenizer.json in T5's style (Metaspace, TemplateProcessing "$A </s>"), and
expected_seq2seq.json from the float64 NumPy forward below.

| folder  | config                                          | what it exercises |
|---------|-------------------------------------------------|-------------------|
| t5      | t5 T5ForConditionalGeneration, F32, 2+3 layers, 4 heads of d_kv 4, d 16, d_ff 32 | v1.0: DenseReluDense wi/wo with ReLU; tied head (shared.weight only, as safetensors keeps tied tensors) whose input is scaled by d_model^-0.5; relative_attention_bias in block 0 of each stack (8 buckets, max distance 16, so that the logarithmic buckets are reached); the unused decoder.block.0.layer.1.EncDecAttention.relative_attention_bias.weight that older t5 files carry and transformers ignores; 64 embedding rows for a 48-piece tokenizer (greedy decoding reaches id 57, past it) (t5-small: 32128 for 32100) |
| flan-t5 | t5 T5ForConditionalGeneration, F32, 2+2 layers, 3 heads of d_kv 6 (inner 18, not d 16), d_ff 24 | v1.1 / flan: feed_forward_proj gated-gelu (wi_0 through gelu_new, times wi_1, then wo); tie_word_embeddings false (its own lm_head.weight, no output scaling) |

The forward (float64): x = shared[ids]; per layer x += Attention(rms(x)), (decoder: x +=
CrossAttention(rms(x), encoder output)), x += FF(rms(x)); the stack's final rms norm.
rms(x) = w * x / sqrt(mean(x^2) + eps) (T5LayerNorm: no mean subtracted, no bias). Attention:
softmax(q k^T + bias) per head, no 1/sqrt(d_kv); the bias is table[bucket(j - i), h] from the
stack's block 0 (encoder: bidirectional buckets; decoder: unidirectional, plus the causal mask);
cross-attention has none. The bucket's logarithm is computed in float32 as torch computes it.

--check-torch recomputes everything with torch.nn.functional in float32 (torch 1.13 on this
machine; transformers is not installed) and compares. RECORD (the last run):
  t5: attention 3.5e-06 from the reference, logits relative 4.9e-07, greedy ids equal (float32)
  flan-t5: attention 2.5e-06 from the reference, logits relative 2.0e-06, greedy ids equal
  buckets: torch's float32 formula equals the NumPy one on -300..300 for (8, 16) and (32, 128)

Run: /usr/bin/python3 tests/data/models/make_t5_models.py [--check-torch]
(needs node with the tokenizers package in FIXTURE_NODE, as make_tiny_models.py --tokenize).
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys

import numpy as np

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_tiny_models as tiny  # noqa: E402  (safetensors writing, seeded weights, JSON)
import reference  # noqa: E402

SP = '\u2581'
TEXT = 'Hi cat, the dog sat.'
MAX_NEW = 8
BUCKET_RANGE = 40   # the buckets written to the expectations: j - i in [-40, 40]

# ----------------------------------------------------------------------------------------
# the tokenizer: a Unigram vocabulary in T5's order (<pad> 0, </s> 1, <unk> 2, then pieces by
# score); the scores make "▁Hi", "▁cat" and a few words whole pieces.

WORDS = ['▁the', '▁cat', '▁Hi', '▁dog', '▁sat', '▁Le', '▁chat', '▁mouse', '▁a', 'at', 'ing', 's']


def unigram_vocab():
    pieces = [('<pad>', 0.0), ('</s>', 0.0), ('<unk>', 0.0), (SP, -2.5)]
    pieces += [(w, -3.0 - 0.25 * i) for i, w in enumerate(WORDS)]
    letters = 'etaoinshrdlcumwfgypbvkjxqz' + 'HTLC'
    pieces += [(ch, -6.0 - 0.1 * i) for i, ch in enumerate(letters)]
    pieces += [('.', -6.5), (',', -6.6)]
    return pieces


def write_tokenizer(folder):
    pieces = unigram_vocab()
    added = [tiny.added_token(i, t) for i, t in enumerate(['<pad>', '</s>', '<unk>'])]
    meta = {'type': 'Metaspace', 'replacement': SP, 'prepend_scheme': 'always', 'split': True}
    post = {'type': 'TemplateProcessing',
            'single': [{'Sequence': {'id': 'A', 'type_id': 0}},
                       {'SpecialToken': {'id': '</s>', 'type_id': 0}}],
            'pair': [{'Sequence': {'id': 'A', 'type_id': 0}},
                     {'SpecialToken': {'id': '</s>', 'type_id': 0}},
                     {'Sequence': {'id': 'B', 'type_id': 0}},
                     {'SpecialToken': {'id': '</s>', 'type_id': 0}}],
            'special_tokens': {'</s>': {'id': '</s>', 'ids': [1], 'tokens': ['</s>']}}}
    model = {'type': 'Unigram', 'unk_id': 2, 'vocab': [[p, s] for p, s in pieces],
             'byte_fallback': False}
    tok = tiny.tokenizer_json(added, None, meta, post, meta, model)
    tiny.write_json(os.path.join(folder, 'tokenizer.json'), tok)
    tiny.write_json(os.path.join(folder, 'tokenizer_config.json'),
                    {'eos_token': '</s>', 'model_max_length': 512, 'pad_token': '<pad>',
                     'tokenizer_class': 'T5Tokenizer', 'unk_token': '<unk>'}, sort_keys=True)
    return len(pieces)


def node_ids(folder, text):
    """The ids Hugging Face's tokenizers library (npm) gives, special tokens added."""
    node_dir = os.environ.get('FIXTURE_NODE', '/tmp/fixture-node')
    script = ("const {Tokenizer} = require('tokenizers');"
              "const t = Tokenizer.fromFile(process.argv[1]);"
              "t.encode(process.argv[2]).then(e => console.log(JSON.stringify(e.getIds())));")
    out = subprocess.run(['node', '-e', script, os.path.join(folder, 'tokenizer.json'), text],
                         cwd=node_dir, check=True, capture_output=True, text=True,
                         env=dict(os.environ, NODE_PATH=os.path.join(node_dir, 'node_modules')))
    return json.loads(out.stdout)


# ----------------------------------------------------------------------------------------
# the checkpoints

def attention(w, a, d, inner, bias_table=None, buckets=0):
    w.linear(a + 'q.', inner, d, bias=False, gain=tiny.QK_GAIN)
    w.linear(a + 'k.', inner, d, bias=False, gain=tiny.QK_GAIN)
    w.linear(a + 'v.', inner, d, bias=False)
    w.linear(a + 'o.', d, inner, bias=False)
    if bias_table:
        w.normal(a + 'relative_attention_bias.weight', (buckets, bias_table), 1.0)


def feed_forward(w, p, d, ff, gated):
    if gated:
        w.linear(p + 'wi_0.', ff, d, bias=False)
        w.linear(p + 'wi_1.', ff, d, bias=False)
    else:
        w.linear(p + 'wi.', ff, d, bias=False)
    w.linear(p + 'wo.', d, ff, bias=False)


def build_t5(seed, cfg, vocab_rows, old_cross_bias):
    """T5ForConditionalGeneration's state dict in module order."""
    d, H, dk, ff = cfg['d_model'], cfg['num_heads'], cfg['d_kv'], cfg['d_ff']
    inner, nb = H * dk, cfg['relative_attention_num_buckets']
    gated = cfg['feed_forward_proj'].startswith('gated-')
    w = tiny.Weights(seed, 'F32')
    w.normal('shared.weight', (vocab_rows, d), 1.0)
    for side, layers in (('encoder', cfg['num_layers']), ('decoder', cfg['num_decoder_layers'])):
        for i in range(layers):
            b = f'{side}.block.{i}.layer.'
            attention(w, b + '0.SelfAttention.', d, inner, H if i == 0 else None, nb)
            w.norm(b + '0.layer_norm.', d, bias=False)
            n = 1
            if side == 'decoder':
                attention(w, b + '1.EncDecAttention.', d, inner,
                          H if i == 0 and old_cross_bias else None, nb)
                w.norm(b + '1.layer_norm.', d, bias=False)
                n = 2
            feed_forward(w, f'{b}{n}.DenseReluDense.', d, ff, gated)
            w.norm(f'{b}{n}.layer_norm.', d, bias=False)
        w.norm(side + '.final_layer_norm.', d, bias=False)
    if not cfg['tie_word_embeddings']:
        w.normal('lm_head.weight', (vocab_rows, d), 1.0 / math.sqrt(d))
    return w.items


def t5_config(arch_extra):
    cfg = {'architectures': ['T5ForConditionalGeneration'], 'classifier_dropout': 0.0,
           'd_ff': 32, 'd_kv': 4, 'd_model': 16, 'decoder_start_token_id': 0,
           'dense_act_fn': 'relu', 'dropout_rate': 0.1, 'eos_token_id': 1,
           'feed_forward_proj': 'relu', 'initializer_factor': 1.0, 'is_encoder_decoder': True,
           'is_gated_act': False, 'layer_norm_epsilon': 1e-06, 'model_type': 't5',
           'n_positions': 512, 'num_decoder_layers': 3, 'num_heads': 4, 'num_layers': 2,
           'output_past': True, 'pad_token_id': 0, 'relative_attention_max_distance': 16,
           'relative_attention_num_buckets': 8, 'tie_word_embeddings': True,
           'torch_dtype': 'float32', 'transformers_version': tiny.TRANSFORMERS_VERSION,
           'use_cache': True, 'vocab_size': 64}
    cfg.update(arch_extra)
    return cfg


def write_generation_config(folder):
    tiny.write_json(os.path.join(folder, 'generation_config.json'),
                    {'_from_model_config': True, 'decoder_start_token_id': 0, 'eos_token_id': 1,
                     'pad_token_id': 0, 'transformers_version': tiny.TRANSFORMERS_VERSION},
                    sort_keys=True)


def make_t5(folder):
    n = write_tokenizer(folder)
    cfg = t5_config({})
    assert cfg['vocab_size'] > n
    tiny.save_checkpoint(folder, build_t5(3416, cfg, cfg['vocab_size'], True))
    tiny.write_config(folder, cfg)
    write_generation_config(folder)


def make_flan_t5(folder):
    n = write_tokenizer(folder)
    cfg = t5_config({'d_ff': 24, 'd_kv': 6, 'dense_act_fn': 'gelu_new',
                     'feed_forward_proj': 'gated-gelu', 'is_gated_act': True, 'num_heads': 3,
                     'num_decoder_layers': 2, 'tie_word_embeddings': False, 'vocab_size': n})
    tiny.save_checkpoint(folder, build_t5(217, cfg, cfg['vocab_size'], False))
    tiny.write_config(folder, cfg)
    write_generation_config(folder)


MODELS = {'t5': make_t5, 'flan-t5': make_flan_t5}

# ----------------------------------------------------------------------------------------
# the reference forward (float64)


def bucket(relative, bidirectional, num_buckets, max_distance):
    """T5Attention._relative_position_bucket for one j - i; the logarithm in float32."""
    b = 0
    n = num_buckets
    if bidirectional:
        n //= 2
        b += n if relative > 0 else 0
        distance = abs(relative)
    else:
        distance = -min(relative, 0)
    exact = n // 2
    if distance < exact:
        return b + distance
    f32 = np.float32
    large = (np.log(f32(distance) / f32(exact)) / f32(math.log(max_distance / exact))
             * f32(n - exact))
    return b + min(exact + int(large), n - 1)


def position_bias(table, tq, tk, bidirectional, max_distance):
    nb = table.shape[0]
    out = np.zeros((table.shape[1], tq, tk))
    for i in range(tq):
        for j in range(tk):
            out[:, i, j] = table[bucket(j - i, bidirectional, nb, max_distance)]
    return out


def rms(x, w, eps):
    return w * x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps)


def softmax(s):
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)


def attend(W, a, xq, xkv, H, dk, bias=None, causal=False):
    q = (xq @ W[a + 'q.weight'].T).reshape(len(xq), H, dk).transpose(1, 0, 2)
    k = (xkv @ W[a + 'k.weight'].T).reshape(len(xkv), H, dk).transpose(1, 0, 2)
    v = (xkv @ W[a + 'v.weight'].T).reshape(len(xkv), H, dk).transpose(1, 0, 2)
    s = q @ k.transpose(0, 2, 1)          # no 1 / sqrt(d_kv): T5 folds it into W_q's init
    if bias is not None:
        s = s + bias
    if causal:
        s = np.where(np.tril(np.ones(s.shape[1:], dtype=bool)), s, -np.inf)
    p = softmax(s)
    out = (p @ v).transpose(1, 0, 2).reshape(len(xq), H * dk)
    return out @ W[a + 'o.weight'].T, p


def ff(W, p, x, cfg):
    if cfg['feed_forward_proj'] == 'gated-gelu':
        g = x @ W[p + 'wi_0.weight'].T
        gelu_new = 0.5 * g * (1 + np.tanh(math.sqrt(2 / math.pi) * (g + 0.044715 * g ** 3)))
        h = gelu_new * (x @ W[p + 'wi_1.weight'].T)
    else:
        h = np.maximum(x @ W[p + 'wi.weight'].T, 0)
    return h @ W[p + 'wo.weight'].T


def forward(W, cfg, src, tgt):
    H, dk, eps = cfg['num_heads'], cfg['d_kv'], cfg['layer_norm_epsilon']
    nb, md = cfg['relative_attention_num_buckets'], cfg['relative_attention_max_distance']
    rb = 'block.0.layer.0.SelfAttention.relative_attention_bias.weight'
    r = {'encoder_attention': [], 'decoder_attention': [], 'cross_attention': []}
    x = W['shared.weight'][src]
    bias = position_bias(W['encoder.' + rb], len(src), len(src), True, md)
    for i in range(cfg['num_layers']):
        b = f'encoder.block.{i}.layer.'
        h = rms(x, W[b + '0.layer_norm.weight'], eps)
        out, p = attend(W, b + '0.SelfAttention.', h, h, H, dk, bias)
        r['encoder_attention'].append(p)
        x = x + out
        x = x + ff(W, b + '1.DenseReluDense.', rms(x, W[b + '1.layer_norm.weight'], eps), cfg)
    enc = rms(x, W['encoder.final_layer_norm.weight'], eps)
    y = W['shared.weight'][tgt]
    bias = position_bias(W['decoder.' + rb], len(tgt), len(tgt), False, md)
    for i in range(cfg['num_decoder_layers']):
        b = f'decoder.block.{i}.layer.'
        h = rms(y, W[b + '0.layer_norm.weight'], eps)
        out, p = attend(W, b + '0.SelfAttention.', h, h, H, dk, bias, causal=True)
        r['decoder_attention'].append(p)
        y = y + out
        h = rms(y, W[b + '1.layer_norm.weight'], eps)
        out, p = attend(W, b + '1.EncDecAttention.', h, enc, H, dk)
        r['cross_attention'].append(p)
        y = y + out
        y = y + ff(W, b + '2.DenseReluDense.', rms(y, W[b + '2.layer_norm.weight'], eps), cfg)
    last = rms(y, W['decoder.final_layer_norm.weight'], eps)
    r['hidden_last'] = last
    if cfg['tie_word_embeddings']:
        r['logits'] = (last * cfg['d_model'] ** -0.5) @ W['shared.weight'].T
    else:
        r['logits'] = last @ W['lm_head.weight'].T
    return r


def greedy(W, cfg, src, max_new):
    """Greedy ids from decoder_start_token_id; also the smallest gap between the best and the
    second logit (a float32 forward makes the same choices when it is wide)."""
    tgt, gap = [cfg['decoder_start_token_id']], np.inf
    generated = []
    while len(generated) < max_new:
        logits = forward(W, cfg, src, np.asarray(tgt))['logits'][-1]
        top = np.argsort(-logits, kind='stable')[:2]
        gap = min(gap, logits[top[0]] - logits[top[1]])
        generated.append(int(top[0]))
        tgt.append(int(top[0]))
        if top[0] == cfg['eos_token_id']:
            break
    return generated, float(gap)


def bucket_table(cfg):
    nb, md = cfg['relative_attention_num_buckets'], cfg['relative_attention_max_distance']
    rel = range(-BUCKET_RANGE, BUCKET_RANGE + 1)
    return {'relative_from': -BUCKET_RANGE,
            'bidirectional': [bucket(k, True, nb, md) for k in rel],
            'unidirectional': [bucket(k, False, nb, md) for k in rel]}


def write_expected(name):
    folder = os.path.join(HERE, name)
    with open(os.path.join(folder, 'config.json')) as f:
        cfg = json.load(f)
    W, _dtypes = reference.load_checkpoint(folder)
    src = node_ids(folder, TEXT)
    generated, gap = greedy(W, cfg, np.asarray(src), MAX_NEW)
    assert gap > 1e-3, (name, gap)
    tgt = [cfg['decoder_start_token_id']] + generated
    r = forward(W, cfg, np.asarray(src), np.asarray(tgt))
    e = {'family': cfg['model_type'], 'architecture': cfg['architectures'][0],
         'source_text': TEXT, 'source_ids': src, 'max_new_tokens': MAX_NEW,
         'generated': generated, 'smallest_greedy_gap': tiny.rounded(gap), 'target_ids': tgt,
         'buckets': bucket_table(cfg),
         'cases': [{
             'encoder_attention': tiny.rounded(r['encoder_attention']),
             'decoder_attention': tiny.rounded(r['decoder_attention']),
             'cross_attention': tiny.rounded(r['cross_attention']),
             'hidden_last': tiny.rounded(r['hidden_last']),
             'logits_last': tiny.rounded(r['logits'][-1])}]}
    tiny.dump_expected(os.path.join(folder, 'expected_seq2seq.json'), e)


# ----------------------------------------------------------------------------------------
# the same forward with torch.nn.functional in float32


def torch_bucket(relative, bidirectional, num_buckets, max_distance):
    """transformers' formula on a tensor of j - i, as modeling_t5.py computes it."""
    import torch
    buckets = torch.zeros_like(relative)
    if bidirectional:
        num_buckets //= 2
        buckets += (relative > 0).to(torch.long) * num_buckets
        relative = torch.abs(relative)
    else:
        relative = -torch.min(relative, torch.zeros_like(relative))
    exact = num_buckets // 2
    small = relative < exact
    large = exact + (torch.log(relative.float() / exact) / math.log(max_distance / exact)
                     * (num_buckets - exact)).to(torch.long)
    large = torch.min(large, torch.full_like(large, num_buckets - 1))
    return buckets + torch.where(small, relative, large)


def torch_forward(W, cfg, src, tgt):
    import torch
    import torch.nn.functional as F
    T = {k: torch.tensor(v, dtype=torch.float32) for k, v in W.items()}
    H, dk, eps = cfg['num_heads'], cfg['d_kv'], cfg['layer_norm_epsilon']
    nb, md = cfg['relative_attention_num_buckets'], cfg['relative_attention_max_distance']
    rb = 'block.0.layer.0.SelfAttention.relative_attention_bias.weight'

    def norm(x, w):
        return w * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))

    def bias_of(table, t, bidirectional):
        pos = torch.arange(t)
        rel = pos[None, :] - pos[:, None]
        return F.embedding(torch_bucket(rel, bidirectional, nb, md), table).permute(2, 0, 1)

    def att(a, xq, xkv, bias=None, causal=False):
        q = F.linear(xq, T[a + 'q.weight']).view(-1, H, dk).transpose(0, 1)
        k = F.linear(xkv, T[a + 'k.weight']).view(-1, H, dk).transpose(0, 1)
        v = F.linear(xkv, T[a + 'v.weight']).view(-1, H, dk).transpose(0, 1)
        s = q @ k.transpose(1, 2)
        if bias is not None:
            s = s + bias
        if causal:
            s = s.masked_fill(~torch.ones(s.shape[1:], dtype=torch.bool).tril(), float('-inf'))
        p = F.softmax(s, dim=-1)
        return F.linear((p @ v).transpose(0, 1).reshape(len(xq), H * dk), T[a + 'o.weight']), p

    def mlp(p, x):
        if cfg['feed_forward_proj'] == 'gated-gelu':
            h = F.gelu(F.linear(x, T[p + 'wi_0.weight']), approximate='tanh')
            h = h * F.linear(x, T[p + 'wi_1.weight'])
        else:
            h = F.relu(F.linear(x, T[p + 'wi.weight']))
        return F.linear(h, T[p + 'wo.weight'])

    r = {'encoder_attention': [], 'decoder_attention': [], 'cross_attention': []}
    x = F.embedding(torch.tensor(src), T['shared.weight'])
    bias = bias_of(T['encoder.' + rb], len(src), True)
    for i in range(cfg['num_layers']):
        b = f'encoder.block.{i}.layer.'
        h = norm(x, T[b + '0.layer_norm.weight'])
        out, p = att(b + '0.SelfAttention.', h, h, bias)
        r['encoder_attention'].append(p)
        x = x + out
        x = x + mlp(b + '1.DenseReluDense.', norm(x, T[b + '1.layer_norm.weight']))
    enc = norm(x, T['encoder.final_layer_norm.weight'])
    y = F.embedding(torch.tensor(tgt), T['shared.weight'])
    bias = bias_of(T['decoder.' + rb], len(tgt), False)
    for i in range(cfg['num_decoder_layers']):
        b = f'decoder.block.{i}.layer.'
        h = norm(y, T[b + '0.layer_norm.weight'])
        out, p = att(b + '0.SelfAttention.', h, h, bias, causal=True)
        r['decoder_attention'].append(p)
        y = y + out
        out, p = att(b + '1.EncDecAttention.', norm(y, T[b + '1.layer_norm.weight']), enc)
        r['cross_attention'].append(p)
        y = y + out
        y = y + mlp(b + '2.DenseReluDense.', norm(y, T[b + '2.layer_norm.weight']))
    last = norm(y, T['decoder.final_layer_norm.weight'])
    if cfg['tie_word_embeddings']:
        r['logits'] = F.linear(last * cfg['d_model'] ** -0.5, T['shared.weight'])
    else:
        r['logits'] = F.linear(last, T['lm_head.weight'])
    return {k: (np.stack([t.numpy() for t in v]) if isinstance(v, list) else v.numpy())
            for k, v in r.items()}


def check_torch(name):
    import torch
    folder = os.path.join(HERE, name)
    with open(os.path.join(folder, 'config.json')) as f:
        cfg = json.load(f)
    with open(os.path.join(folder, 'expected_seq2seq.json')) as f:
        e = json.load(f)
    W, _ = reference.load_checkpoint(folder)
    src, tgt = e['source_ids'], e['target_ids']
    want = forward(W, cfg, np.asarray(src), np.asarray(tgt))
    got = torch_forward(W, cfg, src, tgt)
    att = max(np.abs(got[k] - np.stack(want[k])).max()
              for k in ('encoder_attention', 'decoder_attention', 'cross_attention'))
    logits = np.abs(got['logits'] - want['logits']).max() / np.abs(want['logits']).max()
    ids = list(tgt[:1])
    while len(ids) - 1 < e['max_new_tokens']:
        nxt = int(np.argmax(torch_forward(W, cfg, src, ids)['logits'][-1]))
        ids.append(nxt)
        if nxt == cfg['eos_token_id']:
            break
    same = ids == tgt
    for nb, md in ((8, 16), (32, 128)):
        rel = torch.arange(-300, 301)
        for bi in (True, False):
            t = torch_bucket(rel, bi, nb, md).tolist()
            n = [bucket(k, bi, nb, md) for k in range(-300, 301)]
            assert t == n, (nb, md, bi)
    return (f'{name}: attention {att:.1e} from the reference, logits relative {logits:.1e}, '
            f'greedy ids {"equal" if same else "DIFFER"} (float32)')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--check-torch', action='store_true')
    args = ap.parse_args()
    for name, make in MODELS.items():
        folder = os.path.join(HERE, name)
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        os.makedirs(folder)
        make(folder)
        write_expected(name)
    if args.check_torch:
        for name in MODELS:
            print(check_torch(name))


if __name__ == '__main__':
    main()
