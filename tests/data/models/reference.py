#!/usr/bin/python3
"""Independent float64 NumPy reference for the tiny checkpoints in this folder.

Imported by make_tiny_models.py (see its header for how everything is regenerated). Written
from the published architecture definitions (GPT-2, BERT, DistilBERT, Llama / Mistral / Qwen2
as Hugging Face transformers implements them), not from any C++ code of this repository.

The weights are read back from the written .safetensors files, so F16 and BF16 tensors are
seen exactly as stored (converted to float64), the way the C++ loader sees them.

Conventions (the ones the C++ forward has to match):
  * Conv1D (GPT-2) weights are stored d_in x d_out and applied as x @ W + b;
    nn.Linear (everything else) weights are stored d_out x d_in and applied as x @ W.T + b.
  * attention[layer][head] is the T x T softmax matrix (query rows, key columns);
    causal models put exact zeros above the diagonal.
  * "heads off" zeroes the chosen heads' outputs (softmax(QK^T/sqrt(d)) V for that head)
    before the output projection (c_proj / attention.output.dense / out_lin / o_proj); the
    head's own attention matrix is still computed and reported.
"""
import json
import math
import os
import struct

import numpy as np

# ----------------------------------------------------------------------------------------
# safetensors reading (F32 / F16 / BF16 / I64), single file or sharded with an index


def read_safetensors(path):
    """Returns {name: (dtype, shape, float64 or int64 ndarray)} for one file."""
    with open(path, 'rb') as f:
        blob = f.read()
    (n,) = struct.unpack('<Q', blob[:8])
    header = json.loads(blob[8:8 + n].decode('utf-8'))
    data = blob[8 + n:]
    out = {}
    for name, info in header.items():
        if name == '__metadata__':
            continue
        begin, end = info['data_offsets']
        raw = data[begin:end]
        shape = tuple(info['shape'])
        dt = info['dtype']
        if dt == 'F32':
            a = np.frombuffer(raw, dtype='<f4').astype(np.float64)
        elif dt == 'F16':
            a = np.frombuffer(raw, dtype='<f2').astype(np.float64)
        elif dt == 'BF16':
            bits = np.frombuffer(raw, dtype='<u2').astype(np.uint32) << 16
            a = bits.view('<f4').astype(np.float64)
        elif dt == 'I64':
            a = np.frombuffer(raw, dtype='<i8').copy()
        else:
            raise ValueError(f'{path}: {name}: dtype {dt} not handled')
        out[name] = (dt, shape, a.reshape(shape))
    return out


def load_checkpoint(folder):
    """All tensors of a model folder as {name: float64 ndarray}, plus {name: dtype}."""
    index = os.path.join(folder, 'model.safetensors.index.json')
    if os.path.exists(index):
        with open(index) as f:
            files = sorted(set(json.load(f)['weight_map'].values()))
    else:
        files = ['model.safetensors']
    tensors, dtypes = {}, {}
    for fn in files:
        for name, (dt, _shape, a) in read_safetensors(os.path.join(folder, fn)).items():
            tensors[name] = a
            dtypes[name] = dt
    return tensors, dtypes


# ----------------------------------------------------------------------------------------
# building blocks


def layer_norm(x, w, b, eps):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)   # biased variance, as nn.LayerNorm
    return (x - mu) / np.sqrt(var + eps) * w + b


def rms_norm(x, w, eps):
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps) * w


def gelu_tanh(x):          # GPT-2 "gelu_new"
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


_erf = np.vectorize(math.erf, otypes=[np.float64])


def gelu_erf(x):           # BERT / DistilBERT "gelu"
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def silu(x):
    return x / (1.0 + np.exp(-x))


def softmax_rows(s):
    m = s.max(axis=-1, keepdims=True)
    e = np.exp(s - m)
    return e / e.sum(axis=-1, keepdims=True)


def attention(q, k, v, causal):
    """q, k, v: T x d_head. Returns (T x T weights, T x d_head output)."""
    T, dh = q.shape
    s = (q @ k.T) / math.sqrt(dh)
    if causal:
        s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    a = softmax_rows(s)
    return a, a @ v


def rope_cos_sin(T, d_head, theta):
    """Hugging Face rotate-half convention: frequencies duplicated over both halves."""
    inv_freq = theta ** (-np.arange(0, d_head, 2, dtype=np.float64) / d_head)   # d_head/2
    freqs = np.outer(np.arange(T, dtype=np.float64), inv_freq)                   # T x d_head/2
    emb = np.concatenate([freqs, freqs], axis=-1)                                # T x d_head
    return np.cos(emb), np.sin(emb)


def rotate_half(x):
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)


def apply_rope(x, cos, sin):
    return x * cos + rotate_half(x) * sin


# ----------------------------------------------------------------------------------------
# the families. Each returns a dict: attention [L][H] (T x T), hidden_last (T x d),
# logits (T x vocab)


def _heads_off_set(heads_off):
    return {(int(l) - 1, int(h) - 1) for l, h in (heads_off or [])}


def forward_gpt2(W, cfg, ids, heads_off=None):
    off = _heads_off_set(heads_off)
    p = 'transformer.' if 'transformer.wte.weight' in W else ''
    d, H, L = cfg['n_embd'], cfg['n_head'], cfg['n_layer']
    eps = cfg['layer_norm_epsilon']
    dh = d // H
    T = len(ids)
    x = W[p + 'wte.weight'][ids] + W[p + 'wpe.weight'][np.arange(T)]
    atts = []
    for l in range(L):
        q_ = f'{p}h.{l}.'
        h = layer_norm(x, W[q_ + 'ln_1.weight'], W[q_ + 'ln_1.bias'], eps)
        qkv = h @ W[q_ + 'attn.c_attn.weight'] + W[q_ + 'attn.c_attn.bias']     # T x 3d
        q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
        layer_att, outs = [], []
        for hd in range(H):
            sl = slice(hd * dh, (hd + 1) * dh)
            a, o = attention(q[:, sl], k[:, sl], v[:, sl], causal=True)
            layer_att.append(a)
            outs.append(np.zeros_like(o) if (l, hd) in off else o)
        atts.append(layer_att)
        ctx = np.concatenate(outs, axis=-1)
        x = x + ctx @ W[q_ + 'attn.c_proj.weight'] + W[q_ + 'attn.c_proj.bias']
        h = layer_norm(x, W[q_ + 'ln_2.weight'], W[q_ + 'ln_2.bias'], eps)
        m = gelu_tanh(h @ W[q_ + 'mlp.c_fc.weight'] + W[q_ + 'mlp.c_fc.bias'])
        x = x + m @ W[q_ + 'mlp.c_proj.weight'] + W[q_ + 'mlp.c_proj.bias']
    x = layer_norm(x, W[p + 'ln_f.weight'], W[p + 'ln_f.bias'], eps)
    logits = x @ W[p + 'wte.weight'].T                                           # tied head
    return {'attention': atts, 'hidden_last': x, 'logits': logits}


def _ln(W, prefix):
    """LayerNorm parameters under either naming (weight/bias or the old gamma/beta)."""
    if prefix + 'weight' in W:
        return W[prefix + 'weight'], W[prefix + 'bias']
    return W[prefix + 'gamma'], W[prefix + 'beta']


def _linear(W, prefix, x):
    return x @ W[prefix + 'weight'].T + W[prefix + 'bias']


def forward_bert(W, cfg, ids, heads_off=None):
    off = _heads_off_set(heads_off)
    d, H, L = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers']
    eps = cfg['layer_norm_eps']
    act = {'gelu': gelu_erf, 'gelu_new': gelu_tanh}[cfg['hidden_act']]
    dh = d // H
    T = len(ids)
    e = 'bert.embeddings.'
    x = (W[e + 'word_embeddings.weight'][ids] + W[e + 'position_embeddings.weight'][np.arange(T)]
         + W[e + 'token_type_embeddings.weight'][0])
    x = layer_norm(x, *_ln(W, e + 'LayerNorm.'), eps)
    atts = []
    for l in range(L):
        p = f'bert.encoder.layer.{l}.'
        q = _linear(W, p + 'attention.self.query.', x)
        k = _linear(W, p + 'attention.self.key.', x)
        v = _linear(W, p + 'attention.self.value.', x)
        layer_att, outs = [], []
        for hd in range(H):
            sl = slice(hd * dh, (hd + 1) * dh)
            a, o = attention(q[:, sl], k[:, sl], v[:, sl], causal=False)
            layer_att.append(a)
            outs.append(np.zeros_like(o) if (l, hd) in off else o)
        atts.append(layer_att)
        ctx = np.concatenate(outs, axis=-1)
        x = layer_norm(_linear(W, p + 'attention.output.dense.', ctx) + x,
                       *_ln(W, p + 'attention.output.LayerNorm.'), eps)
        inter = act(_linear(W, p + 'intermediate.dense.', x))
        x = layer_norm(_linear(W, p + 'output.dense.', inter) + x, *_ln(W, p + 'output.LayerNorm.'), eps)
    t = act(_linear(W, 'cls.predictions.transform.dense.', x))
    t = layer_norm(t, *_ln(W, 'cls.predictions.transform.LayerNorm.'), eps)
    logits = t @ W[e + 'word_embeddings.weight'].T + W['cls.predictions.bias']   # tied decoder
    return {'attention': atts, 'hidden_last': x, 'logits': logits}


DISTILBERT_LN_EPS = 1e-12   # hard-coded in DistilBERT (nn.LayerNorm(eps=1e-12)); not in config


def forward_distilbert(W, cfg, ids, heads_off=None):
    off = _heads_off_set(heads_off)
    d, H, L = cfg['dim'], cfg['n_heads'], cfg['n_layers']
    eps = DISTILBERT_LN_EPS
    act = {'gelu': gelu_erf}[cfg['activation']]
    dh = d // H
    T = len(ids)
    e = 'distilbert.embeddings.'
    x = W[e + 'word_embeddings.weight'][ids] + W[e + 'position_embeddings.weight'][np.arange(T)]
    x = layer_norm(x, *_ln(W, e + 'LayerNorm.'), eps)
    atts = []
    for l in range(L):
        p = f'distilbert.transformer.layer.{l}.'
        q = _linear(W, p + 'attention.q_lin.', x)
        k = _linear(W, p + 'attention.k_lin.', x)
        v = _linear(W, p + 'attention.v_lin.', x)
        layer_att, outs = [], []
        for hd in range(H):
            sl = slice(hd * dh, (hd + 1) * dh)
            a, o = attention(q[:, sl], k[:, sl], v[:, sl], causal=False)
            layer_att.append(a)
            outs.append(np.zeros_like(o) if (l, hd) in off else o)
        atts.append(layer_att)
        ctx = np.concatenate(outs, axis=-1)
        x = layer_norm(_linear(W, p + 'attention.out_lin.', ctx) + x, *_ln(W, p + 'sa_layer_norm.'), eps)
        f = _linear(W, p + 'ffn.lin2.', act(_linear(W, p + 'ffn.lin1.', x)))
        x = layer_norm(f + x, *_ln(W, p + 'output_layer_norm.'), eps)
    t = act(_linear(W, 'vocab_transform.', x))
    t = layer_norm(t, *_ln(W, 'vocab_layer_norm.'), eps)
    logits = t @ W[e + 'word_embeddings.weight'].T + W['vocab_projector.bias']   # tied projector
    return {'attention': atts, 'hidden_last': x, 'logits': logits}


def forward_llama(W, cfg, ids, heads_off=None):
    """Llama, Mistral and Qwen2 (Qwen2: q/k/v biases; all: optional tied head)."""
    off = _heads_off_set(heads_off)
    d, H, L = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers']
    KV = cfg.get('num_key_value_heads') or H
    dh = cfg.get('head_dim') or d // H
    eps, theta = cfg['rms_norm_eps'], cfg['rope_theta']
    assert cfg['hidden_act'] == 'silu'
    group = H // KV
    T = len(ids)
    cos, sin = rope_cos_sin(T, dh, theta)
    x = W['model.embed_tokens.weight'][ids]
    atts = []

    def proj(p, x):
        y = x @ W[p + 'weight'].T
        return y + W[p + 'bias'] if p + 'bias' in W else y

    for l in range(L):
        p = f'model.layers.{l}.'
        h = rms_norm(x, W[p + 'input_layernorm.weight'], eps)
        q = proj(p + 'self_attn.q_proj.', h)      # T x H*dh
        k = proj(p + 'self_attn.k_proj.', h)      # T x KV*dh
        v = proj(p + 'self_attn.v_proj.', h)
        layer_att, outs = [], []
        for hd in range(H):
            kvh = hd // group                     # grouped-query attention
            qh = apply_rope(q[:, hd * dh:(hd + 1) * dh], cos, sin)
            kh = apply_rope(k[:, kvh * dh:(kvh + 1) * dh], cos, sin)
            a, o = attention(qh, kh, v[:, kvh * dh:(kvh + 1) * dh], causal=True)
            layer_att.append(a)
            outs.append(np.zeros_like(o) if (l, hd) in off else o)
        atts.append(layer_att)
        x = x + np.concatenate(outs, axis=-1) @ W[p + 'self_attn.o_proj.weight'].T
        h = rms_norm(x, W[p + 'post_attention_layernorm.weight'], eps)
        g = silu(h @ W[p + 'mlp.gate_proj.weight'].T) * (h @ W[p + 'mlp.up_proj.weight'].T)
        x = x + g @ W[p + 'mlp.down_proj.weight'].T
    x = rms_norm(x, W['model.norm.weight'], eps)
    head = W['lm_head.weight'] if 'lm_head.weight' in W else W['model.embed_tokens.weight']
    if cfg.get('tie_word_embeddings'):
        assert 'lm_head.weight' not in W
    return {'attention': atts, 'hidden_last': x, 'logits': x @ head.T}


FORWARDS = {
    'gpt2': forward_gpt2,
    'bert': forward_bert,
    'distilbert': forward_distilbert,
    'llama': forward_llama,
    'mistral': forward_llama,
    'qwen2': forward_llama,
}


def forward(folder, ids, heads_off=None):
    with open(os.path.join(folder, 'config.json')) as f:
        cfg = json.load(f)
    W, _ = load_checkpoint(folder)
    return FORWARDS[cfg['model_type']](W, cfg, np.asarray(ids, dtype=np.int64), heads_off)
