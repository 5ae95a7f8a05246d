#!/usr/bin/env python3
"""Makes the tiny tutorial-layout checkpoints under tests/data/seq2seq and their expected decodings.

The classes are those of PyTorch's tutorial "NLP From Scratch: Translation with a Sequence to
Sequence Network and Attention" (EncoderRNN, BahdanauAttention, AttnDecoderRNN, DecoderRNN), with
dropout off (eval), at a tiny size with random weights. Greedy decoding as the tutorial's
evaluate(): argmax each step, the argmax fed back, stopping at EOS or max_length. The tests read
the committed files; nothing runs this script but a person refreshing them:

  apt-get install python3-torch        # Debian 12: torch 1.13
  /usr/bin/python3 tests/data/seq2seq/make_reference.py
"""
import json
import os
import struct

import torch
import torch.nn.functional as F
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
SOS, EOS = 0, 1
H = 5
MAX_LENGTH = 6
SOURCE_WORDS = ["SOS", "EOS", "le", "chat", "noir", "a", "mange", "la", "souris", ".", "!"]
TARGET_WORDS = ["SOS", "EOS", "the", "black", "cat", "ate", "mouse", "."]
SENTENCES = ["Le chat noir a mangé la souris.", "la souris", "le chat a mange le chat noir !"]


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)

    def forward(self, x):
        return self.gru(self.embedding(x))


class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size)
        self.Ua = nn.Linear(hidden_size, hidden_size)
        self.Va = nn.Linear(hidden_size, 1)

    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        return torch.bmm(weights, keys), weights


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size):
        super().__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.attention = BahdanauAttention(hidden_size)
        self.gru = nn.GRU(2 * hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)

    def step(self, token, hidden, keys):
        embedded = self.embedding(token)
        context, weights = self.attention(hidden.permute(1, 0, 2), keys)
        output, hidden = self.gru(torch.cat((embedded, context), dim=2), hidden)
        return self.out(output), hidden, weights


class DecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size):
        super().__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)

    def step(self, token, hidden, keys):
        output, hidden = self.gru(F.relu(self.embedding(token)), hidden)
        return self.out(output), hidden, None


def normalize(s):
    import re
    import unicodedata
    s = "".join(c for c in unicodedata.normalize("NFD", s.lower().strip())
                if unicodedata.category(c) != "Mn")
    s = re.sub(r"([.!?])", r" \1", s)
    s = re.sub(r"[^a-zA-Z.!?]+", r" ", s)
    return s.strip()


def beam_search(encoder, decoder, ids, width):
    """Beam search as docs/SEQ2SEQ_FORMAT.md states it: the `width` likeliest extensions of all
    live hypotheses go on (summed log-probabilities; ties to the lower id), those ending in EOS
    are set aside; the search stops when `width` have ended or at MAX_LENGTH; the answer is the
    hypothesis, ended or cut off, of the highest mean log-probability per token."""
    keys, hidden = encoder(torch.tensor([ids]))
    live, finished = [([], 0.0, hidden)], []
    for _ in range(MAX_LENGTH):
        if not live:
            break
        extensions = []
        for tokens, score, state in live:
            token = torch.tensor([[tokens[-1] if tokens else SOS]])
            logits, new_state, _ = decoder.step(token, state, keys)
            log_probs = F.log_softmax(logits, dim=-1)[0, 0].tolist()
            best = sorted(range(len(log_probs)), key=lambda v: (-log_probs[v], v))[:width]
            extensions += [(tokens + [v], score + log_probs[v], new_state) for v in best]
        extensions.sort(key=lambda e: -e[1])  # stable: earlier hypotheses first on ties
        live = []
        for e in extensions[:width]:
            (finished if e[0][-1] == EOS else live).append(e)
        if len(finished) >= width:
            break
    candidates = finished + live
    best = max(candidates, key=lambda e: e[1] / len(e[0]))  # the first of equal ones
    return best[0], best[1]


def write_safetensors(path, tensors):
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        data = tensors[name].detach().contiguous().float().numpy().tobytes()
        header[name] = {"dtype": "F32", "shape": list(tensors[name].shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def build(attention, seed):
    # Weights of standard deviation 1, larger than PyTorch's initialisation, so that the greedy
    # choices vary from step to step and the attention is far from uniform.
    torch.manual_seed(seed)
    encoder = EncoderRNN(len(SOURCE_WORDS), H)
    decoder = (AttnDecoderRNN if attention == "bahdanau" else DecoderRNN)(H, len(TARGET_WORDS))
    with torch.no_grad():
        for p in list(encoder.parameters()) + list(decoder.parameters()):
            p.normal_(0.0, 1.0)
    return encoder, decoder


def make(folder, attention, seed):
    encoder, decoder = build(attention, seed)
    os.makedirs(folder, exist_ok=True)
    state = {"encoder." + k: v for k, v in encoder.state_dict().items()}
    state.update({"decoder." + k: v for k, v in decoder.state_dict().items()})
    write_safetensors(os.path.join(folder, "model.safetensors"), state)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump({"model_type": "seq2seq-rnn", "cell": "gru", "attention": attention,
                   "hidden_size": H, "max_length": MAX_LENGTH}, f, indent=2)
    for name, words in (("source_vocab.json", SOURCE_WORDS), ("target_vocab.json", TARGET_WORDS)):
        with open(os.path.join(folder, name), "w") as f:
            json.dump({w: i for i, w in enumerate(words)}, f, indent=2)

    cases = []
    with torch.no_grad():
        for sentence in SENTENCES:
            ids = [SOURCE_WORDS.index(w) for w in normalize(sentence).split(" ")] + [EOS]
            keys, hidden = encoder(torch.tensor([ids]))
            token = torch.tensor([[SOS]])
            steps, output = [], []
            for _ in range(MAX_LENGTH):
                logits, hidden, weights = decoder.step(token, hidden, keys)
                log_probs = F.log_softmax(logits, dim=-1)[0, 0]
                chosen = int(log_probs.argmax())
                step = {"log_probs": [float(x) for x in log_probs], "output_id": chosen}
                if weights is not None:
                    step["attention"] = [float(x) for x in weights[0, 0]]
                steps.append(step)
                output.append(chosen)
                if chosen == EOS:
                    break
                token = torch.tensor([[chosen]])
            beam_ids, beam_log_probability = beam_search(encoder, decoder, ids, 3)
            cases.append({"text": sentence, "source_ids": ids, "output_ids": output,
                          "beam3_output_ids": beam_ids,
                          "beam3_log_probability": beam_log_probability,
                          "encoder_last": [float(x) for x in keys[0, -1]], "steps": steps})
    # The gradient of the summed NLL of one pair under teacher forcing (the tutorial's train_epoch
    # with reduction "sum"), every parameter's in its own shape.
    source = [SOURCE_WORDS.index(w) for w in normalize(SENTENCES[0]).split(" ")] + [EOS]
    target = [TARGET_WORDS.index(w) for w in ["the", "black", "cat", "ate", "the", "mouse", "."]] + [EOS]
    keys, hidden = encoder(torch.tensor([source]))
    loss = torch.zeros(())
    for i, word in enumerate(target):
        token = torch.tensor([[target[i - 1] if i else SOS]])
        logits, hidden, _ = decoder.step(token, hidden, keys)
        loss = loss - F.log_softmax(logits, dim=-1)[0, 0, word]
    loss.backward()
    gradients = {"encoder." + n: p.grad.tolist() for n, p in encoder.named_parameters()}
    gradients.update({"decoder." + n: p.grad.tolist() for n, p in decoder.named_parameters()})
    with open(os.path.join(folder, "expected.json"), "w") as f:
        json.dump({"made_by": "make_reference.py with torch " + torch.__version__, "cases": cases,
                   "training_pair": {"source_ids": source, "target_ids": target,
                                     "loss": float(loss), "gradients": gradients}},
                  f, indent=1)


if __name__ == "__main__":
    # Seeds chosen by trying 0, 1, 2, ...: the first whose decodings vary from step to step
    # (and, with attention, stop at EOS before max_length in some sentences).
    make(os.path.join(HERE, "tutorial-bahdanau"), "bahdanau", 12)
    make(os.path.join(HERE, "tutorial-no-attention"), "none", 4)
