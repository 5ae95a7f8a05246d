#!/usr/bin/python3
"""Greedy generation on every causal tiny checkpoint with PyTorch: the expected ids of the C++
generation tests (tests/core/model/tst_generation.cpp, tests/gpu/tst_vulkan_generation.cpp).

Run with Debian's python3-torch (1.13), no transformers needed:
    /usr/bin/python3 tests/data/models/generation_reference.py
It rewrites generation_expected.json beside it.

The forwards are torch_check.py's (modules following transformers' modeling code), run in
float64 on the checkpoint's weights. Each step runs the whole sequence again and appends the
argmax of the last position's logits (the lowest id among equals, as torch.argmax), as
transformers' greedy search does without a cache; it stops after an end-of-text token
(generation_config.json's eos_token_id) or after 20 new tokens. The prompt is "The cat sat on
the" as the tokenizers library tokenizes it (token_ids.json); gpt2-noprefix-f16 has the
gpt2 folder's vocabulary, so its pieces are looked up in its own tokenizer.json. The smallest
gap between the best and the second logit is recorded: a float32 forward picks the same token
where that gap is well above float32 rounding.
"""
import json
import os
import re
import sys

import torch

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import torch_check  # noqa: E402

PROMPT = 'The cat sat on the'
NEW_TOKENS = 20
CAUSAL = ['gpt2', 'gpt2-noprefix-f16', 'llama', 'mistral', 'qwen2', 'smollm', 'pythia', 'gemma', 'opt',
          'phi']


def prompt_ids(name, cases):
    folder = 'gpt2' if name == 'gpt2-noprefix-f16' else name
    case = next(c for c in cases[folder]['cases'] if c['text'] == PROMPT)
    if folder == name:
        return case['ids']
    vocab = json.load(open(os.path.join(HERE, name, 'tokenizer.json'), encoding='utf-8'))['model']['vocab']
    return [vocab[piece] for piece in case['tokens']]


def end_ids(folder):
    for fn in ('generation_config.json', 'config.json'):
        path = os.path.join(folder, fn)
        if os.path.exists(path):
            e = json.load(open(path)).get('eos_token_id')
            if e is not None:
                return e if isinstance(e, list) else [e]
    return []


def main():
    cases = json.load(open(os.path.join(HERE, 'token_ids.json'), encoding='utf-8'))['folders']
    out = {'prompt': PROMPT, 'new_tokens': NEW_TOKENS, 'how': 'generation_reference.py (torch '
           + torch.__version__ + ', float64, greedy, stops after eos_token_id)', 'models': {}}
    for name in CAUSAL:
        folder = os.path.join(HERE, name)
        cfg = json.load(open(os.path.join(folder, 'config.json')))
        W, _ = torch_check.load(folder, torch.float64)
        ids = prompt_ids(name, cases)
        ends = end_ids(folder)
        generated, gap = [], float('inf')
        for _ in range(NEW_TOKENS):
            _, _, logits = torch_check.run(folder, W, ids + generated, None)
            last = logits[-1]
            top2 = torch.topk(last, 2).values
            gap = min(gap, float(top2[0] - top2[1]))
            generated.append(int(torch.argmax(last)))
            if generated[-1] in ends:
                break
        assert len(ids) + len(generated) <= cfg.get('n_positions', cfg.get('max_position_embeddings'))
        out['models'][name] = {'prompt_ids': ids, 'generated': generated, 'eos_token_id': ends,
                               'smallest_top2_gap': round(gap, 6)}
        print(f'{name:18s} prompt {ids} -> {generated} (smallest top-2 gap {gap:.2e})')
    with open(os.path.join(HERE, 'generation_expected.json'), 'w', encoding='utf-8') as f:
        # One line per list of ids, so that a change reads as one line of a diff.
        text = json.dumps(out, indent=1)
        f.write(re.sub(r'\[[^\[\]{}]*\]', lambda m: json.dumps(json.loads(m.group(0))), text) + '\n')


if __name__ == '__main__':
    main()
