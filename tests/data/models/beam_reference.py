#!/usr/bin/python3
"""Beam search on the tiny encoder-decoder checkpoints (marian, bart, t5, flan-t5): the expected
hypotheses of tests/core/model/tst_encdec_steps.cpp.

The rules are transformers' generate with num_beams = N, length_penalty = 1.0 and
early_stopping = True (generation/beam_search.py, BeamSearchScorer and BeamHypotheses), and no
logits processors: from the decoder start token, each step scores every running hypothesis'
next token by log_softmax of the last position's logits plus the hypothesis' sum so far; the
best 2N (beam, token) pairs are walked best first; the end token among the first N ends its
hypothesis (score: sum / number of new tokens, the end token counted), any other token runs
on until N run. The first step has one running hypothesis (transformers scores the N - 1 other
copies -1e9). The search stops when N have ended or after max_new_tokens steps; then the running
hypotheses join the ended ones (N best kept) and the best score wins.

The forwards are the float64 NumPy references: reference.forward_bart (Marian, BART) and
make_t5_models.forward (T5, flan-t5). The source is expected_seq2seq.json's. The smallest gap
between two neighbouring scores among the best 2N + 1 of any step is recorded: a float32
forward ranks the same where it is well above float32 rounding.

Run: /usr/bin/python3 tests/data/models/beam_reference.py  (rewrites beam_expected.json)
"""
import json
import math
import os
import sys

import numpy as np

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_t5_models  # noqa: E402
import make_tiny_models as tiny  # noqa: E402
import reference  # noqa: E402

FAMILIES = ['marian', 'bart', 't5', 'flan-t5']
WIDTHS = [2, 3, 4]


def log_softmax(logits):
    m = np.max(logits)
    return logits - m - math.log(np.sum(np.exp(logits - m)))


def beam_search(next_log_probs, n, max_new, eos):
    running = [([], 0.0)]
    ended = []  # (score, ids, sum), at most n, the worst leaving first
    gap = math.inf

    def end(ids, total):
        ended.append((total / len(ids), ids, total))
        if len(ended) > n:
            worst = min(range(len(ended)), key=lambda k: (ended[k][0], k))
            del ended[worst]

    for _ in range(max_new):
        cands = []
        for b, (ids, total) in enumerate(running):
            lp = next_log_probs(ids)
            for v in range(len(lp)):
                cands.append((total + lp[v], b, v))
        cands.sort(key=lambda c: (-c[0], c[1], c[2]))
        top = [c[0] for c in cands[:2 * n + 1]]
        gap = min(gap, min(a - b for a, b in zip(top, top[1:])))
        nxt = []
        for rank, (total, b, v) in enumerate(cands[:2 * n]):
            ids = running[b][0] + [v]
            if v == eos:
                if rank < n:
                    end(ids, total)
            else:
                nxt.append((ids, total))
            if len(nxt) == n:
                break
        running = nxt
        if len(ended) >= n:
            break
    if len(ended) < n:
        for ids, total in running:
            end(ids, total)
    ordered = sorted(ended, key=lambda h: h[0])
    return ordered, gap


def main():
    out = {}
    for name in FAMILIES:
        folder = os.path.join(HERE, name)
        with open(os.path.join(folder, 'config.json')) as f:
            cfg = json.load(f)
        with open(os.path.join(folder, 'expected_seq2seq.json')) as f:
            seq = json.load(f)
        W, _ = reference.load_checkpoint(folder)
        src = np.asarray(seq['source_ids'])
        fwd = make_t5_models.forward if cfg['model_type'] == 't5' else reference.forward_bart

        def next_log_probs(ids):
            tgt = np.asarray([cfg['decoder_start_token_id']] + ids)
            return log_softmax(fwd(W, cfg, src, tgt)['logits'][-1])

        entry = {'source_ids': seq['source_ids'], 'max_new_tokens': seq['max_new_tokens'],
                 'greedy': seq['generated'], 'beams': {}}
        for n in WIDTHS:
            ordered, gap = beam_search(next_log_probs, n, seq['max_new_tokens'],
                                       cfg['eos_token_id'])
            best = ordered[-1]
            entry['beams'][str(n)] = {'ids': best[1], 'log_probability': tiny.rounded(best[2]),
                                      'score': tiny.rounded(best[0]),
                                      'smallest_gap': tiny.rounded(gap)}
            print(name, n, best[1], best[0], 'gap', gap)
        out[name] = entry
    with open(os.path.join(HERE, 'beam_expected.json'), 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()
