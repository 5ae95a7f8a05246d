# Writes spm_expected.json: the ids, pieces, offsets and decoded text that libsentencepiece
# gives for every corpus text of expected.json with the SentencePiece model files here. Run
# once by hand with Debian 12's python3-sentencepiece (0.1.97, the version of the
# libsentencepiece-dev the program links):
#
#   apt install python3-sentencepiece && /usr/bin/python3 make_spm_expectations.py
#
# The files:
# - t5/spiece.model: T5's (t5-small, t5-base; sha256 d60acb12...945ea86), the model t5/
#   tokenizer.json was converted from.
# - marian-en-pt/source.spm: the source-side model of Helsinki-NLP/opus-mt-tc-big-en-pt, as a
#   fine-tuned copy published it (sha256 7a7fcf81...1d6c355aa), 802741 bytes.
# - marian-en-pt/: with source.spm, that model's vocab.json, tokenizer_config.json and
#   special_tokens_map.json, as published. transformers is not packaged in Debian 12, so its
#   MarianTokenizer is followed here step by step (tokenization_marian.py, tokenization_utils.py
#   of transformers 4.4x): the text is cut at the special tokens (</s>, <unk>, <pad>, no
#   stripping); in each other piece a ">>...<<" language code at the start becomes a token and
#   every ">>...<<" is removed (remove_language_code); source.spm encodes the rest; each piece
#   is its vocab.json id, or <unk>'s; </s> follows (build_inputs_with_special_tokens).
# Offsets are converted from characters (Unicode scalar values) to UTF-16 code units, the
# offsets SentencePieceModel gives on a QString.
import json
import os
import re

import sentencepiece

here = os.path.dirname(os.path.abspath(__file__))
texts = json.load(open(os.path.join(here, 'expected.json'), encoding='utf-8'))['texts']


def utf16_offsets(text):
    offsets = [0]
    for ch in text:
        offsets.append(offsets[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return offsets


result = {'library': 'sentencepiece ' + sentencepiece.__version__ + ' (Debian 12 python3-sentencepiece)',
          'models': {}}
for name in ['t5/spiece.model', 'marian-en-pt/source.spm']:
    sp = sentencepiece.SentencePieceProcessor(model_file=os.path.join(here, name))
    cases = []
    for text in texts:
        units = utf16_offsets(text)
        proto = sp.encode(text, out_type='immutable_proto')
        ids = [p.id for p in proto.pieces]
        cases.append({'ids': ids, 'pieces': [p.piece for p in proto.pieces],
                      'offsets': [[units[p.begin], units[p.end]] for p in proto.pieces],
                      'decoded': sp.decode(ids)})
    result['models'][name] = {'size': sp.get_piece_size(), 'unk_id': sp.unk_id(), 'cases': cases}
    print(name, sum(len(c['ids']) for c in cases), 'pieces')

# MarianTokenizer on the corpus, with two language codes added.
marian_texts = texts + ['>>por<< The cat ate the mouse.', '>>pob<< a >>xx<< b\n>>por<<', '>> <<', '</s>>>por<<x']
vocab = json.load(open(os.path.join(here, 'marian-en-pt', 'vocab.json'), encoding='utf-8'))
source = sentencepiece.SentencePieceProcessor(model_file=os.path.join(here, 'marian-en-pt', 'source.spm'))
specials = ['</s>', '<unk>', '<pad>']
language_code = re.compile('>>.+<<')


def marian_tokenize(chunk):
    match = language_code.match(chunk)
    code = [match.group(0)] if match else []
    return code + source.encode(language_code.sub('', chunk), out_type=str)


def marian_ids(text):
    tokens = []
    rest = text
    while rest:
        # The earliest special token, the longest at that place (the slow tokenizer's trie).
        found = min(((rest.find(t), -len(t), t) for t in specials if t in rest), default=None)
        if found is None:
            tokens += marian_tokenize(rest)
            break
        tokens += marian_tokenize(rest[:found[0]]) + [found[2]]
        rest = rest[found[0] + len(found[2]):]
    return [vocab.get(t, vocab['<unk>']) for t in tokens]


result['marian'] = {'texts': marian_texts,
                    'cases': [{'ids': marian_ids(t) + [vocab['</s>']], 'idsWithoutSpecial': marian_ids(t)}
                              for t in marian_texts]}
print('marian-en-pt', sum(len(c['ids']) for c in result['marian']['cases']), 'tokens')

# One case per line keeps the file readable in a diff.
lines = ['{', ' "library": ' + json.dumps(result['library'], ensure_ascii=False) + ',', ' "models": {']
names = list(result['models'])
for i, name in enumerate(names):
    model = result['models'][name]
    lines.append('  ' + json.dumps(name) + ': {"size": %d, "unk_id": %d, "cases": [' % (model['size'], model['unk_id']))
    for k, case in enumerate(model['cases']):
        lines.append('   ' + json.dumps(case, ensure_ascii=False) + (',' if k + 1 < len(model['cases']) else ''))
    lines.append('  ]}' + (',' if i + 1 < len(names) else ''))
lines += [' },', ' "marian-en-pt": {"texts": ' + json.dumps(marian_texts, ensure_ascii=False) + ', "cases": [']
for k, case in enumerate(result['marian']['cases']):
    lines.append('  ' + json.dumps(case) + (',' if k + 1 < len(marian_texts) else ''))
lines += [' ]}', '}']
with open(os.path.join(here, 'spm_expected.json'), 'w', encoding='utf-8') as f:
    f.write('\n'.join(lines) + '\n')
