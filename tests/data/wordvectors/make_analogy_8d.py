#!/usr/bin/env python3
"""Writes analogy_8d.txt: 8-dimensional GloVe-format vectors for a few dozen words, built so
that seed 003's analogies hold (king - man + woman ~ queen; bart - man + woman ~ lisa) and the
words nearest "king" are royal ones. No word vectors ship with Debian, so the embedding-space
tests use these instead of GloVe.

Each word is a sum of named directions (one dimension each), plus a small deterministic
perturbation (a linear congruential generator, amplitude 0.04) so no two words coincide and
the analogies hold approximately, not exactly:

  0 royalty   1 gender (+1 male, -1 female)   2 person   3 animal
  4 young     5 Simpsons family                6 food     7 action (verbs)

Run: python3 make_analogy_8d.py > analogy_8d.txt
"""

DIMENSIONS = ["royalty", "gender", "person", "animal", "young", "simpsons", "food", "action"]

WORDS = {
    "king": {"royalty": 1, "gender": 1, "person": 1},
    "queen": {"royalty": 1, "gender": -1, "person": 1},
    "prince": {"royalty": 1, "gender": 1, "person": 1, "young": 1},
    "princess": {"royalty": 1, "gender": -1, "person": 1, "young": 1},
    "emperor": {"royalty": 1.5, "gender": 1, "person": 1},
    "empress": {"royalty": 1.5, "gender": -1, "person": 1},
    "throne": {"royalty": 1},
    "crown": {"royalty": 0.9, "food": -0.2},
    "kingdom": {"royalty": 0.8, "action": -0.2},
    "man": {"gender": 1, "person": 1},
    "woman": {"gender": -1, "person": 1},
    "boy": {"gender": 1, "person": 1, "young": 1},
    "girl": {"gender": -1, "person": 1, "young": 1},
    "father": {"gender": 1, "person": 1.1},
    "mother": {"gender": -1, "person": 1.1},
    "son": {"gender": 1, "person": 1, "young": 0.8},
    "daughter": {"gender": -1, "person": 1, "young": 0.8},
    "uncle": {"gender": 1, "person": 0.9},
    "aunt": {"gender": -1, "person": 0.9},
    "homer": {"gender": 1, "person": 1, "simpsons": 1},
    "marge": {"gender": -1, "person": 1, "simpsons": 1},
    "bart": {"gender": 1, "person": 1, "simpsons": 1, "young": 1},
    "lisa": {"gender": -1, "person": 1, "simpsons": 1, "young": 1},
    "cat": {"animal": 1},
    "dog": {"animal": 1, "action": 0.1},
    "kitten": {"animal": 1, "young": 1},
    "puppy": {"animal": 1, "young": 1, "action": 0.1},
    "lion": {"animal": 1, "gender": 0.5, "royalty": 0.3},
    "lioness": {"animal": 1, "gender": -0.5, "royalty": 0.3},
    "mouse": {"animal": 0.9, "food": 0.1},
    "apple": {"food": 1},
    "bread": {"food": 1, "action": -0.1},
    "cheese": {"food": 1, "animal": 0.1},
    "eat": {"action": 1, "food": 0.4},
    "ate": {"action": 1, "food": 0.4, "young": -0.1},
    "run": {"action": 1},
    "walk": {"action": 0.9},
    "sat": {"action": 0.8},
    "mat": {"food": -0.2, "action": -0.3},
    "the": {},
    "a": {},
}


def lcg(seed):
    state = seed
    while True:
        state = (6364136223846793005 * state + 1442695040888963407) % 2**64
        yield ((state >> 11) / 2**53) * 2 - 1  # uniform in [-1, 1)


def main():
    noise = lcg(14)
    for word, parts in WORDS.items():
        vector = [parts.get(name, 0.0) + 0.04 * next(noise) for name in DIMENSIONS]
        # the, a: no meaning of their own, a small vector
        print(word, " ".join(f"{value:.4f}" for value in vector))


if __name__ == "__main__":
    main()
