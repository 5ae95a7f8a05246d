#!/usr/bin/env python3
"""Peer benchmark for `attention-bench --translate`: an encoder-decoder in t5-small's shape
decoding word by word in eager PyTorch with a key/value cache, as transformers' T5 generate()
does with past_key_values.

t5-small's shape: 6 + 6 layers, d_model 512, 8 heads of 64, feed-forward 2048 (ReLU), vocab
32128, 32 relative position buckets up to distance 128 (bidirectional in the encoder, causal in
the decoder, added to unscaled scores), RMS norms without bias, logits from the tied embedding
times d_model ** -0.5. Random float32 weights, no autograd, torch's default threads, written from
torch.nn.functional as ../shared/bench/torch_transformer.py is. The source: 32 tokens. Each step
runs the new token's row through the decoder against the cached keys and values of the tokens
before it and the cross keys and values computed once; beams run as one batch and copy their
parents' caches (index_select, transformers' _reorder_cache). Every step's attention weights are
computed (softmax), as the app computes and keeps them for its grids. No end token is chosen, so
every decoding runs its length, as the app's does on its random checkpoint.

Run (Debian 12: apt-get install python3-torch libopenblas0-pthread):
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 tests/bench/torch_translate.py 32 64
prints one line per beams and length:
  torch  translate  beams=4 tokens=   64  median    123.45 ms  (min ..., max ..., n)
"""
import math
import sys
import time

import torch
import torch.nn.functional as F

torch.set_grad_enabled(False)
L, D, H, DK, FF, V, BUCKETS, DISTANCE, SOURCE = 6, 512, 8, 64, 2048, 32128, 32, 128, 32


def rand(*shape):
    return (torch.rand(*shape) * 2 - 1) * 0.02 * math.sqrt(3)


def attention_weights():
    return {m: rand(D, D) for m in 'qkvo'}


ENC = [dict(attn=attention_weights(), ln1=torch.ones(D), wi=rand(FF, D), wo=rand(D, FF), ln2=torch.ones(D))
       for _ in range(L)]
DEC = [dict(attn=attention_weights(), ln1=torch.ones(D), cross=attention_weights(), ln2=torch.ones(D),
            wi=rand(FF, D), wo=rand(D, FF), ln3=torch.ones(D)) for _ in range(L)]
SHARED = rand(V, D)
ENC_BUCKETS, DEC_BUCKETS = rand(BUCKETS, H), rand(BUCKETS, H)
ENC_NORM, DEC_NORM = torch.ones(D), torch.ones(D)


def rms(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w


def bucket(relative, bidirectional):
    """transformers' T5Attention._relative_position_bucket."""
    n_buckets, result = BUCKETS, torch.zeros_like(relative)
    if bidirectional:
        n_buckets //= 2
        result += (relative > 0).long() * n_buckets
        n = relative.abs()
    else:
        n = -torch.clamp(relative, max=0)
    exact = n_buckets // 2
    large = exact + (torch.log(n.float().clamp(min=1) / exact) / math.log(DISTANCE / exact)
                     * (n_buckets - exact)).long()
    large = torch.clamp(large, max=n_buckets - 1)
    return result + torch.where(n < exact, n, large)


def heads(x):  # (B, T, D) -> (B, H, T, DK)
    return x.view(x.shape[0], -1, H, DK).transpose(1, 2)


def attend(q, k, v, bias, w):
    scores = q @ k.transpose(-1, -2)
    if bias is not None:
        scores = scores + bias
    weights = F.softmax(scores, dim=-1)
    out = (weights @ v).transpose(1, 2).reshape(q.shape[0], -1, D)
    return F.linear(out, w['o']), weights


def encode(ids):
    x = F.embedding(ids, SHARED)
    t = ids.shape[1]
    relative = torch.arange(t)[None, :] - torch.arange(t)[:, None]
    bias = F.embedding(bucket(relative, True), ENC_BUCKETS).permute(2, 0, 1)[None]
    for b in ENC:
        y = rms(x, b['ln1'])
        a = b['attn']
        out, _ = attend(heads(F.linear(y, a['q'])), heads(F.linear(y, a['k'])), heads(F.linear(y, a['v'])), bias, a)
        x = x + out
        x = x + F.linear(F.relu(F.linear(rms(x, b['ln2']), b['wi'])), b['wo'])
    return rms(x, ENC_NORM)


def decode(source, length, beams):
    memory = encode(source).expand(beams, -1, -1)
    cross = [(heads(F.linear(memory, b['cross']['k'])), heads(F.linear(memory, b['cross']['v']))) for b in DEC]
    cache = [[None, None] for _ in DEC]
    tokens = torch.zeros(beams, 1, dtype=torch.long)  # the decoder start token, 0
    scores = torch.zeros(beams)
    scores[1:] = -1e9  # one live hypothesis at first, as generate() starts
    for t in range(length):
        x = F.embedding(tokens[:, -1:], SHARED)
        relative = torch.arange(t + 1) - t
        bias = F.embedding(bucket(relative, False), DEC_BUCKETS).t()[None, :, None, :]
        for b, kv, (ck, cv) in zip(DEC, cache, cross):
            y = rms(x, b['ln1'])
            a = b['attn']
            k, v = heads(F.linear(y, a['k'])), heads(F.linear(y, a['v']))
            kv[0] = k if kv[0] is None else torch.cat([kv[0], k], 2)
            kv[1] = v if kv[1] is None else torch.cat([kv[1], v], 2)
            out, _ = attend(heads(F.linear(y, a['q'])), kv[0], kv[1], bias, a)
            x = x + out
            y = rms(x, b['ln2'])
            out, _ = attend(heads(F.linear(y, b['cross']['q'])), ck, cv, None, b['cross'])
            x = x + out
            x = x + F.linear(F.relu(F.linear(rms(x, b['ln3']), b['wi'])), b['wo'])
        logits = F.linear(rms(x, DEC_NORM) * D ** -0.5, SHARED)[:, -1]
        logp = F.log_softmax(logits, -1)
        if beams == 1:
            chosen = logp.argmax(-1, keepdim=True)
            tokens = torch.cat([tokens, chosen], 1)
            continue
        total = (scores[:, None] + logp).view(-1)
        best, index = total.topk(beams)
        parent, word = index // V, index % V
        scores = best
        tokens = torch.cat([tokens[parent], word[:, None]], 1)
        for kv in cache:
            kv[0], kv[1] = kv[0].index_select(0, parent), kv[1].index_select(0, parent)
    return tokens


def main(lengths):
    source = torch.arange(3, 3 + SOURCE)[None]
    source[0, -1] = 1
    for beams in (1, 4):
        for length in lengths:
            decode(source, length, beams)  # warm-up
            samples = []
            for _ in range(3):
                start = time.perf_counter()
                decode(source, length, beams)
                samples.append((time.perf_counter() - start) * 1000)
            samples.sort()
            print(f'torch  translate  beams={beams} tokens={length:5d}  median {samples[1]:9.2f} ms  '
                  f'(min {samples[0]:.2f}, max {samples[-1]:.2f}, n {len(samples)})', flush=True)


if __name__ == '__main__':
    main([int(a) for a in sys.argv[1:]] or [32, 64])
