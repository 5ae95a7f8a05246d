#!/usr/bin/python3
"""Second implementation of the forwards with PyTorch, compared with reference.py and the
committed expected.json files. Run by `make_tiny_models.py --check-torch` (or directly:
/usr/bin/python3 tests/data/models/torch_check.py). Needs Debian's python3-torch (1.13);
Hugging Face transformers is not used (nor installed here): the modules below follow the
shapes and steps of transformers' modeling_gpt2 / modeling_bert / modeling_distilbert /
modeling_llama / modeling_gpt_neox / modeling_gemma / modeling_opt / modeling_phi / modeling_roberta code (split heads as (1, H, T, d_head), head masks on the per-head output,
repeat_kv for grouped-query attention, rotate_half rotary embeddings, RMSNorm as
x * rsqrt(mean(x^2) + eps) * w), with torch.nn.functional doing the arithmetic.

Weights are decoded by torch itself (torch.frombuffer with torch.float16 / torch.bfloat16),
independently of the NumPy decoding in reference.py. The F16 and BF16 files are also checked
bit for bit against torch's own float32 -> float16 / bfloat16 conversion of the generated
weights.
"""
import json
import math
import os
import struct
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference  # noqa: E402

TORCH_DT = {'F32': torch.float32, 'F16': torch.float16, 'BF16': torch.bfloat16, 'I64': torch.int64}


def load(folder, dtype):
    index = os.path.join(folder, 'model.safetensors.index.json')
    files = (sorted(set(json.load(open(index))['weight_map'].values())) if os.path.exists(index)
             else ['model.safetensors'])
    out, raw = {}, {}
    for fn in files:
        blob = bytearray(open(os.path.join(folder, fn), 'rb').read())
        (n,) = struct.unpack('<Q', blob[:8])
        assert n % 8 == 0 and blob[8] == ord('{')
        header = json.loads(blob[8:8 + n].decode())
        assert list(header)[0] == '__metadata__' and header['__metadata__'] == {'format': 'pt'}
        end = 0
        for name, info in header.items():
            if name == '__metadata__':
                continue
            b, e = info['data_offsets']
            assert b == end, (fn, name)   # contiguous, in header order
            end = e
            tdt = TORCH_DT[info['dtype']]
            size = torch.empty(0, dtype=tdt).element_size()
            t = torch.frombuffer(blob, dtype=tdt, count=(e - b) // size, offset=8 + n + b)
            t = t.reshape(info['shape']).clone()
            raw[name] = t
            out[name] = t.to(dtype) if t.is_floating_point() else t
        assert 8 + n + end == len(blob)
    return out, raw


# ------------------------------------------------------------------------------------------

def split_heads(x, H, dh):                 # (T, H*dh) -> (1, H, T, dh)
    return x.view(1, x.shape[0], H, dh).permute(0, 2, 1, 3)


def merge_heads(x):                        # (1, H, T, dh) -> (T, H*dh)
    return x.permute(0, 2, 1, 3).reshape(x.shape[2], -1)


def attend(q, k, v, causal, head_mask):
    """q, k, v: (1, H, T, dh). Returns probs (1, H, T, T) and per-head output (1, H, T, dh)
    with the switched-off heads' outputs zeroed."""
    T, dh = q.shape[2], q.shape[3]
    w = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(dh)
    if causal:
        keep = torch.tril(torch.ones(T, T, dtype=torch.bool))
        w = w.masked_fill(~keep, torch.finfo(w.dtype).min)
    p = F.softmax(w, dim=-1)
    o = torch.matmul(p, v) * head_mask.view(1, -1, 1, 1).to(p.dtype)
    return p, o


def head_masks(L, H, heads_off, dtype):
    m = torch.ones(L, H, dtype=dtype)
    for l, h in heads_off or []:
        m[l - 1, h - 1] = 0
    return m


def gpt2(W, cfg, ids, heads_off):
    p = 'transformer.' if 'transformer.wte.weight' in W else ''
    d, H, L, eps = cfg['n_embd'], cfg['n_head'], cfg['n_layer'], cfg['layer_norm_epsilon']
    dh = d // H
    T = len(ids)
    hm = head_masks(L, H, heads_off, W[p + 'wte.weight'].dtype)
    x = F.embedding(ids, W[p + 'wte.weight']) + F.embedding(torch.arange(T), W[p + 'wpe.weight'])
    atts = []
    for l in range(L):
        b = f'{p}h.{l}.'
        h = F.layer_norm(x, (d,), W[b + 'ln_1.weight'], W[b + 'ln_1.bias'], eps)
        qkv = torch.addmm(W[b + 'attn.c_attn.bias'], h, W[b + 'attn.c_attn.weight'])   # Conv1D
        q, k, v = qkv.split(d, dim=1)
        pr, o = attend(split_heads(q, H, dh), split_heads(k, H, dh), split_heads(v, H, dh), True, hm[l])
        atts.append(pr[0])
        x = x + torch.addmm(W[b + 'attn.c_proj.bias'], merge_heads(o), W[b + 'attn.c_proj.weight'])
        h = F.layer_norm(x, (d,), W[b + 'ln_2.weight'], W[b + 'ln_2.bias'], eps)
        m = F.gelu(torch.addmm(W[b + 'mlp.c_fc.bias'], h, W[b + 'mlp.c_fc.weight']), approximate='tanh')
        x = x + torch.addmm(W[b + 'mlp.c_proj.bias'], m, W[b + 'mlp.c_proj.weight'])
    x = F.layer_norm(x, (d,), W[p + 'ln_f.weight'], W[p + 'ln_f.bias'], eps)
    return torch.stack(atts), x, F.linear(x, W[p + 'wte.weight'])


def ln_params(W, prefix):
    if prefix + 'weight' in W:
        return W[prefix + 'weight'], W[prefix + 'bias']
    return W[prefix + 'gamma'], W[prefix + 'beta']


def bert_like(W, cfg, ids, heads_off, distil):
    if distil:
        d, H, L, eps = cfg['dim'], cfg['n_heads'], cfg['n_layers'], 1e-12
        e, lay = 'distilbert.embeddings.', 'distilbert.transformer.layer.'
        names = dict(q='attention.q_lin.', k='attention.k_lin.', v='attention.v_lin.', o='attention.out_lin.',
                     ln1='sa_layer_norm.', f1='ffn.lin1.', f2='ffn.lin2.', ln2='output_layer_norm.')
        head = ('vocab_transform.', 'vocab_layer_norm.', 'vocab_projector.bias')
    else:
        d, H, L, eps = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers'], cfg['layer_norm_eps']
        e, lay = 'bert.embeddings.', 'bert.encoder.layer.'
        names = dict(q='attention.self.query.', k='attention.self.key.', v='attention.self.value.',
                     o='attention.output.dense.', ln1='attention.output.LayerNorm.', f1='intermediate.dense.',
                     f2='output.dense.', ln2='output.LayerNorm.')
        head = ('cls.predictions.transform.dense.', 'cls.predictions.transform.LayerNorm.', 'cls.predictions.bias')
    dh = d // H
    T = len(ids)
    emb = W[e + 'word_embeddings.weight']
    hm = head_masks(L, H, heads_off, emb.dtype)
    x = F.embedding(ids, emb) + F.embedding(torch.arange(T), W[e + 'position_embeddings.weight'])
    if not distil:
        x = x + F.embedding(torch.zeros(T, dtype=torch.long), W[e + 'token_type_embeddings.weight'])
    x = F.layer_norm(x, (d,), *ln_params(W, e + 'LayerNorm.'), eps)

    def lin(prefix, y):
        return F.linear(y, W[prefix + 'weight'], W[prefix + 'bias'])
    atts = []
    for l in range(L):
        b = f'{lay}{l}.'
        q, k, v = (split_heads(lin(b + names[n], x), H, dh) for n in 'qkv')
        pr, o = attend(q, k, v, False, hm[l])
        atts.append(pr[0])
        x = F.layer_norm(lin(b + names['o'], merge_heads(o)) + x, (d,), *ln_params(W, b + names['ln1']), eps)
        f = lin(b + names['f2'], F.gelu(lin(b + names['f1'], x)))
        x = F.layer_norm(f + x, (d,), *ln_params(W, b + names['ln2']), eps)
    t = F.gelu(lin(head[0], x))
    t = F.layer_norm(t, (d,), *ln_params(W, head[1]), eps)
    return torch.stack(atts), x, F.linear(t, emb, W[head[2]])


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(x, n_rep):                   # (1, KV, T, dh) -> (1, KV*n_rep, T, dh)
    b, kv, T, dh = x.shape
    return x[:, :, None, :, :].expand(b, kv, n_rep, T, dh).reshape(b, kv * n_rep, T, dh)


def rms(x, w, eps):
    return w * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))


def llama(W, cfg, ids, heads_off):
    d, H, L = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers']
    KV = cfg.get('num_key_value_heads') or H
    dh = cfg.get('head_dim') or d // H
    eps, theta = cfg['rms_norm_eps'], cfg['rope_theta']
    T = len(ids)
    emb = W['model.embed_tokens.weight']
    dt = emb.dtype
    hm = head_masks(L, H, heads_off, dt)
    inv_freq = 1.0 / (theta ** (torch.arange(0, dh, 2, dtype=torch.float64) / dh))
    freqs = torch.outer(torch.arange(T, dtype=torch.float64), inv_freq)
    embp = torch.cat((freqs, freqs), dim=-1)
    cos, sin = embp.cos().to(dt), embp.sin().to(dt)

    def proj(prefix, y):
        return F.linear(y, W[prefix + 'weight'], W.get(prefix + 'bias'))
    x = F.embedding(ids, emb)
    atts = []
    for l in range(L):
        b = f'model.layers.{l}.'
        h = rms(x, W[b + 'input_layernorm.weight'], eps)
        q = split_heads(proj(b + 'self_attn.q_proj.', h), H, dh)
        k = split_heads(proj(b + 'self_attn.k_proj.', h), KV, dh)
        v = split_heads(proj(b + 'self_attn.v_proj.', h), KV, dh)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        pr, o = attend(q, repeat_kv(k, H // KV), repeat_kv(v, H // KV), True, hm[l])
        atts.append(pr[0])
        x = x + F.linear(merge_heads(o), W[b + 'self_attn.o_proj.weight'])
        h = rms(x, W[b + 'post_attention_layernorm.weight'], eps)
        g = F.silu(F.linear(h, W[b + 'mlp.gate_proj.weight'])) * F.linear(h, W[b + 'mlp.up_proj.weight'])
        x = x + F.linear(g, W[b + 'mlp.down_proj.weight'])
    x = rms(x, W['model.norm.weight'], eps)
    return torch.stack(atts), x, F.linear(x, W.get('lm_head.weight', emb))


def rope_tables(T, dims, theta, dt):
    inv_freq = 1.0 / (theta ** (torch.arange(0, dims, 2, dtype=torch.float64) / dims))
    freqs = torch.outer(torch.arange(T, dtype=torch.float64), inv_freq)
    embp = torch.cat((freqs, freqs), dim=-1)
    return embp.cos().to(dt), embp.sin().to(dt)


def partial_rope(x, cos, sin, rd):         # (1, H, T, dh): the first rd dims turn
    x_rot, x_pass = x[..., :rd], x[..., rd:]
    return torch.cat((x_rot * cos + rotate_half(x_rot) * sin, x_pass), dim=-1)


def gpt_neox(W, cfg, ids, heads_off):
    d, H, L, eps = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers'], cfg['layer_norm_eps']
    dh = d // H
    rd = int(dh * cfg['rotary_pct'])
    T = len(ids)
    emb = W['gpt_neox.embed_in.weight']
    hm = head_masks(L, H, heads_off, emb.dtype)
    cos, sin = rope_tables(T, rd, cfg.get('rotary_emb_base', 10000), emb.dtype)

    def lin(prefix, y):
        return F.linear(y, W[prefix + 'weight'], W[prefix + 'bias'])
    x = F.embedding(ids, emb)
    atts = []
    for l in range(L):
        b = f'gpt_neox.layers.{l}.'
        h = F.layer_norm(x, (d,), W[b + 'input_layernorm.weight'], W[b + 'input_layernorm.bias'], eps)
        qkv = lin(b + 'attention.query_key_value.', h).view(1, T, H, 3 * dh).permute(0, 2, 1, 3)
        q, k, v = qkv[..., :dh], qkv[..., dh:2 * dh], qkv[..., 2 * dh:]
        pr, o = attend(partial_rope(q, cos, sin, rd), partial_rope(k, cos, sin, rd), v, True, hm[l])
        atts.append(pr[0])
        a = lin(b + 'attention.dense.', merge_heads(o))
        h2 = F.layer_norm(x, (d,), W[b + 'post_attention_layernorm.weight'], W[b + 'post_attention_layernorm.bias'], eps)
        m = lin(b + 'mlp.dense_4h_to_h.', F.gelu(lin(b + 'mlp.dense_h_to_4h.', h2)))
        assert cfg['use_parallel_residual']
        x = m + a + x
    x = F.layer_norm(x, (d,), W['gpt_neox.final_layer_norm.weight'], W['gpt_neox.final_layer_norm.bias'], eps)
    return torch.stack(atts), x, F.linear(x, W['embed_out.weight'])


def gemma(W, cfg, ids, heads_off):
    d, H, L = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers']
    KV, dh, eps = cfg['num_key_value_heads'], cfg['head_dim'], cfg['rms_norm_eps']
    T = len(ids)
    emb = W['model.embed_tokens.weight']
    dt = emb.dtype
    hm = head_masks(L, H, heads_off, dt)
    cos, sin = rope_tables(T, dh, cfg['rope_theta'], dt)

    def norm(y, w):                        # GemmaRMSNorm: x * rsqrt(mean(x^2) + eps) * (1 + w)
        return (y * torch.rsqrt(y.pow(2).mean(-1, keepdim=True) + eps)) * (1.0 + w)
    x = F.embedding(ids, emb) * torch.tensor(d ** 0.5, dtype=dt)
    atts = []
    for l in range(L):
        b = f'model.layers.{l}.'
        h = norm(x, W[b + 'input_layernorm.weight'])
        q = split_heads(F.linear(h, W[b + 'self_attn.q_proj.weight']), H, dh)
        k = split_heads(F.linear(h, W[b + 'self_attn.k_proj.weight']), KV, dh)
        v = split_heads(F.linear(h, W[b + 'self_attn.v_proj.weight']), KV, dh)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        pr, o = attend(q, repeat_kv(k, H // KV), repeat_kv(v, H // KV), True, hm[l])
        atts.append(pr[0])
        x = x + F.linear(merge_heads(o), W[b + 'self_attn.o_proj.weight'])
        h = norm(x, W[b + 'post_attention_layernorm.weight'])
        g = F.gelu(F.linear(h, W[b + 'mlp.gate_proj.weight']), approximate='tanh') * F.linear(h, W[b + 'mlp.up_proj.weight'])
        x = x + F.linear(g, W[b + 'mlp.down_proj.weight'])
    x = norm(x, W['model.norm.weight'])
    return torch.stack(atts), x, F.linear(x, emb)


def opt(W, cfg, ids, heads_off):
    d, H, L = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers']
    dh = d // H
    T = len(ids)
    e = 'model.decoder.'
    emb = W[e + 'embed_tokens.weight']
    hm = head_masks(L, H, heads_off, emb.dtype)
    mask = torch.ones(1, T, dtype=torch.long)
    positions = (torch.cumsum(mask, dim=1) * mask).long() - 1     # OPTLearnedPositionalEmbedding
    x = F.embedding(ids, emb) + F.embedding(positions[0] + 2, W[e + 'embed_positions.weight'])

    def lin(prefix, y):
        return F.linear(y, W[prefix + 'weight'], W[prefix + 'bias'])

    def ln(prefix, y):
        return F.layer_norm(y, (d,), W[prefix + 'weight'], W[prefix + 'bias'], 1e-5)
    atts = []
    for l in range(L):
        b = f'{e}layers.{l}.'
        h = ln(b + 'self_attn_layer_norm.', x)
        q = split_heads(lin(b + 'self_attn.q_proj.', h) * dh ** -0.5, H, dh)   # OPTAttention scales q
        k = split_heads(lin(b + 'self_attn.k_proj.', h), H, dh)
        v = split_heads(lin(b + 'self_attn.v_proj.', h), H, dh)
        pr, o = attend(q * math.sqrt(dh), k, v, True, hm[l])                   # attend divides again
        atts.append(pr[0])
        x = x + lin(b + 'self_attn.out_proj.', merge_heads(o))
        h = ln(b + 'final_layer_norm.', x)
        x = x + lin(b + 'fc2.', F.relu(lin(b + 'fc1.', h)))
    x = ln(e + 'final_layer_norm.', x)
    return torch.stack(atts), x, F.linear(x, emb)


def phi(W, cfg, ids, heads_off):
    d, H, L, eps = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers'], cfg['layer_norm_eps']
    KV = cfg.get('num_key_value_heads') or H
    dh = d // H
    rd = int(cfg['partial_rotary_factor'] * dh)
    T = len(ids)
    emb = W['model.embed_tokens.weight']
    hm = head_masks(L, H, heads_off, emb.dtype)
    cos, sin = rope_tables(T, rd, cfg['rope_theta'], emb.dtype)

    def lin(prefix, y):
        return F.linear(y, W[prefix + 'weight'], W[prefix + 'bias'])
    x = F.embedding(ids, emb)
    atts = []
    for l in range(L):
        b = f'model.layers.{l}.'
        h = F.layer_norm(x, (d,), W[b + 'input_layernorm.weight'], W[b + 'input_layernorm.bias'], eps)
        q = partial_rope(split_heads(lin(b + 'self_attn.q_proj.', h), H, dh), cos, sin, rd)
        k = partial_rope(split_heads(lin(b + 'self_attn.k_proj.', h), KV, dh), cos, sin, rd)
        v = split_heads(lin(b + 'self_attn.v_proj.', h), KV, dh)
        pr, o = attend(q, repeat_kv(k, H // KV), repeat_kv(v, H // KV), True, hm[l])
        atts.append(pr[0])
        a = lin(b + 'self_attn.dense.', merge_heads(o))
        m = lin(b + 'mlp.fc2.', F.gelu(lin(b + 'mlp.fc1.', h), approximate='tanh'))
        x = a + m + x
    x = F.layer_norm(x, (d,), W['model.final_layernorm.weight'], W['model.final_layernorm.bias'], eps)
    return torch.stack(atts), x, lin('lm_head.', x)


def roberta(W, cfg, ids, heads_off):
    d, H, L, eps = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_hidden_layers'], cfg['layer_norm_eps']
    dh = d // H
    e = 'roberta.embeddings.'
    emb = W[e + 'word_embeddings.weight']
    hm = head_masks(L, H, heads_off, emb.dtype)
    pad = cfg['pad_token_id']
    mask = ids.ne(pad).int()
    positions = (torch.cumsum(mask, dim=0) * mask).long() + pad   # create_position_ids_from_input_ids
    x = (F.embedding(ids, emb) + F.embedding(positions, W[e + 'position_embeddings.weight'])
         + F.embedding(torch.zeros_like(ids), W[e + 'token_type_embeddings.weight']))
    x = F.layer_norm(x, (d,), W[e + 'LayerNorm.weight'], W[e + 'LayerNorm.bias'], eps)

    def lin(prefix, y):
        return F.linear(y, W[prefix + 'weight'], W[prefix + 'bias'])
    atts = []
    for l in range(L):
        b = f'roberta.encoder.layer.{l}.'
        q, k, v = (split_heads(lin(b + f'attention.self.{n}.', x), H, dh) for n in ('query', 'key', 'value'))
        pr, o = attend(q, k, v, False, hm[l])
        atts.append(pr[0])
        x = F.layer_norm(lin(b + 'attention.output.dense.', merge_heads(o)) + x, (d,),
                         W[b + 'attention.output.LayerNorm.weight'], W[b + 'attention.output.LayerNorm.bias'], eps)
        f = lin(b + 'output.dense.', F.gelu(lin(b + 'intermediate.dense.', x)))
        x = F.layer_norm(f + x, (d,), W[b + 'output.LayerNorm.weight'], W[b + 'output.LayerNorm.bias'], eps)
    t = F.gelu(lin('lm_head.dense.', x))
    t = F.layer_norm(t, (d,), W['lm_head.layer_norm.weight'], W['lm_head.layer_norm.bias'], eps)
    return torch.stack(atts), x, F.linear(t, emb, W['lm_head.bias'])


def run(folder, W, ids, heads_off):
    cfg = json.load(open(os.path.join(folder, 'config.json')))
    ids = torch.tensor(ids, dtype=torch.long)
    mt = cfg['model_type']
    other = {'gpt_neox': gpt_neox, 'gemma': gemma, 'opt': opt, 'phi': phi, 'roberta': roberta}
    with torch.no_grad():
        if mt == 'gpt2':
            return gpt2(W, cfg, ids, heads_off)
        if mt in ('bert', 'distilbert'):
            return bert_like(W, cfg, ids, heads_off, mt == 'distilbert')
        if mt in other:
            return other[mt](W, cfg, ids, heads_off)
        return llama(W, cfg, ids, heads_off)


def check(models):
    """models: {folder name: list of (name, dtype, float64 ndarray) as generated}. Returns the
    summary lines; raises AssertionError past the tolerances."""
    lines = []
    worst = {}
    for name, items in models.items():
        folder = os.path.join(HERE, name)
        # 1. the stored F16 / BF16 bits are torch's own conversions of the float32 weights
        _, raw = load(folder, torch.float64)
        for tname, dt, a in items:
            if dt in ('F16', 'BF16'):
                mine = raw[tname]
                theirs = torch.from_numpy(np.asarray(a, dtype=np.float32)).to(TORCH_DT[dt])
                assert torch.equal(mine.view(torch.int16), theirs.view(torch.int16)), (name, tname)
        e = json.load(open(os.path.join(folder, 'expected.json'), encoding='utf-8'))
        Wnp, _ = reference.load_checkpoint(folder)
        cfg = json.load(open(os.path.join(folder, 'config.json')))
        for prec, tdt in (('float64', torch.float64), ('float32', torch.float32)):
            W, _ = load(folder, tdt)
            m = {'att': 0.0, 'att_json': 0.0, 'hid': 0.0, 'logit_rel': 0.0, 'logit_rel_json': 0.0}
            for case in e['cases']:
                for off in (None, case['heads_off']):
                    att, hid, logits = run(folder, W, case['ids'], off)
                    ref = reference.FORWARDS[cfg['model_type']](Wnp, cfg, np.asarray(case['ids']), off)
                    ra = np.asarray(ref['attention'])
                    m['att'] = max(m['att'], float(np.abs(att.double().numpy() - ra).max()))
                    rl = ref['logits']
                    scale = float(np.abs(rl).max())
                    m['logit_rel'] = max(m['logit_rel'], float(np.abs(logits.double().numpy() - rl).max()) / scale)
                    key_att = 'attention' if off is None else 'heads_off_attention_last_layer'
                    key_log = 'logits' if off is None else 'heads_off_logits'
                    ja = np.asarray(case[key_att], dtype=np.float64)
                    ta = att.double().numpy() if off is None else att[-1].double().numpy()
                    m['att_json'] = max(m['att_json'], float(np.abs(ta - ja).max()))
                    for lg in case[key_log]:
                        jl = np.asarray(lg['values'], dtype=np.float64)
                        m['logit_rel_json'] = max(m['logit_rel_json'], float(
                            np.abs(logits[lg['position']].double().numpy() - jl).max()) / float(np.abs(jl).max()))
                    if off is None:
                        m['hid'] = max(m['hid'], float(np.abs(hid.double().numpy()
                                                              - np.asarray(case['hidden_last'])).max()))
            worst[(name, prec)] = m
            lines.append(f'{name:18s} torch {prec}: attention {m["att"]:.1e} (vs expected.json '
                         f'{m["att_json"]:.1e}), logits/max|logit| {m["logit_rel"]:.1e} '
                         f'(vs expected.json {m["logit_rel_json"]:.1e}), hidden_last {m["hid"]:.1e}')
            if prec == 'float64':   # the confirmation: same math, independent code
                assert m['att'] < 1e-12 and m['logit_rel'] < 1e-12, (name, m)
                assert m['att_json'] < 1e-6 and m['logit_rel_json'] < 1e-4, (name, m)
            else:                   # float32 weights and arithmetic, for the C++ tolerances
                assert m['att'] < 1e-5 and m['logit_rel'] < 1e-5, (name, m)
    return lines


if __name__ == '__main__':
    import make_tiny_models
    for line in check(make_tiny_models.generated_items()):
        print(line)
