#!/usr/bin/python3
"""Independent float64 NumPy reference for the tiny checkpoints in this folder.

Imported by make_tiny_models.py (see its header for how everything is regenerated). Written
from the published architecture definitions (GPT-2, BERT, DistilBERT, Llama / Mistral / Qwen2,
GPT-NeoX, Gemma, OPT, Phi, RoBERTa as Hugging Face transformers implements them), not from any C++ code of this repository.

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


def _bert_encoder(W, cfg, ids, heads_off, e, lay, positions):
    """BERT's embeddings (under e, position rows `positions`) and encoder layers (under lay)."""
    off = _heads_off_set(heads_off)
    d, H, L = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers']
    eps = cfg['layer_norm_eps']
    act = {'gelu': gelu_erf, 'gelu_new': gelu_tanh}[cfg['hidden_act']]
    dh = d // H
    x = (W[e + 'word_embeddings.weight'][ids] + W[e + 'position_embeddings.weight'][positions]
         + W[e + 'token_type_embeddings.weight'][0])
    x = layer_norm(x, *_ln(W, e + 'LayerNorm.'), eps)
    atts = []
    for l in range(L):
        p = f'{lay}{l}.'
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
    return atts, x, act


def forward_bert(W, cfg, ids, heads_off=None):
    e = 'bert.embeddings.'
    atts, x, act = _bert_encoder(W, cfg, ids, heads_off, e, 'bert.encoder.layer.', np.arange(len(ids)))
    eps = cfg['layer_norm_eps']
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


def rope_partial(x, T, rotary_dims, theta):
    """Rotary positions on the first rotary_dims dimensions of each head (GPT-NeoX's rotary_pct,
    Phi's partial_rotary_factor): rotate-half within them, with the frequencies of a head of
    rotary_dims dimensions; the rest pass through."""
    cos, sin = rope_cos_sin(T, rotary_dims, theta)
    return np.concatenate([apply_rope(x[:, :rotary_dims], cos, sin), x[:, rotary_dims:]], axis=-1)


def _proj(W, prefix, x):
    y = x @ W[prefix + 'weight'].T
    return y + W[prefix + 'bias'] if prefix + 'bias' in W else y


def forward_gpt_neox(W, cfg, ids, heads_off=None):
    """GPT-NeoX / Pythia: fused query_key_value laid out per head as [q | k | v] (heads x 3 x
    d_head rows), partial rotary (rotary_pct, frequencies over the rotated width), parallel
    residual x + attn(ln1(x)) + mlp(ln2(x)) when use_parallel_residual, untied embed_out."""
    off = _heads_off_set(heads_off)
    d, H, L = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers']
    eps = cfg['layer_norm_eps']
    act = {'gelu': gelu_erf, 'gelu_new': gelu_tanh}[cfg['hidden_act']]
    dh = d // H
    rd = int(dh * cfg['rotary_pct'])
    theta = cfg.get('rope_theta', cfg.get('rotary_emb_base', 10000))
    T = len(ids)
    x = W['gpt_neox.embed_in.weight'][ids]
    atts = []
    for l in range(L):
        p = f'gpt_neox.layers.{l}.'
        h = layer_norm(x, W[p + 'input_layernorm.weight'], W[p + 'input_layernorm.bias'], eps)
        qkv = _proj(W, p + 'attention.query_key_value.', h).reshape(T, H, 3 * dh)
        layer_att, outs = [], []
        for hd in range(H):
            q = rope_partial(qkv[:, hd, :dh], T, rd, theta)
            k = rope_partial(qkv[:, hd, dh:2 * dh], T, rd, theta)
            a, o = attention(q, k, qkv[:, hd, 2 * dh:], causal=True)
            layer_att.append(a)
            outs.append(np.zeros_like(o) if (l, hd) in off else o)
        atts.append(layer_att)
        attn = _proj(W, p + 'attention.dense.', np.concatenate(outs, axis=-1))

        def mlp(y):
            return _proj(W, p + 'mlp.dense_4h_to_h.', act(_proj(W, p + 'mlp.dense_h_to_4h.', y)))
        ln2 = (W[p + 'post_attention_layernorm.weight'], W[p + 'post_attention_layernorm.bias'], eps)
        if cfg['use_parallel_residual']:
            x = mlp(layer_norm(x, *ln2)) + attn + x
        else:
            x = x + attn
            x = mlp(layer_norm(x, *ln2)) + x
    x = layer_norm(x, W['gpt_neox.final_layer_norm.weight'], W['gpt_neox.final_layer_norm.bias'], eps)
    return {'attention': atts, 'hidden_last': x, 'logits': x @ W['embed_out.weight'].T}


def forward_gemma(W, cfg, ids, heads_off=None):
    """Gemma: embeddings times sqrt(hidden_size), RMSNorm with gain (1 + w), head_dim apart from
    hidden_size / heads, GeGLU (gelu tanh: hidden_activation), rotary, tied head."""
    off = _heads_off_set(heads_off)
    d, H, L = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers']
    KV, dh = cfg['num_key_value_heads'], cfg['head_dim']
    eps, theta = cfg['rms_norm_eps'], cfg['rope_theta']
    assert cfg.get('hidden_activation') in (None, 'gelu_pytorch_tanh')
    group = H // KV
    T = len(ids)
    cos, sin = rope_cos_sin(T, dh, theta)
    emb = W['model.embed_tokens.weight']
    x = emb[ids] * math.sqrt(d)

    def norm(y, w):
        return rms_norm(y, 1.0 + w, eps)
    atts = []
    for l in range(L):
        p = f'model.layers.{l}.'
        h = norm(x, W[p + 'input_layernorm.weight'])
        q, k, v = (_proj(W, p + f'self_attn.{n}_proj.', h) for n in 'qkv')
        layer_att, outs = [], []
        for hd in range(H):
            kvh = hd // group
            qh = apply_rope(q[:, hd * dh:(hd + 1) * dh], cos, sin)
            kh = apply_rope(k[:, kvh * dh:(kvh + 1) * dh], cos, sin)
            a, o = attention(qh, kh, v[:, kvh * dh:(kvh + 1) * dh], causal=True)
            layer_att.append(a)
            outs.append(np.zeros_like(o) if (l, hd) in off else o)
        atts.append(layer_att)
        x = x + np.concatenate(outs, axis=-1) @ W[p + 'self_attn.o_proj.weight'].T
        h = norm(x, W[p + 'post_attention_layernorm.weight'])
        g = gelu_tanh(h @ W[p + 'mlp.gate_proj.weight'].T) * (h @ W[p + 'mlp.up_proj.weight'].T)
        x = x + g @ W[p + 'mlp.down_proj.weight'].T
    x = norm(x, W['model.norm.weight'])
    return {'attention': atts, 'hidden_last': x, 'logits': x @ emb.T}


OPT_POSITION_OFFSET = 2   # OPTLearnedPositionalEmbedding: position p reads row p + 2
OPT_LN_EPS = 1e-5         # nn.LayerNorm's default; not in config


def forward_opt(W, cfg, ids, heads_off=None):
    """OPT (do_layer_norm_before): learned positions at offset 2, pre-norm blocks, ReLU,
    final_layer_norm, tied head."""
    off = _heads_off_set(heads_off)
    d, H, L = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers']
    assert cfg['do_layer_norm_before'] and cfg['activation_function'] == 'relu'
    dh = d // H
    T = len(ids)
    e = 'model.decoder.'
    emb = W[e + 'embed_tokens.weight']
    x = emb[ids] + W[e + 'embed_positions.weight'][np.arange(T) + OPT_POSITION_OFFSET]
    atts = []
    for l in range(L):
        p = f'{e}layers.{l}.'
        h = layer_norm(x, W[p + 'self_attn_layer_norm.weight'], W[p + 'self_attn_layer_norm.bias'], OPT_LN_EPS)
        q, k, v = (_proj(W, p + f'self_attn.{n}_proj.', h) for n in 'qkv')
        layer_att, outs = [], []
        for hd in range(H):
            sl = slice(hd * dh, (hd + 1) * dh)
            a, o = attention(q[:, sl], k[:, sl], v[:, sl], causal=True)
            layer_att.append(a)
            outs.append(np.zeros_like(o) if (l, hd) in off else o)
        atts.append(layer_att)
        x = x + _proj(W, p + 'self_attn.out_proj.', np.concatenate(outs, axis=-1))
        h = layer_norm(x, W[p + 'final_layer_norm.weight'], W[p + 'final_layer_norm.bias'], OPT_LN_EPS)
        x = x + _proj(W, p + 'fc2.', np.maximum(_proj(W, p + 'fc1.', h), 0.0))
    x = layer_norm(x, W[e + 'final_layer_norm.weight'], W[e + 'final_layer_norm.bias'], OPT_LN_EPS)
    return {'attention': atts, 'hidden_last': x, 'logits': x @ emb.T}


def forward_phi(W, cfg, ids, heads_off=None):
    """Phi (phi-1.5, phi-2): one LayerNorm per block feeding attention and MLP in parallel,
    x + attn(ln(x)) + mlp(ln(x)); partial rotary; final_layernorm; lm_head with a bias."""
    off = _heads_off_set(heads_off)
    d, H, L = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers']
    KV = cfg.get('num_key_value_heads') or H
    eps, theta = cfg['layer_norm_eps'], cfg['rope_theta']
    act = {'gelu_new': gelu_tanh, 'gelu': gelu_erf}[cfg['hidden_act']]
    dh = d // H
    rd = int(cfg['partial_rotary_factor'] * dh)
    group = H // KV
    T = len(ids)
    x = W['model.embed_tokens.weight'][ids]
    atts = []
    for l in range(L):
        p = f'model.layers.{l}.'
        h = layer_norm(x, W[p + 'input_layernorm.weight'], W[p + 'input_layernorm.bias'], eps)
        q, k, v = (_proj(W, p + f'self_attn.{n}_proj.', h) for n in 'qkv')
        layer_att, outs = [], []
        for hd in range(H):
            kvh = hd // group
            qh = rope_partial(q[:, hd * dh:(hd + 1) * dh], T, rd, theta)
            kh = rope_partial(k[:, kvh * dh:(kvh + 1) * dh], T, rd, theta)
            a, o = attention(qh, kh, v[:, kvh * dh:(kvh + 1) * dh], causal=True)
            layer_att.append(a)
            outs.append(np.zeros_like(o) if (l, hd) in off else o)
        atts.append(layer_att)
        attn = _proj(W, p + 'self_attn.dense.', np.concatenate(outs, axis=-1))
        mlp = _proj(W, p + 'mlp.fc2.', act(_proj(W, p + 'mlp.fc1.', h)))
        x = attn + mlp + x
    x = layer_norm(x, W['model.final_layernorm.weight'], W['model.final_layernorm.bias'], eps)
    return {'attention': atts, 'hidden_last': x, 'logits': _proj(W, 'lm_head.', x)}


def forward_roberta(W, cfg, ids, heads_off=None):
    """RoBERTa: BERT's encoder under "roberta.", positions from padding_idx + 1 (an unpadded
    text), lm_head (dense, gelu, layer_norm, tied decoder + lm_head.bias)."""
    e = 'roberta.embeddings.'
    positions = cfg['pad_token_id'] + 1 + np.arange(len(ids))
    atts, x, _act = _bert_encoder(W, cfg, ids, heads_off, e, 'roberta.encoder.layer.', positions)
    t = gelu_erf(_linear(W, 'lm_head.dense.', x))
    t = layer_norm(t, *_ln(W, 'lm_head.layer_norm.'), cfg['layer_norm_eps'])
    logits = t @ W[e + 'word_embeddings.weight'].T + W['lm_head.bias']
    return {'attention': atts, 'hidden_last': x, 'logits': logits}

FORWARDS = {
    'gpt2': forward_gpt2,
    'bert': forward_bert,
    'distilbert': forward_distilbert,
    'llama': forward_llama,
    'mistral': forward_llama,
    'qwen2': forward_llama,
    'gpt_neox': forward_gpt_neox,
    'gemma': forward_gemma,
    'opt': forward_opt,
    'phi': forward_phi,
    'roberta': forward_roberta,
}


def forward(folder, ids, heads_off=None):
    with open(os.path.join(folder, 'config.json')) as f:
        cfg = json.load(f)
    W, _ = load_checkpoint(folder)
    return FORWARDS[cfg['model_type']](W, cfg, np.asarray(ids, dtype=np.int64), heads_off)
