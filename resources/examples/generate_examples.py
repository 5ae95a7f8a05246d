#!/usr/bin/env python3
"""Writes the built-in example scenes (resources/examples/NN-name.json).

Run by hand after changing an example, never by the build:

    python3 resources/examples/generate_examples.py

Standard library only. Before writing, every hand-designed property (who attends to whom,
which cells a mask empties) is checked with the small reference implementation below, so a
broken design fails here rather than in a lecture. Examples with hashed embeddings cannot be
checked here (the hash lives in core/); tests/core/scene/tst_examples.cpp checks all of them on
the CPU backend.

Each example's "claims" list every number its title and description quote, with the value
worked out independently of core (by hand, or by a separate NumPy reimplementation of core's
hash and generator for the hashed and Xavier examples): tests/core/analysis/tst_example_claims.cpp
recomputes each on the CPU backend and checks that no number in the text goes unclaimed.
The app ignores the key.

Row convention as in the scene format: Q = X W_q, so with one-hot inputs (X = I) row v of
W_q is the query of vocabulary word v.
"""

import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- JSON writing ------------------------------------------------------------------------
# json.dumps(indent=...) puts every number of a matrix on its own line; a matrix reads
# better with one row per line.


def number(x):
    if isinstance(x, bool):
        raise TypeError("a boolean where a number was expected")
    if isinstance(x, int) or float(x).is_integer():
        return str(int(x))
    return repr(float(x))


def string(s):
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)  # UTF-8 as written: 猫, é
    out.append('"')
    return "".join(out)


def is_vector(value):
    return isinstance(value, list) and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) for x in value)


def is_matrix(value):
    return isinstance(value, list) and value and all(is_vector(row) for row in value)


def inline(value):
    """One line, however long: a claim reads best whole."""
    if isinstance(value, dict):
        return "{" + ", ".join(string(k) + ": " + inline(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(inline(x) for x in value) + "]"
    return dump(value)


def dump(value, indent=0):
    pad = "  " * indent
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return string(value)
    if isinstance(value, (int, float)):
        return number(value)
    if is_vector(value):
        return "[" + ", ".join(number(x) for x in value) + "]"
    if is_matrix(value):
        rows = [pad + "  " + dump(row) for row in value]
        return "[\n" + ",\n".join(rows) + "\n" + pad + "]"
    if isinstance(value, list):
        if all(isinstance(x, list) for x in value) and all(len(x) == 0 for x in value):
            return "[" + ", ".join("[]" for _ in value) + "]"
        items = [pad + "  " + dump(x, indent + 1) for x in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        # Small settings objects on one line, as docs/SCENE_FORMAT.md writes them.
        if all(not isinstance(v, (dict, list)) or v == [] for v in value.values()):
            line = "{" + ", ".join(string(k) + ": " + dump(v) for k, v in value.items()) + "}"
            if len(pad) + len(line) <= 96:
                return line
        items = [pad + "  " + string(k) + ": " +
                 (dump_claims(v, indent + 1) if k == "claims" else dump(v, indent + 1))
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    raise TypeError(type(value))


def dump_claims(claims, indent):
    pad = "  " * indent
    return "[\n" + ",\n".join(pad + "  " + inline(c) for c in claims) + "\n" + pad + "]"


def write(name, scene):
    scene.pop("claims", None)  # a scene copied with json_of brings its source's claims
    if CLAIMS.get(name):
        scene["claims"] = CLAIMS[name]
    path = os.path.join(HERE, name)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(dump(scene) + "\n")
    print("wrote", name)


# ---- Claims: every number a title or description quotes ----------------------------------
# "quoted" is the text as written; its first entry must round to "value" (or, with
# "formula", be an expression for it), any further entries to the claim's other numbers.
# "exact" claims are numbers that name rather than measure (head 1, 1/sqrt(d_k)). The values
# of 10, 11 and 14 come from a NumPy reimplementation of core's hash (FNV-1a and splitmix64),
# Box-Muller normals and Xavier draws, run outside this script; those of 17 from the table
# with NumPy; the rest by hand.


def claim(what, value=None, quoted=None, tolerance=0, **fields):
    out = {"what": what}
    out.update(fields)
    if value is not None:
        out["value"] = value
        out["tolerance"] = tolerance
    if quoted is not None:
        out["quoted"] = quoted
    return out


def exact(text, why):
    return {"what": "exact", "quoted": [text], "why": why}


# ---- Example 27: a learned kernel (seed 004), worked out here in plain Python ------------
# The chirp sin(x²) at 40 points of [0, 3] with the fixed noise 0.25 sin(1.7 i²); each point
# predicted from the others (leave one out). Fixed kernel: softmax of −(x_i − x_j)² / 2h²,
# h the best of 401 log-spaced widths in [0.02, 2]. Learned: softmax of −(φ_q(x_i) −
# φ_k(x_j))² / 2 with φ(x) = w · (x, x²), Adam (lr 0.1) for 300 steps from w_q = w_k = (1, 0).


def chirp_data():
    xs = [3.0 * i / 39 for i in range(40)]
    return xs, [math.sin(x * x) + 0.25 * math.sin(1.7 * i * i) for i, x in enumerate(xs)]


def leave_one_out(xs, ys, wq, wk, gradient=False):
    n = len(xs)
    q = [wq[0] * x + wq[1] * x * x for x in xs]
    k = [wk[0] * x + wk[1] * x * x for x in xs]
    loss, g = 0.0, [0.0] * 4
    for i in range(n):
        s = [-0.5 * (q[i] - k[j]) ** 2 for j in range(n)]
        top = max(s[j] for j in range(n) if j != i)
        e = [0.0 if j == i else math.exp(s[j] - top) for j in range(n)]
        z = sum(e)
        w = [v / z for v in e]
        f = sum(w[j] * ys[j] for j in range(n))
        r = f - ys[i]
        loss += r * r / n
        if gradient:
            for j in range(n):
                ds = 2.0 / n * r * w[j] * (ys[j] - f)
                d = q[i] - k[j]
                g[0] -= ds * d * xs[i]
                g[1] -= ds * d * xs[i] ** 2
                g[2] += ds * d * xs[j]
                g[3] += ds * d * xs[j] ** 2
    return loss, g


def learned_kernel_numbers():
    xs, ys = chirp_data()
    best_h, best_loss = None, float("inf")
    for t in range(401):
        h = 0.02 * (2.0 / 0.02) ** (t / 400)
        loss, _ = leave_one_out(xs, ys, (1 / h, 0), (1 / h, 0))
        if loss < best_loss:
            best_h, best_loss = h, loss
    theta, m, v = [1.0, 0.0, 1.0, 0.0], [0.0] * 4, [0.0] * 4
    for t in range(1, 301):
        _, g = leave_one_out(xs, ys, theta[:2], theta[2:], True)
        for a in range(4):
            m[a] = 0.9 * m[a] + 0.1 * g[a]
            v[a] = 0.999 * v[a] + 0.001 * g[a] ** 2
            theta[a] -= 0.1 * (m[a] / (1 - 0.9 ** t)) / (math.sqrt(v[a] / (1 - 0.999 ** t)) + 1e-8)
    learned, _ = leave_one_out(xs, ys, theta[:2], theta[2:])
    start, _ = leave_one_out(xs, ys, (1, 0), (1, 0))
    width = [1 / abs(theta[2] + 2 * theta[3] * x) for x in (0.0, 3.0)]
    return {"best_h": best_h, "best_loss": best_loss, "learned": learned, "start": start,
            "theta": theta, "width_0": width[0], "width_3": width[1]}



def learned_kernel_claims():
    k = learned_kernel_numbers()
    return [
        exact("Seed 004", "the seed note's number"),
        claim("learned_kernel_points", 40, ["40"]),
        claim("learned_kernel_x", 0, ["between 0"], which="first"),
        claim("learned_kernel_x", 3, ["and 3"], which="last"),
        claim("learned_kernel_best_bandwidth", k["best_h"], ["h = 0.083"], 1e-6),
        claim("learned_kernel_fixed_loss", k["best_loss"], ["0.0561"], 1e-6),
        claim("learned_kernel_steps", 300, ["300"]),
        claim("learned_kernel_start_bandwidth", 1, ["h = 1"]),
        claim("learned_kernel_loss", k["learned"], ["0.0531"], 1e-6),
        claim("learned_kernel_width", k["width_0"], ["0.41", "x = 0"], 1e-6, at=0),
        claim("learned_kernel_width", k["width_3"], ["0.069", "x = 3"], 1e-6, at=3),
    ]


HEAD_NUMBERS = [exact("Head 1", "heads are numbered from 1"),
                exact("head 2", "heads are numbered from 1")]
E = math.e
LEARNED_KERNEL_CLAIMS = learned_kernel_claims()
CLAIMS = {
    "01-this-is-a-cat.json": [claim("tokens", 4, ["four"])],
    "02-student-scholarship.json": HEAD_NUMBERS,
    "07-local-window.json": [claim("window", 2, ["2"])],
    "08-onehot-embeddings.json": [
        exact("seed 001", "the seed note's number"),
        claim("onehot_dimension", 3, ["[0 0 1 0]"], word="This", formula=True),
        exact("[0 2 0 0]", "the seed's vector as it prints it"),
        claim("onehot_dimension", 2, ["[0 1 0 0]"], word="a", formula=True),
        claim("raw_score", 0, ["0"], head=1, query="This", key="is"),
        claim("weight", E / (E + 3), ["e/(e+3)"], 1e-6, head=1, query="This", key="This",
              formula=True),
        claim("weight", 1 / (E + 3), ["1/(e+3)"], 1e-6, head=1, query="This", key="is",
              formula=True),
    ],
    "10-saturation-dk-4.json": [
        exact("1/√d_k", "the name of the scaling"),
        claim("d_k", 4, ["4"]),
        claim("sqrt_d_k", 2, ["2"]),
        claim("wq_wk_norm", 1.4336780158963913, ["1.43"], 1e-4, head=1),
        claim("tokens", 17, ["17"]),
        claim("score_spread", 1.224533360472573, ["1.22"], 1e-4, head=1),
        claim("mean_row_max", 0.33109358551956486, ["0.33"], 1e-4, head=1, score="dot"),
    ],
    "11-saturation-dk-256.json": [
        claim("d_k", 256, ["256"]),
        claim("sqrt_d_k", 16, ["16"]),
        claim("score_spread", 17.841177867808078, ["17.8"], 1e-3, head=1),
        claim("mean_row_max", 0.9136587284035941, ["0.91"], 1e-4, head=1, score="dot"),
        claim("mean_row_max", 0.23910538640664894, ["0.24"], 1e-4, head=1, score="scaled"),
    ],
    "12-multi-head-one-off.json": HEAD_NUMBERS,
    "13-train-translation-alignment.json": [exact("example 04", "the example's number")],
    "14-gradient-saturation.json": [
        exact("1/√d_k", "the name of the scaling"),
        claim("d_k", 256, ["256"]),
        claim("jacobian_norm", 1.0544623073525463e-07, ["1.05e-07"], 1e-10, head=1,
              query="principal", scaling="unscaled"),
        claim("jacobian_norm", 0.32775348484416816, ["0.328"], 1e-4, head=1, query="principal",
              scaling="scaled"),
        claim("rows_with_small_jacobian", 9, ["9", "0.01"], head=1, scaling="unscaled",
              below=0.01),
        claim("rows_with_small_jacobian", 0, None, head=1, scaling="scaled", below=0.01),
        claim("tokens", 17, ["17"]),
        claim("smallest_jacobian_norm", 0.2717168457699022, ["0.272"], 1e-4, head=1,
              scaling="scaled"),
    ],
    "15-kernel-smoother.json": [
        claim("temperature", 1, ["T = 1"]),
        claim("bandwidth", 1, ["h = 1"]),
    ],
    "17-embedding-space-king-queen.json": [
        claim("words", 41, ["41"]),
        claim("dimension", 8, ["8"]),
        claim("cosine", 0.9808035446863693, ["0.981"], 1e-4, word="king", other="emperor",
              rank=1),
        claim("cosine", 0.8617234111378997, ["0.862"], 1e-4, word="king", other="prince",
              rank=2),
        claim("cosine", 0.8101849482869388, ["0.810"], 1e-4, word="king", other="father",
              rank=3),
        claim("cosine", 0.807494877018086, ["0.807"], 1e-4, word="king", other="uncle", rank=4),
        claim("cosine", 0.8059092329473766, ["0.806"], 1e-4, word="king", other="man", rank=5),
        claim("cosine", 0.3353890844654726, ["0.335"], 1e-4, word="king", other="queen"),
        claim("analogy", 0.979691998679983, ["0.980"], 1e-4, a="king", b="man", c="woman",
              answer="queen"),
    ],
    "19-queries-in-columns.json": [claim("weights_sum", 1, ["1"], 1e-6, head=1)],
    "20-one-projection-many-heads.json": [
        exact("Seed 002", "the seed note's number"),
        exact("seed 002", "the seed note's number"),
        claim("d_model", 8, ["8"]),
        claim("heads", 2, ["2"]),
        claim("d_k", 4, ["4"]),
        claim("projection_difference", 0, ["0"]),
    ],
    "21-qk-ov-circuits.json": [
        exact("Seed 004", "the seed note's number"),
        exact("W_1^Q", "heads are numbered from 1"),
        exact("W_1^K", "heads are numbered from 1"),
        exact("W_1^K\u1d40", "heads are numbered from 1"),
        exact("W_1^V", "heads are numbered from 1"),
        exact("W_1^O", "heads are numbered from 1"),
        exact("Head 1", "heads are numbered from 1"),
        exact("head 1", "heads are numbered from 1"),
        exact("head 2", "heads are numbered from 1"),
        claim("d_model", 8, ["8"]),
        claim("qk_rank", 4, ["4"], head=1),
        claim("ov_rank", 4, None, head=1),
        claim("raw_score", 6, ["6"], head=1, query="cat", key="Black"),
    ],
    "23-hard-attention-limits.json": [
        exact("Seed 000", "the seed note's number"),
        claim("soft_weight", E ** 3 / (E ** 3 + E ** 2 + 3), ["0.66"], 1e-6, head=1,
              query="Le", key="cat"),
        claim("soft_weight", E ** 2 / (E ** 3 + E ** 2 + 3), ["0.24"], 1e-6, head=1,
              query="Le", key="the"),
        claim("lost_mass", (E ** 2 + 3) / (E ** 3 + E ** 2 + 3), ["0.34"], 1e-6, head=1,
              query="Le"),
        claim("weights_sum", 1, ["\u2211 p = 1"], 1e-6, head=1),
    ],
    "24-context-sensitive-word.json": [
        exact("Seed 000", "the seed note's number"),
        claim("context_input_difference", 0, None, 1e-9, word="bank"),
    ],
    "26-fixed-vs-data-dependent-weights.json": [
        exact("Seeds 001 and 004", "the seed notes' numbers"),
        # max |after - before| of each mixing matrix; attention's from
        # tests/core/analysis/tst_mixing_weights.cpp's own softmax(Q K^T / 2) of the hashed rows
        claim("mixing_change", 0, ["change by 0"], layer=1),
        claim("mixing_change", 0, ["change by 0"], layer=2),
        claim("mixing_change", 0.36871, ["0.369"], 1e-4, layer=3),
    ],
    "27-learned-kernel.json": LEARNED_KERNEL_CLAIMS,
    "25-stacked-blocks.json": [
        exact("Seed 001", "the seed note's number"),
        exact("2017", "the paper's year"),
        claim("layers", 2, ["2 blocks"]),
        claim("layers", 2, ["layer 2"]),
        claim("layers", 2, ["X2"]),
        exact("Y1", "layers are numbered from 1"),
        exact("layer 1", "layers are numbered from 1"),
        exact("W1", "the FFN's first matrix"),
        exact("b1", "the FFN's first bias"),
        exact("W2", "the FFN's second matrix"),
        exact("b2", "the FFN's second bias"),
        exact("max(0", "ReLU"),
        claim("d_model", 8, ["8"]),
        claim("d_ff", 16, ["16"]),
        claim("layer_input_difference", 0, ["0)"]),
    ],
    "22-bias-absorbed.json": [
        exact("[X 1]", "the column of ones appended"),
        claim("bias_absorbed_difference", 0, None, 1e-6, head=1),
    ],
}


# ---- Matrices ----------------------------------------------------------------------------


def zeros(rows, cols):
    return [[0] * cols for _ in range(rows)]


def identity(rows, cols=None):
    cols = rows if cols is None else cols
    return [[1 if i == j else 0 for j in range(cols)] for i in range(rows)]


def matmul(a, b):
    return [[sum(a[i][m] * b[m][j] for m in range(len(b))) for j in range(len(b[0]))]
            for i in range(len(a))]


def transpose(a):
    return [list(col) for col in zip(*a)]


def xavier(rows, cols, rng):
    # Glorot & Bengio 2010, as core's generator, rounded so a file stays readable.
    a = math.sqrt(6.0 / (rows + cols))
    return [[round(rng.uniform(-a, a), 3) for _ in range(cols)] for _ in range(rows)]


def one_hot_inputs(tokens, vocabulary, d_model):
    # core's one-hot: e_v over the vocabulary in order of first appearance.
    return [[1 if vocabulary.index(t) == j else 0 for j in range(d_model)] for t in tokens]


def vocabulary_of(*sentences):
    vocabulary = []
    for sentence in sentences:
        for token in sentence:
            if token not in vocabulary:
                vocabulary.append(token)
    return vocabulary


# ---- Reference attention (one head) ------------------------------------------------------


def head_weights(x_q, x_k, head, score, normalize, mask):
    """Normalised weights of one head; `mask(i, j)` is True where the cell is masked."""
    q = matmul(x_q, head["W_q"])
    k = matmul(x_k, head["W_k"])
    d_k = len(q[0])
    scale = 1.0 / math.sqrt(d_k) if score == "scaled" else 1.0
    rows = []
    for i, qi in enumerate(q):
        s = [sum(a * b for a, b in zip(qi, kj)) * scale for kj in k]
        keep = [j for j in range(len(k)) if not mask(i, j)]
        w = [0.0] * len(k)
        if normalize == "hard":
            best = max(keep, key=lambda j: (s[j], -j))  # ties go to the lowest index
            w[best] = 1.0
        else:
            top = max(s[j] for j in keep)
            e = {j: math.exp(s[j] - top) for j in keep}
            total = sum(e.values())
            for j in keep:
                w[j] = e[j] / total
        rows.append(w)
    return rows


def argmax(row):
    return max(range(len(row)), key=lambda j: (row[j], -j))


def check(condition, message):
    if not condition:
        raise SystemExit("design check failed: " + message)


def no_mask(i, j):
    return False


# ---- Common parts ------------------------------------------------------------------------


def header(title, description, text, source=None):
    scene = {
        "format": "attention-explorer-scene",
        "version": 1,
        "title": title,
        "description": description,
        "text": text,
    }
    if source is not None:
        scene["source"] = source
    return scene


def attention(score, normalize="softmax"):
    return {"score": score, "normalize": normalize, "temperature": 1, "fill": "-inf"}


def mask(causal=False, window=None):
    return {"causal": causal, "window": window, "window_causal": False, "padding": True,
            "custom": []}


def view(view_name="head:1", precision=2, compare=""):
    return {"view": view_name, "colormap": "viridis", "show_values": True,
            "precision": precision, "compare_score": compare, "theme": "light"}


def head(W_q, W_k, W_v, enabled=True):
    d_k = len(W_q[0])
    # Explicit, so that switching the score in the app gives numbers one can follow:
    # bilinear with M = I equals the dot product; additive sums tanh(q + k).
    return {"enabled": enabled, "W_q": W_q, "W_k": W_k, "W_v": W_v,
            "w_additive": [1] * d_k, "bilinear": identity(d_k)}


# ---- 01: This is a cat. ------------------------------------------------------------------


def this_is_a_cat():
    # Whitespace tokens: "This is a cat." -> This | is | a | cat. : the four x^1..x^4 of
    # seed 001 (the word tokenizer would split off the full stop as a fifth token).
    tokens = ["This", "is", "a", "cat."]
    # The hand-worked weights of tests/support/problems.h. One-hot X = I, so Q = W_q:
    # q = (1,0) (0,1) (1,1) (0,0), k = (1,0) (0,1) (0,0) (1,1), Q K^T = [1 0 0 1; 0 1 0 1;
    # 1 1 0 2; 0 0 0 0]; row 1 is (e, 1, 1, e) / (2e + 2).
    W_q = [[1, 0], [0, 1], [1, 1], [0, 0]]
    W_k = [[1, 0], [0, 1], [0, 0], [1, 1]]
    W_v = [[1, 2], [0, 1], [2, 0], [1, 1]]
    h = head(W_q, W_k, W_v)
    h["w_additive"] = [1, -1]
    x = one_hot_inputs(tokens, vocabulary_of(tokens), 4)
    w = head_weights(x, x, h, "dot", "softmax", no_mask)
    e = math.e
    check(abs(w[0][0] - e / (2 * e + 2)) < 1e-12, "row 1 of This is a cat")
    check(all(abs(v - 0.25) < 1e-12 for v in w[3]), "cat. has a zero query: uniform row")

    scene = header(
        "This is a cat.",
        "Worked by hand: the whitespace tokenizer keeps \"cat.\" whole, so there are four "
        "tokens; one-hot inputs, small integer weights, q·k scores.",
        "This is a cat.")
    scene.update({
        "tokenizer": {"mode": "whitespace", "lowercase": False, "special": "none"},
        "embedding": {"kind": "onehot", "seed": 1},
        "positional": {"kind": "none"},
        "model": {"d_model": 4, "heads": 1, "d_k": 2, "d_v": 2, "seed": 1},
        "heads": [h],
        "W_o": [[1, 0, 1, 0], [0, 1, 0, 1]],
        "attention": attention("dot"),
        "mask": mask(),
        "view": view(precision=3),
    })
    write("01-this-is-a-cat.json", scene)


# ---- 02, 03, 07: the scholarship sentence -----------------------------------------------

STUDENT_TEXT = ("The student who got the highest grade in the class was awarded a scholarship "
                "by the principal")
STUDENT_TOKENS = STUDENT_TEXT.split()


def student_scene(title, description, causal=False, window=None):
    tokens = STUDENT_TOKENS
    vocabulary = vocabulary_of(tokens)  # 15 words ("The" and "the" differ)
    d_model, d_k, d_v = 16, 4, 4        # seed 003: d_k = d_v = 4
    v = vocabulary.index

    # Head 1: the long-range dependency of seed 003. Query feature 0 asks "where is my
    # verb?", key feature 0 answers for "awarded"; feature 1 asks "who is the subject?",
    # answered by "student". Raw score 3 * 3 = 9, scaled by 1/sqrt(4): 4.5.
    W_q1, W_k1 = zeros(d_model, d_k), zeros(d_model, d_k)
    W_q1[v("student")][0] = 3
    W_q1[v("scholarship")][0] = 3
    W_k1[v("awarded")][0] = 3
    W_q1[v("who")][1] = 3
    W_q1[v("awarded")][1] = 3
    W_k1[v("student")][1] = 3
    # Head 2: seed 003's other query, a noun asking for its adjective: "grade" -> "highest".
    W_q2, W_k2 = zeros(d_model, d_k), zeros(d_model, d_k)
    W_q2[v("grade")][0] = 3
    W_k2[v("highest")][0] = 3
    # Values: what each word is (person, action, thing, other), so an output row says what
    # the word gathered; W_o copies the concatenation into the first 8 model dimensions.
    kinds = {"student": 0, "principal": 0, "got": 1, "was": 1, "awarded": 1,
             "grade": 2, "class": 2, "scholarship": 2}
    W_v = zeros(d_model, d_v)
    for word in vocabulary:
        W_v[v(word)][kinds.get(word, 3)] = 1
    heads = [head(W_q1, W_k1, W_v), head(W_q2, W_k2, W_v)]

    x = one_hot_inputs(tokens, vocabulary, d_model)

    def masked(i, j):
        return (causal and j > i) or (window is not None and abs(i - j) > window)

    w1 = head_weights(x, x, heads[0], "scaled", "softmax", masked)
    w2 = head_weights(x, x, heads[1], "scaled", "softmax", masked)
    t = tokens.index
    student, who, awarded = t("student"), t("who"), t("awarded")
    if not causal and window is None:
        check(argmax(w1[student]) == awarded, "student -> awarded")
        check(argmax(w1[t("scholarship")]) == awarded, "scholarship -> awarded")
        check(argmax(w1[awarded]) == student, "awarded -> student")
        check(w1[student][awarded] > 0.8, "student -> awarded is strong")
    if causal:
        check(w1[student][awarded] == 0, "causal: student cannot see awarded")
        check(argmax(w1[awarded]) == student, "causal: awarded still sees student")
    if window is not None:
        check(w1[student][awarded] == 0 and w1[awarded][student] == 0, "window cuts the link")
        check(argmax(w1[who]) == student, "window keeps who -> student")
    check(argmax(w2[t("grade")]) == t("highest"), "grade -> highest")

    scene = header(title, description, STUDENT_TEXT)
    scene.update({
        "tokenizer": {"mode": "word", "lowercase": False, "special": "none"},
        "embedding": {"kind": "onehot", "seed": 1},
        "positional": {"kind": "none"},
        "model": {"d_model": d_model, "heads": 2, "d_k": d_k, "d_v": d_v, "seed": 1},
        "heads": heads,
        "W_o": identity(2 * d_v, d_model),
        "attention": attention("scaled"),
        "mask": mask(causal=causal, window=window),
        "view": view(),
    })
    return scene


# ---- 04, 05: translation ------------------------------------------------------------------

SOURCE = "Black cat ate the mouse"
TARGET = "Le chat noir a mangé la souris"
# Each French word and the English word it should align to. "a mangé" (passé composé) is
# one English verb, so both go to "ate"; English has no article before "Black cat", so "Le"
# goes with the noun it introduces.
ALIGNMENT = {"Le": "cat", "chat": "cat", "noir": "Black", "a": "ate", "mangé": "ate",
             "la": "the", "souris": "mouse"}


def translation_scene(normalize):
    # A shared concept space, one dimension per meaning; both languages are embedded in it
    # and the identity projections let q . k measure shared meaning.
    concepts = ["CAT", "BLACK", "EAT", "THE", "MOUSE", "PAST"]
    c = concepts.index

    def vec(**weights):
        row = [0] * len(concepts)
        for name, value in weights.items():
            row[c(name)] = value
        return row

    table = {
        "Black": vec(BLACK=2), "cat": vec(CAT=2), "ate": vec(EAT=2, PAST=1),
        "the": vec(THE=2), "mouse": vec(MOUSE=2),
        # "Le" is half article, half its noun: soft attention splits it between "cat"
        # (score 3) and "the" (2); hard attention picks "cat".
        "Le": vec(THE=1, CAT=1.5), "chat": vec(CAT=2), "noir": vec(BLACK=2),
        "a": vec(PAST=1, EAT=1), "mangé": vec(EAT=2, PAST=0.5),
        "la": vec(THE=2, MOUSE=0.5), "souris": vec(MOUSE=2),
    }
    source, target = SOURCE.split(), TARGET.split()
    d = len(concepts)
    h = head(identity(d), identity(d), identity(d))
    x_q = [table[t] for t in target]
    x_k = [table[t] for t in source]
    w = head_weights(x_q, x_k, h, "dot", normalize, no_mask)
    for i, word in enumerate(target):
        check(source[argmax(w[i])] == ALIGNMENT[word], word + " -> " + ALIGNMENT[word])

    if normalize == "hard":
        title = "Translation alignment under hard attention"
        description = ("The same weights with hard (argmax) attention: each French word takes "
                       "one English word; \"a\" and \"mangé\" both align to \"ate\".")
        name = "05-translation-hard-alignment.json"
    else:
        title = "Translation: Le chat noir a mangé la souris"
        description = ("French queries, English keys and values, embedded in one concept "
                       "space: each French word attends to the English word it translates.")
        name = "04-translation-cross-attention.json"
    scene = header(title, description, TARGET, SOURCE)
    scene.update({
        "tokenizer": {"mode": "word", "lowercase": False, "special": "none"},
        "embedding": {"kind": "table", "seed": 1, "table": table},
        "positional": {"kind": "none"},
        "model": {"d_model": d, "heads": 1, "d_k": d, "d_v": d, "seed": 1},
        "heads": [h],
        "W_o": identity(d),
        "attention": attention("dot", normalize),
        "mask": mask(),
        "view": view(),
    })
    write(name, scene)


# ---- 06: a sentence without spaces -------------------------------------------------------


def japanese():
    rng = random.Random(6)
    d_model, heads, d_k = 8, 2, 4
    scene = header(
        "Japanese: 黒い猫がネズミを食べました。",
        "The Japanese for \"Black cat ate the mouse\" is written without spaces, so the "
        "tokenizer splits it per character; hashed vectors, sinusoidal positions.",
        "黒い猫がネズミを食べました。")
    scene.update({
        "tokenizer": {"mode": "word", "lowercase": False, "special": "none"},
        "embedding": {"kind": "hashed", "seed": 1},
        "positional": {"kind": "sinusoidal"},
        "model": {"d_model": d_model, "heads": heads, "d_k": d_k, "d_v": d_k, "seed": 6},
        "heads": [head(xavier(d_model, d_k, rng), xavier(d_model, d_k, rng),
                       xavier(d_model, d_k, rng)) for _ in range(heads)],
        "W_o": xavier(heads * d_k, d_model, rng),
        "attention": attention("scaled"),
        "mask": mask(),
        "view": view("heads"),
    })
    write("06-japanese-per-character.json", scene)


# ---- 08, 09: one-hot against hashed -------------------------------------------------------


SEED_001_ORDER = ["is", "a", "This", "cat."]


def embeddings(kind):
    # The same sentence, identity projections and q . k scores; only the embedding differs,
    # so the scores are the inputs' own dot products x_i . x_j.
    d = 4
    scene = {}
    if kind == "onehot":
        tokens = ["This", "is", "a", "cat."]
        x = one_hot_inputs(tokens, SEED_001_ORDER, d)
        check(x[0] == [0, 0, 1, 0], "This = [0 0 1 0] as seed 001 writes it")
        w = head_weights(x, x, head(identity(d), identity(d), identity(d)), "dot", "softmax",
                         no_mask)
        check(abs(w[0][0] - math.e / (math.e + 3)) < 1e-12, "one-hot diagonal e/(e+3)")
        scene = header(
            "One-hot words: no similarity",
            "One-hot vectors are orthogonal: two different words always score 0, so each row is "
            "e/(e+3) on the diagonal and 1/(e+3) elsewhere. The dimensions are in seed 001's "
            "order (is, a, This, cat.), so This = [0 0 1 0]; the seed's a = [0 2 0 0] is a typo "
            "for [0 1 0 0].",
            "This is a cat.")
        name = "08-onehot-embeddings.json"
    else:
        scene = header(
            "Hashed words: chance similarity",
            "The one-hot scene with dense pseudo-random vectors (one per word, the same in every "
            "sentence): different words now score non-zero by chance.",
            "This is a cat.")
        name = "09-hashed-embeddings.json"
    scene.update({
        "tokenizer": {"mode": "whitespace", "lowercase": False, "special": "none"},
        "embedding": {"kind": kind, "seed": 1},
        "positional": {"kind": "none"},
        "model": {"d_model": d, "heads": 1, "d_k": d, "d_v": d, "seed": 1},
        "heads": [head(identity(d), identity(d), identity(d))],
        "W_o": identity(d),
        "attention": attention("dot"),
        "mask": mask(),
        "view": view(precision=3),
    })
    if kind == "onehot":
        # Seed 001 writes This = [0 0 1 0], is = [1 0 0 0], cat = [0 0 0 1]: is, a, This, cat.
        scene["embedding"]["vocabulary"] = SEED_001_ORDER
    write(name, scene)


# ---- 10, 11: saturation without 1/sqrt(d_k) -----------------------------------------------


def saturation(d_k):
    # Hashed inputs are N(0, 1) per entry and Xavier W_q, W_k (d_model = d_k) have entry
    # variance 1/d_k, so q and k have unit-variance entries and q . k has variance d_k: the
    # spread of the unscaled scores grows as sqrt(d_k) (Vaswani et al. 2017, footnote 4).
    # The weights are generated from model.seed: 256 x 256 matrices written out would make
    # a megabyte file without showing anything more.
    if d_k == 4:
        title = "Unscaled scores at d_k = 4"
        description = ("q·k without 1/√d_k: over random weights and words the scores' variance "
                       "is d_k = 4 on average, a spread of √4 = 2. This draw of W_q W_kᵀ is "
                       "smaller than average (Frobenius norm 1.43, the spread it gives random "
                       "words), and these 17 words spread by 1.22: rows stay soft, the largest "
                       "weight of a row 0.33 on average.")
        name = "10-saturation-dk-4.json"
    else:
        title = "Unscaled scores at d_k = 256: saturation"
        description = ("The same at d_k = 256: the scores' standard deviation is 17.8, near "
                       "√256 = 16, and softmax saturates to near one-hot rows (the largest "
                       "weight of a row is 0.91 on average); the scaled score (÷16) brings "
                       "that back to 0.24.")
        name = "11-saturation-dk-256.json"
    scene = header(title, description, STUDENT_TEXT)
    scene.update({
        "tokenizer": {"mode": "word", "lowercase": False, "special": "none"},
        "embedding": {"kind": "hashed", "seed": 1},
        "positional": {"kind": "none"},
        "model": {"d_model": d_k, "heads": 1, "d_k": d_k, "d_v": d_k, "seed": 1,
                  "init": "xavier"},
        "attention": attention("dot"),
        "mask": mask(),
        "view": view(compare="scaled"),
    })
    write(name, scene)


# ---- 12: multi-head with one head switched off -------------------------------------------


def multi_head():
    tokens = SOURCE.split()  # Black cat ate the mouse
    vocabulary = vocabulary_of(tokens)
    d_model, d_k = 8, 4
    v = vocabulary.index
    # Each head matches query feature f against key feature f; raw score 3 * 2 = 6, scaled
    # by 1/sqrt(4): 3, so a matched key gets e^3 / (e^3 + 4) = 0.83 of a row.

    def pattern(pairs):
        W_q, W_k = zeros(d_model, d_k), zeros(d_model, d_k)
        keys = []
        for query, key in pairs:
            if key not in keys:
                keys.append(key)
            f = keys.index(key)
            W_q[v(query)][f] = 3
            W_k[v(key)][f] = 2
        return W_q, W_k

    # Head 1: the previous word (the first word looks at itself).
    W_q1, W_k1 = pattern([("Black", "Black"), ("cat", "Black"), ("ate", "cat"),
                          ("the", "ate"), ("mouse", "the")])
    # Head 2 (off): syntax partners: adjective -> noun, subject -> verb, verb -> object,
    # article -> noun, object -> verb.
    W_q2, W_k2 = pattern([("Black", "cat"), ("cat", "ate"), ("ate", "mouse"),
                          ("the", "mouse"), ("mouse", "ate")])
    kinds = {"Black": 2, "cat": 0, "ate": 1, "the": 3, "mouse": 0}  # animal, action, modifier, article
    W_v = zeros(d_model, d_k)
    for word in vocabulary:
        W_v[v(word)][kinds[word]] = 1
    heads = [head(W_q1, W_k1, W_v), head(W_q2, W_k2, W_v, enabled=False)]

    x = one_hot_inputs(tokens, vocabulary, d_model)
    w1 = head_weights(x, x, heads[0], "scaled", "softmax", no_mask)
    w2 = head_weights(x, x, heads[1], "scaled", "softmax", no_mask)
    for i in range(1, len(tokens)):
        check(argmax(w1[i]) == i - 1, "head 1 looks at the previous word")
    check([tokens[argmax(r)] for r in w2] == ["cat", "ate", "mouse", "mouse", "ate"],
          "head 2 syntax partners")

    scene = header(
        "Two heads, one switched off",
        "Head 1 looks at the previous word; head 2 (syntax partners) is switched off: still "
        "computed, but zeros in the concatenation before W^O.",
        SOURCE)
    scene.update({
        "tokenizer": {"mode": "word", "lowercase": False, "special": "none"},
        "embedding": {"kind": "onehot", "seed": 1},
        "positional": {"kind": "none"},
        "model": {"d_model": d_model, "heads": 2, "d_k": d_k, "d_v": d_k, "seed": 1},
        "heads": heads,
        "W_o": identity(2 * d_k, d_model),
        "attention": attention("scaled"),
        "mask": mask(),
        "view": view("heads"),
    })
    write("12-multi-head-one-off.json", scene)


# ---- 13 to 19: what the seeds teach beyond the arithmetic ---------------------------------
# Each opens on the view that shows it; the description says what to look for.


def word_vectors_8d():
    # tests/data/wordvectors/analogy_8d.txt (make_analogy_8d.py): seed 003's analogies hold
    # in it, and no word vectors ship with Debian.
    path = os.path.join(HERE, "..", "..", "tests", "data", "wordvectors", "analogy_8d.txt")
    table = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            table[parts[0]] = [float(v) for v in parts[1:]]
    return table


def concept_examples():
    scene = header(
        "Train: learn the translation alignment",
        "Attention's parameters are learned: W^q, W^k and W^v. Press Run on the Train tab: from random weights, Adam learns the alignment example 04 sets by hand, "
        "and the heatmap sharpens as the loss falls.",
        TARGET, SOURCE)
    translation = json_of("04-translation-cross-attention.json")
    for key in ("tokenizer", "embedding", "positional", "model", "heads", "W_o", "attention", "mask"):
        scene[key] = translation[key]
    scene["view"] = view("train:translation")
    write("13-train-translation-alignment.json", scene)

    # The view opens on the last query; model seed 8 (instead of 11's 1) makes that one of the
    # saturated rows.
    scene = json_of("11-saturation-dk-256.json")
    scene["title"] = "Why 1/\u221ad_k: the gradient of a saturated softmax"
    scene["description"] = (
        "Large dot products saturate softmax to a near one-hot row, where its gradient "
        "vanishes. At d_k = 256 the last query, \u201cprincipal\u201d, has \u2016J\u2016 = 1.05e-07 "
        "without 1/\u221ad_k and 0.328 with it; 9 of the 17 rows fall below 0.01 without it, "
        "none with it (the smallest is 0.272). Pick other queries to compare.")
    scene["model"]["seed"] = 8
    scene["view"] = view("gradient")
    write("14-gradient-saturation.json", scene)

    scene = header(
        "Attention as a kernel smoother",
        "Attention's output is a weighted average of the values, as in kernel regression. Keys "
        "are points on a line, values their targets: softmax of the distance score gives a "
        "Nadaraya\u2013Watson estimate with a Gaussian kernel whose bandwidth is h = \u221aT, the "
        "square root of the temperature (here T = 1, so h = 1). Drag the points.",
        "This is a cat.")
    scene.update({
        "tokenizer": {"mode": "whitespace", "lowercase": False, "special": "none"},
        "embedding": {"kind": "hashed", "seed": 1},
        "positional": {"kind": "none"},
        "model": {"d_model": 4, "heads": 1, "d_k": 4, "d_v": 4, "seed": 1, "init": "xavier"},
        "attention": attention("scaled"),
        "mask": mask(),
        "view": view("kernel"),
    })
    write("15-kernel-smoother.json", scene)

    scene = header(
        "Positional encodings: sin and cos",
        "Each position gets its own vector, built from sines and cosines of different "
        "frequencies: P, how alike two positions are (P P\u1d40) and X = E + P; "
        "switch positions off and the layer cannot tell word order.",
        STUDENT_TEXT)
    scene.update({
        "tokenizer": {"mode": "word", "lowercase": False, "special": "none"},
        "embedding": {"kind": "hashed", "seed": 1},
        "positional": {"kind": "sinusoidal"},
        "model": {"d_model": 16, "heads": 1, "d_k": 16, "d_v": 16, "seed": 1, "init": "xavier"},
        "attention": attention("scaled"),
        "mask": mask(),
        "view": view("positions"),
    })
    write("16-sinusoidal-positions.json", scene)

    table = word_vectors_8d()
    scene = header(
        "Embedding space: king \u2212 man + woman",
        "A trained embedding puts related words close together. In this made-up table of 41 "
        "words in 8 dimensions the words nearest to king by cosine are emperor 0.981, prince "
        "0.862, father 0.810, uncle 0.807 and man 0.806; queen is far (0.335), as gender is "
        "one of the table's axes. The map shows two principal components; king \u2212 man + "
        "woman lands on queen (cosine 0.980).",
        "king man woman queen")
    scene.update({
        "tokenizer": {"mode": "whitespace", "lowercase": False, "special": "none"},
        "embedding": {"kind": "table", "seed": 1, "table": table},
        "positional": {"kind": "none"},
        "model": {"d_model": 8, "heads": 1, "d_k": 8, "d_v": 8, "seed": 1, "init": "xavier"},
        "attention": attention("scaled"),
        "mask": mask(),
        "view": view("embedding-space"),
    })
    write("17-embedding-space-king-queen.json", scene)

    scene = json_of("02-student-scholarship.json")
    scene["title"] = "What the causal mask takes away"
    scene["description"] = (
        "A causal mask keeps each word from attending to later words, so that a model does not "
        "learn from the future. The scholarship heads without the mask minus with it: red "
        "where a word looks at a later word, blue where its earlier words lose that weight.")
    scene["view"] = view("difference:1", compare="mask:causal")
    write("18-difference-causal-mask.json", scene)

    scene = json_of("01-this-is-a-cat.json")
    scene["title"] = "Queries in columns: A = K\u1d40Q"
    scene["description"] = (
        "Texts that keep vectors in columns write A = K\u1d40Q with one query per column, so "
        "that after softmax each column sums to 1; the explorer's rows are queries. This view "
        "draws it their way.")
    scene["view"] = view()
    scene["view"]["transpose"] = True
    write("19-queries-in-columns.json", scene)


def write_with_heads(name, scene, base, heads, view_name):
    """`scene` with `base`'s settings and W_o, these heads, opening on `view_name`."""
    for key in ("tokenizer", "embedding", "positional", "model", "W_o", "attention", "mask"):
        scene[key] = base[key]
    scene["heads"] = heads
    scene["view"] = view(view_name, precision=1)
    write(name, scene)


# ---- 20 to 22: the algebra of the projections (the Projections tab) ----------------------


def projection_examples():
    # Example 12's heads, both on: d_model = 8 = h d_k with h = 2, d_k = 4.
    base = json_of("12-multi-head-one-off.json")
    heads = base["heads"]
    for h in heads:
        h["enabled"] = True
    d_model, d_k = 8, 4
    # Seed 002's "one big projection": [W_1^Q W_2^Q] is 8 x 8, and X W^Q cut into blocks of
    # four columns is X W_1^Q, X W_2^Q (checked here on the one-hot inputs, where X W = W's
    # rows of the sentence's words).
    tokens = SOURCE.split()
    x = one_hot_inputs(tokens, vocabulary_of(tokens), d_model)
    big = [heads[0]["W_q"][r] + heads[1]["W_q"][r] for r in range(d_model)]
    q = matmul(x, big)
    for i, h in enumerate(heads):
        check([row[i * d_k:(i + 1) * d_k] for row in q] == matmul(x, h["W_q"]),
              "block %d of X W^Q is X W_%d^Q" % (i + 1, i + 1))
    check(len(big[0]) == d_model, "W^Q is d_model x d_model")

    scene = header(
        "One projection, cut into heads",
        "Seed 002: the heads' W_i^Q (8 \u00d7 4 each, d_k = d_model / h = 8 / 2 = 4) side by side "
        "are one W^Q of 8 \u00d7 8, and X W^Q cut into blocks of 4 columns is each head's X W_i^Q "
        "(largest difference 0): one big projection and a reshape. The heads' outputs are "
        "joined the same way, so W^O is h\u00b7d_v \u00d7 d_model; seed 002 writes h\u00b7d_k, "
        "the same only while d_v = d_k.",
        SOURCE)
    write_with_heads("20-one-projection-many-heads.json", scene, base, heads, "projections:split")

    # Seed 004's products. Head 1 (the previous word): with one-hot inputs row a, column b of
    # W_1^Q W_1^K^T is the raw score word a gives word b, 3 * 2 = 6 for "cat" -> "Black".
    qk = matmul(heads[0]["W_q"], transpose(heads[0]["W_k"]))
    v = vocabulary_of(tokens).index
    check(qk[v("cat")][v("Black")] == 6, "QK circuit: cat -> Black scores 6")
    scene = header(
        "A head as two matrices: QK and OV circuits",
        "Seed 004: head 1's scores depend on W_1^Q and W_1^K only through W_1^Q W_1^K\u1d40 (8 "
        "\u00d7 8; with one-hot inputs its row a, column b is the score word a gives word b, 6 "
        "for cat \u2192 Black), and its output on W_1^V and W_1^O only through W_1^V W_1^O. "
        "Both have rank 4, not 8: W^V R and R\u207b\u00b9 W^O give the same product for any "
        "invertible R, so one matrix of each pair is redundant. Head 1 is shown; pick head 2 "
        "beside.",
        SOURCE)
    write_with_heads("21-qk-ov-circuits.json", scene, base, heads, "projections:circuits")

    # Bishop p. 365: the hand example with biases (tests/support/problems.h): X = I, so
    # [X 1] [W; b] is each row of W plus b.
    scene = json_of("01-this-is-a-cat.json")
    h = scene["heads"][0]
    h["b_q"], h["b_k"], h["b_v"] = [0, 1], [1, 0], [-1, 1]
    x = identity(4)
    for w_name, b_name in (("W_q", "b_q"), ("W_k", "b_k"), ("W_v", "b_v")):
        augmented = matmul([row + [1] for row in x], h[w_name] + [h[b_name]])
        direct = [[a + b for a, b in zip(row, h[b_name])] for row in matmul(x, h[w_name])]
        check(augmented == direct, b_name + " absorbed")
    scene["title"] = "Biases absorbed into the weights"
    scene["description"] = (
        "Bishop: Q = X W^Q + b^Q is [X 1] [W^Q; b^Q], the data with a column of ones appended "
        "and the weights with the bias as an extra row; the same holds for K and V, so a "
        "layer can be written without biases. The hand example with b^Q, b^K and b^V added.")
    scene["view"] = view("projections:bias")
    write("22-bias-absorbed.json", scene)


def hard_attention_limits():
    # Example 05 (hard) on the hard attention tab. "Le" = 1.5 CAT + 1 THE scores 3 with "cat"
    # (2 CAT) and 2 with "the" (2 THE), 0 with the rest: softmax keeps e^3 / (e^3 + e^2 + 3)
    # = 0.66 on "cat" and e^2 / (...) = 0.24 on "the"; the argmax keeps "cat" alone.
    scene = json_of("05-translation-hard-alignment.json")
    e = math.e
    total = e ** 3 + e ** 2 + 3
    check(round(e ** 3 / total, 2) == 0.66 and round(e ** 2 / total, 2) == 0.24, "Le's row")
    scene["title"] = "What hard attention loses"
    scene["description"] = (
        "Seed 000: hard attention gives each query one key (\u2211 p = 1), so it cannot align "
        "one word to two. \u201cLe\u201d is half article, half noun: softmax puts 0.66 on "
        "\u201ccat\u201d and 0.24 on \u201cthe\u201d, and the argmax keeps \u201ccat\u201d alone, "
        "dropping 0.34 of the row. The argmax is also flat, so its gradient is zero (the Train tab "
        "offers surrogate gradients); the seed's remedy is an auxiliary loss beside the "
        "prediction loss.")
    scene["view"] = view("hard")
    write("23-hard-attention-limits.json", scene)


def context_sensitive_word():
    # Seed 000: one global vector per word (the embedding) against context-sensitive outputs.
    # Hashed vectors, no positions, so "bank" enters both sentences as the same vector.
    other = "the bank approved the loan"
    scene = header(
        "One word, two contexts",
        "Seed 000: learn context-sensitive token representations rather than one global "
        "vector. \u201cbank\u201d enters \u201cthe river bank flooded\u201d and \u201c" + other +
        "\u201d as the same input vector (a lookup, no positions); after attention its outputs "
        "differ, because it weighs different neighbours.",
        "the river bank flooded")
    scene.update({
        "tokenizer": {"mode": "word", "lowercase": False, "special": "none"},
        "embedding": {"kind": "hashed", "seed": 1},
        "positional": {"kind": "none"},
        "model": {"d_model": 8, "heads": 2, "d_k": 4, "d_v": 4, "seed": 3, "init": "xavier"},
        "attention": attention("scaled"),
        "mask": mask(),
        "view": view("context:bank:" + other),
    })
    write("24-context-sensitive-word.json", scene)


def stacked_blocks():
    # Seed 001: attention, then a fully connected layer, used again. Two post-norm blocks
    # (Vaswani et al. 2017, Fig. 1); every weight is drawn by core from the seed.
    scene = header(
        "Stacked blocks: attention, then a feed-forward layer, twice",
        "Seed 001: \u201cyou could iteratively use the self-attention layer and FC layer several "
        "times\u201d. Here 2 blocks, each post-norm as in the Transformer (Vaswani et al. 2017): "
        "H = LayerNorm(X + attention(X)), then Y = LayerNorm(H + FFN(H)), with the FFN "
        "max(0, H W1 + b1) W2 + b2 from d_model = 8 to d_ff = 16 and back. The Stacked blocks "
        "tab draws every step with the same token rows: layer 2's input X2 is layer 1's output "
        "Y1 (largest difference 0). Attention mixes the rows; the FFN works on each row alone. "
        "Layer (above the heatmaps) shows either block's heads; the Train tab trains both "
        "blocks on an induction task, which one attention layer cannot learn.",
        "the cat sat on the mat")
    scene.update({
        "tokenizer": {"mode": "word", "lowercase": False, "special": "none"},
        "embedding": {"kind": "hashed", "seed": 1},
        "positional": {"kind": "sinusoidal"},
        "model": {"d_model": 8, "heads": 2, "d_k": 4, "d_v": 4, "seed": 3, "init": "xavier"},
        "attention": attention("scaled"),
        "mask": mask(),
        "view": view("layers"),
        "layers": [{"d_ff": 16}, {"d_ff": 16}],
    })
    write("25-stacked-blocks.json", scene)


def fixed_vs_data_dependent_weights():
    # Seeds 001 and 004: a fully connected layer over the sequence and a convolution mix with
    # fixed weights, attention with weights computed from the words. One word changed.
    other = "the dog sat"
    scene = header(
        "Fixed weights against data-dependent weights",
        "Seeds 001 and 004: a fully connected layer mixes the words with weights tied to their "
        "positions, a convolution with one fixed window, attention with weights computed from "
        "the words. \u201cthe cat sat\u201d becomes \u201c" + other + "\u201d: the fully "
        "connected and convolution matrices change by 0, not at all; attention's weights "
        "change by up to 0.369, in every row.",
        "the cat sat")
    scene.update({
        "tokenizer": {"mode": "word", "lowercase": False, "special": "none"},
        "embedding": {"kind": "hashed", "seed": 1},
        "positional": {"kind": "none"},
        "model": {"d_model": 4, "heads": 1, "d_k": 4, "d_v": 4, "seed": 3, "init": "xavier"},
        "attention": attention("scaled"),
        "mask": mask(),
        "view": view("mixing:" + other),
    })
    write("26-fixed-vs-data-dependent-weights.json", scene)


def learned_kernel():
    # Seed 004: kernel machines tune the kernel, attention learns the embedding; the Kernel
    # tab's "kernel:learned" (core/analysis/learned_kernel.h), numbers in the claims above.
    scene = header(
        "Kernel machines learn the kernel, attention the embedding",
        "Seed 004: a kernel machine tunes its kernel on a fixed embedding; attention fixes its "
        "kernel and learns the embedding. 40 noisy points of sin(x\u00b2) between 0 and 3, each "
        "predicted from the others: the best Gaussian kernel, h = 0.083, leaves a squared error "
        "of 0.0561; attention with learned query and key maps \u03c6(x) = w\u00b7(x, x\u00b2), "
        "300 steps of Adam from the fixed kernel at h = 1, gets 0.0531. Its kernel is 0.41 wide "
        "at x = 0 and 0.069 at x = 3: wide where the curve is slow, narrow where it is fast. "
        "The two weight matrices show which point each point weighs.",
        "This is a cat.")
    scene.update({
        "tokenizer": {"mode": "whitespace", "lowercase": False, "special": "none"},
        "embedding": {"kind": "hashed", "seed": 1},
        "positional": {"kind": "none"},
        "model": {"d_model": 4, "heads": 1, "d_k": 4, "d_v": 4, "seed": 1, "init": "xavier"},
        "attention": attention("scaled"),
        "mask": mask(),
        "view": view("kernel:learned"),
    })
    write("27-learned-kernel.json", scene)


def json_of(name):
    import json
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        return json.load(f)


def main():
    this_is_a_cat()
    write("02-student-scholarship.json", student_scene(
        "The student was awarded a scholarship",
        "Head 1 is set by hand so that \"student\" attends to \"awarded\" (and back); in head 2 "
        "\"grade\" finds its adjective \"highest\"."))
    write("03-causal-language-model.json", student_scene(
        "Causal mask: a language model reads left to right",
        "The scholarship heads under a causal mask: \"student\" can no longer see the later "
        "\"awarded\", but \"awarded\" still finds \"student\".",
        causal=True))
    translation_scene("softmax")
    translation_scene("hard")
    japanese()
    write("07-local-window.json", student_scene(
        "Local window: each word sees two neighbours each side",
        "The scholarship heads with a window |i − j| ≤ 2: \"who\" still finds \"student\", but "
        "\"student\" and \"awarded\" no longer see each other.",
        window=2))
    embeddings("onehot")
    embeddings("hashed")
    saturation(4)
    saturation(256)
    multi_head()
    concept_examples()
    projection_examples()
    hard_attention_limits()
    context_sensitive_word()
    stacked_blocks()
    fixed_vs_data_dependent_weights()
    learned_kernel()


if __name__ == "__main__":
    main()
