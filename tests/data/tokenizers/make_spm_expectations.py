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
# Offsets are converted from characters (Unicode scalar values) to UTF-16 code units, the
# offsets SentencePieceModel gives on a QString.
import json
import os

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

# One case per line keeps the file readable in a diff.
lines = ['{', ' "library": ' + json.dumps(result['library'], ensure_ascii=False) + ',', ' "models": {']
names = list(result['models'])
for i, name in enumerate(names):
    model = result['models'][name]
    lines.append('  ' + json.dumps(name) + ': {"size": %d, "unk_id": %d, "cases": [' % (model['size'], model['unk_id']))
    for k, case in enumerate(model['cases']):
        lines.append('   ' + json.dumps(case, ensure_ascii=False) + (',' if k + 1 < len(model['cases']) else ''))
    lines.append('  ]}' + (',' if i + 1 < len(names) else ''))
lines += [' }', '}']
with open(os.path.join(here, 'spm_expected.json'), 'w', encoding='utf-8') as f:
    f.write('\n'.join(lines) + '\n')
