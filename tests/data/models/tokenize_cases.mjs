// Token ids for the test cases of tests/data/models, from Hugging Face's own tokenizers library
// (the Rust crate through its official Node bindings, npm package "tokenizers").
//
// How it was run (Node 20.20.2, npm 11.19.1, tokenizers 0.23.2; outside the repository):
//   mkdir -p /tmp/fixture-node && cd /tmp/fixture-node && npm init -y && npm install tokenizers@0.23.2
//   cd <repo> && /usr/bin/python3 tests/data/models/make_tiny_models.py --tokenize
// make_tiny_models.py pipes {"folders": {"<folder>": ["text", ...]}} into
//   FIXTURE_NODE=/tmp/fixture-node node tests/data/models/tokenize_cases.mjs tests/data/models
// and stores what this prints in token_ids.json (committed). By hand:
//   /usr/bin/python3 tests/data/models/make_tiny_models.py --print-requests \
//     | node tests/data/models/tokenize_cases.mjs tests/data/models
// Tests and CI never run this; they read token_ids.json / expected.json.
//
// A folder with tokenizer.json is loaded as it is (Tokenizer.fromFile). The two folders with
// only the older files are built the way transformers' slow->fast converters build them:
//   vocab.json + merges.txt (GPT2Converter): BPE(vocab, merges, continuing_subword_prefix "",
//     end_of_word_suffix "", fuse_unk false), ByteLevel pre-tokenizer (add_prefix_space false),
//     ByteLevel post-processor (trim_offsets false), ByteLevel decoder; <|endoftext|> added.
//   vocab.txt (BertConverter): WordPiece(unk [UNK], ##, 100), BertNormalizer(clean_text,
//     handle_chinese_chars, strip_accents null, lowercase = do_lower_case of
//     tokenizer_config.json), BertPreTokenizer, TemplateProcessing "[CLS]:0 $A:0 [SEP]:0",
//     WordPiece decoder; [PAD] [UNK] [CLS] [SEP] [MASK] added as special tokens.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const nodeDir = process.env.FIXTURE_NODE || '/tmp/fixture-node';
const require = createRequire(path.join(nodeDir, 'package.json'));
const { Tokenizer } = require('tokenizers');
const version = JSON.parse(
  fs.readFileSync(path.join(nodeDir, 'node_modules', 'tokenizers', 'package.json'), 'utf8')).version;

const modelsDir = process.argv[2] || path.dirname(new URL(import.meta.url).pathname);
const request = JSON.parse(fs.readFileSync(0, 'utf8'));

function addedToken(id, content, normalized) {
  return { id, content, single_word: false, lstrip: false, rstrip: false, normalized, special: true };
}

function byteLevel(addPrefixSpace, trimOffsets) {
  return { type: 'ByteLevel', add_prefix_space: addPrefixSpace, trim_offsets: trimOffsets, use_regex: true };
}

function gpt2FromLegacyFiles(dir) {
  const vocab = JSON.parse(fs.readFileSync(path.join(dir, 'vocab.json'), 'utf8'));
  const merges = fs.readFileSync(path.join(dir, 'merges.txt'), 'utf8').split('\n')
    .filter((line, i) => line.length > 0 && !(i === 0 && line.startsWith('#version')));
  const eot = '<|endoftext|>';
  return Tokenizer.fromString(JSON.stringify({
    version: '1.0', truncation: null, padding: null,
    added_tokens: [addedToken(vocab[eot], eot, true)],
    normalizer: null,
    pre_tokenizer: byteLevel(false, true),
    post_processor: byteLevel(true, false),
    decoder: byteLevel(true, true),
    model: {
      type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '',
      fuse_unk: false, byte_fallback: false, vocab, merges,
    },
  }));
}

function bertFromVocabTxt(dir) {
  const toks = fs.readFileSync(path.join(dir, 'vocab.txt'), 'utf8').split('\n');
  if (toks[toks.length - 1] === '') toks.pop();
  const vocab = Object.fromEntries(toks.map((t, i) => [t, i]));
  const cfgPath = path.join(dir, 'tokenizer_config.json');
  const cfg = fs.existsSync(cfgPath) ? JSON.parse(fs.readFileSync(cfgPath, 'utf8')) : {};
  const lowercase = cfg.do_lower_case ?? true;
  const specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].sort((a, b) => vocab[a] - vocab[b]);
  const tpl = (id, typeId) => ({ SpecialToken: { id, type_id: typeId } });
  const seq = (id, typeId) => ({ Sequence: { id, type_id: typeId } });
  return Tokenizer.fromString(JSON.stringify({
    version: '1.0', truncation: null, padding: null,
    added_tokens: specials.map((s) => addedToken(vocab[s], s, false)),
    normalizer: {
      type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [tpl('[CLS]', 0), seq('A', 0), tpl('[SEP]', 0)],
      pair: [tpl('[CLS]', 0), seq('A', 0), tpl('[SEP]', 0), seq('B', 1), tpl('[SEP]', 1)],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [vocab['[CLS]']], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [vocab['[SEP]']], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab,
    },
  }));
}

function load(dir) {
  if (fs.existsSync(path.join(dir, 'tokenizer.json'))) return ['tokenizer.json', Tokenizer.fromFile(path.join(dir, 'tokenizer.json'))];
  if (fs.existsSync(path.join(dir, 'merges.txt'))) return ['vocab.json+merges.txt', gpt2FromLegacyFiles(dir)];
  if (fs.existsSync(path.join(dir, 'vocab.txt'))) return ['vocab.txt', bertFromVocabTxt(dir)];
  throw new Error(`${dir}: no tokenizer files`);
}

const out = { package: 'tokenizers', version, folders: {} };
for (const [folder, texts] of Object.entries(request.folders)) {
  const [source, tok] = load(path.join(modelsDir, folder));
  const cases = [];
  for (const text of texts) {
    const enc = await tok.encode(text, null, { addSpecialTokens: true });
    cases.push({ text, ids: enc.getIds(), tokens: enc.getTokens() });
  }
  out.folders[folder] = { source, size: tok.getVocabSize(true), cases };
}
process.stdout.write(JSON.stringify(out) + '\n');
