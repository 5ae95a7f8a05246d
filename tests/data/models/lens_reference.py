#!/usr/bin/python3
"""Independent float64 NumPy numbers for the logit lens, activation patching and direct logit
attribution on the tiny GPT-2 checkpoint of this folder (gpt2/), written to lens_expected.json.

    /usr/bin/python3 tests/data/models/lens_reference.py

Written from the published definitions, not from the C++ code of this repository:
  * GPT-2 as Hugging Face transformers implements it (pre-norm blocks, gelu_new, ln_f, the
    unembedding tied to wte); Conv1D weights are d_in x d_out and applied as x @ W + b.
  * The logit lens (nostalgebraist 2020): ln_f and the unembedding applied to the residual
    stream after each block.
  * Activation patching (Wang et al. 2022; Meng et al. 2022): a head's output (its slice of the
    concatenated heads before c_proj) or one row of the residual stream after a block is taken
    from the clean run into the corrupted one, and everything above is recomputed; the metric
    is logit(A) - logit(B) at the last position.
  * Direct logit attribution (Elhage et al. 2021): ln_f with its sigma frozen from the run is
    linear, so the logit is a sum of one term per part of the residual stream.
Only the safetensors reader of reference.py is reused (it reads the bytes as stored).
"""
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from reference import read_safetensors  # noqa: E402

CLEAN = [277, 297, 322, 290, 259]    # "The cat sat on the" (token_ids.json)
CORRUPT = [277, 298, 322, 290, 259]  # "The dog sat on the": 'Ġcat' -> 'Ġdog'
TOKEN_A, TOKEN_B = 297, 298          # the metric: logit('Ġcat') - logit('Ġdog')


def load():
    raw = read_safetensors(os.path.join(HERE, 'gpt2', 'model.safetensors'))
    return {name: a for name, (_dt, _shape, a) in raw.items()}


def layer_norm(x, g, b, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * g + b


def gelu_new(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


class Gpt2:
    def __init__(self, w, heads=4):
        self.w = w
        self.heads = heads
        self.layers = sum(1 for k in w if k.endswith('.ln_1.weight'))

    def p(self, layer, name):
        return self.w[f'transformer.h.{layer}.{name}']

    def embed(self, ids):
        return self.w['transformer.wte.weight'][ids] + self.w['transformer.wpe.weight'][:len(ids)]

    def head_outputs(self, layer, x):
        """The heads' outputs side by side (T x d), before c_proj."""
        t, d = x.shape
        dh = d // self.heads
        a = layer_norm(x, self.p(layer, 'ln_1.weight'), self.p(layer, 'ln_1.bias'))
        qkv = a @ self.p(layer, 'attn.c_attn.weight') + self.p(layer, 'attn.c_attn.bias')
        q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
        out = np.zeros((t, d))
        for h in range(self.heads):
            s = slice(h * dh, (h + 1) * dh)
            scores = q[:, s] @ k[:, s].T / math.sqrt(dh)
            scores = np.where(np.tril(np.ones((t, t))) > 0, scores, -np.inf)
            e = np.exp(scores - scores.max(-1, keepdims=True))
            out[:, s] = (e / e.sum(-1, keepdims=True)) @ v[:, s]
        return out

    def finish(self, layer, x, concat):
        attention = concat @ self.p(layer, 'attn.c_proj.weight') + self.p(layer, 'attn.c_proj.bias')
        h = x + attention
        m = layer_norm(h, self.p(layer, 'ln_2.weight'), self.p(layer, 'ln_2.bias'))
        f = gelu_new(m @ self.p(layer, 'mlp.c_fc.weight') + self.p(layer, 'mlp.c_fc.bias'))
        return h + f @ self.p(layer, 'mlp.c_proj.weight') + self.p(layer, 'mlp.c_proj.bias')

    def run(self, ids, head_patch=None, residual_patch=None, clean=None):
        """Hidden states (embedding first, then after each block) and each block's concat.
        head_patch = (layer, head), residual_patch = (layer, position): from `clean`."""
        x = self.embed(ids)
        hidden, concats = [x], []
        d = x.shape[1]
        dh = d // self.heads
        for layer in range(self.layers):
            concat = self.head_outputs(layer, x)
            if head_patch and head_patch[0] == layer:
                s = slice(head_patch[1] * dh, (head_patch[1] + 1) * dh)
                concat[:, s] = clean['concats'][layer][:, s]
            x = self.finish(layer, x, concat)
            if residual_patch and residual_patch[0] == layer:
                x = x.copy()
                x[residual_patch[1]] = clean['hidden'][layer + 1][residual_patch[1]]
            hidden.append(x)
            concats.append(concat)
        return {'hidden': hidden, 'concats': concats}

    def logits(self, x):
        f = layer_norm(x, self.w['transformer.ln_f.weight'], self.w['transformer.ln_f.bias'])
        return f @ self.w['transformer.wte.weight'].T


def rank(row, token):
    """1 + the tokens before `token`: higher logits first, equal ones by the lower id."""
    return int(1 + np.sum((row > row[token]) | ((row == row[token]) & (np.arange(len(row)) < token))))


def softmax(row):
    e = np.exp(row - row.max())
    return e / e.sum()


def main():
    model = Gpt2(load())
    clean = model.run(CLEAN)
    final = model.logits(clean['hidden'][-1])
    own = [int(np.argmax(final[i])) for i in range(len(CLEAN))]
    lens = []
    for layer in range(model.layers):
        rows = model.logits(clean['hidden'][layer + 1])
        lens.append({
            'top': [int(np.argmax(r)) for r in rows],
            'rank': [rank(r, own[i]) for i, r in enumerate(rows)],
            'probability': [float(softmax(r)[own[i]]) for i, r in enumerate(rows)],
        })

    def metric(run):
        row = model.logits(run['hidden'][-1])[-1]
        return float(row[TOKEN_A] - row[TOKEN_B])

    corrupt = model.run(CORRUPT)
    heads = [[metric(model.run(CORRUPT, head_patch=(l, h), clean=clean))
              for h in range(model.heads)] for l in range(model.layers)]
    positions = [[metric(model.run(CORRUPT, residual_patch=(l, p), clean=clean))
                  for p in range(len(CORRUPT))] for l in range(model.layers)]

    # Attribution of the clean run's top token at the last position.
    p, token = len(CLEAN) - 1, own[-1]
    x = clean['hidden'][-1][p]
    sigma = math.sqrt(((x - x.mean()) ** 2).mean() + 1e-5)
    u = model.w['transformer.wte.weight'][token]
    g = model.w['transformer.ln_f.weight']

    def project(c):
        return float(((c - c.mean()) / sigma * g) @ u)

    dh = x.shape[0] // model.heads
    attribution_heads = []
    attention_bias, feed_forward = [], []
    for layer in range(model.layers):
        wo = model.p(layer, 'attn.c_proj.weight')
        concat = clean['concats'][layer][p]
        attribution_heads.append([project(concat[h * dh:(h + 1) * dh] @ wo[h * dh:(h + 1) * dh])
                                  for h in range(model.heads)])
        attention_bias.append(project(model.p(layer, 'attn.c_proj.bias')))
        attention = concat @ wo + model.p(layer, 'attn.c_proj.bias')
        feed_forward.append(project(clean['hidden'][layer + 1][p] - clean['hidden'][layer][p]
                                    - attention))
    out = {
        'how': 'python3 tests/data/models/lens_reference.py (float64 NumPy, gpt2/)',
        'clean': CLEAN,
        'corrupt': CORRUPT,
        'lens': {'own': own, 'layers': lens},
        'patching': {
            'token_a': TOKEN_A, 'token_b': TOKEN_B,
            'clean': metric(clean), 'corrupt': metric(corrupt),
            'heads': heads, 'positions': positions,
        },
        'attribution': {
            'position': p, 'token': token, 'scale': sigma,
            'heads': attribution_heads, 'attention_bias': attention_bias,
            'feed_forward': feed_forward,
            'embedding': project(clean['hidden'][0][p]),
            'bias': float(model.w['transformer.ln_f.bias'] @ u),
            'logit': float(final[p][token]),
        },
    }
    with open(os.path.join(HERE, 'lens_expected.json'), 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()
