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
    """The tutorial's EncoderRNN; with cell "lstm" an nn.LSTM named lstm, with num_layers and
    bidirectional as nn.GRU takes them. A bidirectional encoder's outputs are [forward; backward]
    (2H wide) and the decoder starts, layer by layer, from tanh(bridge(backward state)), the
    backward direction's state after reading the whole source back to its first word (Bahdanau
    et al. 2015, appendix A.2.2, W_s), an LSTM's cell from zero."""

    def __init__(self, input_size, hidden_size, cell="gru", num_layers=1, bidirectional=False):
        super().__init__()
        self.cell, self.bidirectional = cell, bidirectional
        self.embedding = nn.Embedding(input_size, hidden_size)
        rnn = nn.GRU if cell == "gru" else nn.LSTM
        setattr(self, cell, rnn(hidden_size, hidden_size, num_layers=num_layers,
                                bidirectional=bidirectional, batch_first=True))
        if bidirectional:
            self.bridge = nn.Linear(hidden_size, hidden_size)

    def forward(self, x):
        output, hidden = getattr(self, self.cell)(self.embedding(x))
        if self.bidirectional:
            h = hidden[0] if self.cell == "lstm" else hidden
            s0 = torch.tanh(self.bridge(h[1::2]))  # (layers, 1, H): each layer's backward state
            hidden = (s0, torch.zeros_like(s0)) if self.cell == "lstm" else s0
        return output, hidden


class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size, key_size=None):
        super().__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size)
        self.Ua = nn.Linear(key_size or hidden_size, hidden_size)
        self.Va = nn.Linear(hidden_size, 1)

    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        return torch.bmm(weights, keys), weights


class HardAttention(BahdanauAttention):
    """Bahdanau's scores; the context is the key of the highest score, the gradient the
    softmax's (straight-through: Bengio, Leonard & Courville 2013)."""

    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys))).squeeze(2).unsqueeze(1)
        soft = F.softmax(scores, dim=-1)
        hard = F.one_hot(soft.argmax(dim=-1), soft.shape[-1]).float()
        weights = hard + soft - soft.detach()
        return torch.bmm(weights, keys), weights


class LuongAttention(nn.Module):
    """Luong, Pham & Manning 2015, eq. (8): dot h^T h_j, general h^T Wa h_j, concat
    Va^T tanh(Wa [h; h_j]); no biases."""

    def __init__(self, score, hidden_size, key_size):
        super().__init__()
        self.score = score
        if score == "general":
            self.Wa = nn.Linear(key_size, hidden_size, bias=False)
        elif score == "concat":
            self.Wa = nn.Linear(hidden_size + key_size, hidden_size, bias=False)
            self.Va = nn.Linear(hidden_size, 1, bias=False)

    def forward(self, query, keys):
        if self.score == "dot":
            scores = torch.bmm(query, keys.transpose(1, 2))
        elif self.score == "general":
            scores = torch.bmm(query, self.Wa(keys).transpose(1, 2))
        else:
            pairs = torch.cat((query.expand(-1, keys.shape[1], -1), keys), dim=2)
            scores = self.Va(torch.tanh(self.Wa(pairs))).squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        return torch.bmm(weights, keys), weights


class AttnDecoderRNN(nn.Module):
    """The tutorial's AttnDecoderRNN (attention "bahdanau"; "hard" the same with HardAttention),
    and Luong's global attention ("dot", "general", "concat"): the RNN fed the embedding, the
    scores taken with its new top state h, the next word from h~ = tanh(Wc [c; h]) (eq. 5)."""

    def __init__(self, hidden_size, output_size, attention="bahdanau", cell="gru", num_layers=1,
                 key_size=None):
        super().__init__()
        key_size = key_size or hidden_size
        self.kind, self.cell = attention, cell
        self.embedding = nn.Embedding(output_size, hidden_size)
        if attention in ("bahdanau", "hard"):
            self.attention = (BahdanauAttention if attention == "bahdanau" else HardAttention)(
                hidden_size, key_size)
            rnn_input = hidden_size + key_size
        else:
            self.attention = LuongAttention(attention, hidden_size, key_size)
            rnn_input = hidden_size
        setattr(self, cell, (nn.GRU if cell == "gru" else nn.LSTM)(
            rnn_input, hidden_size, num_layers=num_layers, batch_first=True))
        if attention not in ("bahdanau", "hard"):
            self.Wc = nn.Linear(key_size + hidden_size, hidden_size, bias=False)
        self.out = nn.Linear(hidden_size, output_size)

    def step(self, token, hidden, keys):
        embedded = self.embedding(token)
        rnn = getattr(self, self.cell)
        if self.kind in ("bahdanau", "hard"):
            top = (hidden[0] if self.cell == "lstm" else hidden)[-1:]
            context, weights = self.attention(top.permute(1, 0, 2), keys)
            output, hidden = rnn(torch.cat((embedded, context), dim=2), hidden)
            return self.out(output), hidden, weights
        output, hidden = rnn(embedded, hidden)
        context, weights = self.attention(output, keys)
        attentional = torch.tanh(self.Wc(torch.cat((context, output), dim=2)))
        return self.out(attentional), hidden, weights


class DecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, cell="gru", num_layers=1):
        super().__init__()
        self.cell = cell
        self.embedding = nn.Embedding(output_size, hidden_size)
        setattr(self, cell, (nn.GRU if cell == "gru" else nn.LSTM)(
            hidden_size, hidden_size, num_layers=num_layers, batch_first=True))
        self.out = nn.Linear(hidden_size, output_size)

    def step(self, token, hidden, keys):
        output, hidden = getattr(self, self.cell)(F.relu(self.embedding(token)), hidden)
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


def build(attention, seed, cell, num_layers, bidirectional):
    # Weights of standard deviation 1, larger than PyTorch's initialisation, so that the greedy
    # choices vary from step to step and the attention is far from uniform.
    torch.manual_seed(seed)
    encoder = EncoderRNN(len(SOURCE_WORDS), H, cell, num_layers, bidirectional)
    if attention == "none":
        decoder = DecoderRNN(H, len(TARGET_WORDS), cell, num_layers)
    else:
        decoder = AttnDecoderRNN(H, len(TARGET_WORDS), attention, cell, num_layers,
                                 2 * H if bidirectional else H)
    with torch.no_grad():
        for p in list(encoder.parameters()) + list(decoder.parameters()):
            p.normal_(0.0, 1.0)
    return encoder, decoder


def make(folder, attention, seed, cell="gru", num_layers=1, bidirectional=False):
    encoder, decoder = build(attention, seed, cell, num_layers, bidirectional)
    os.makedirs(folder, exist_ok=True)
    state = {"encoder." + k: v for k, v in encoder.state_dict().items()}
    state.update({"decoder." + k: v for k, v in decoder.state_dict().items()})
    write_safetensors(os.path.join(folder, "model.safetensors"), state)
    config = {"model_type": "seq2seq-rnn", "cell": cell, "attention": attention,
              "hidden_size": H, "max_length": MAX_LENGTH}
    if num_layers != 1 or bidirectional:
        config.update({"num_layers": num_layers, "bidirectional": bidirectional})
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
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
    # The variants of docs/SEQ2SEQ_FORMAT.md, one or two features each (seeds not chosen).
    make(os.path.join(HERE, "lstm-bahdanau"), "bahdanau", 1, cell="lstm")
    make(os.path.join(HERE, "gru-2-layers-bahdanau"), "bahdanau", 2, num_layers=2)
    make(os.path.join(HERE, "bidirectional-gru-bahdanau"), "bahdanau", 3, bidirectional=True)
    make(os.path.join(HERE, "luong-dot"), "dot", 4)
    make(os.path.join(HERE, "luong-general-bidirectional-lstm-2-layers"), "general", 5,
         cell="lstm", num_layers=2, bidirectional=True)
    make(os.path.join(HERE, "luong-concat-lstm"), "concat", 6, cell="lstm")
    make(os.path.join(HERE, "hard"), "hard", 7)
    make(os.path.join(HERE, "no-attention-bidirectional-lstm"), "none", 8, cell="lstm",
         bidirectional=True)
