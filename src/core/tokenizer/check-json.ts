// The checks tokenizer.json (or the GPT-2 pair vocab.json + merges.txt) must pass before the library
// builds a tokenizer from it: a byte-level or SentencePiece-style BPE whose merges name pieces of its
// vocabulary, and only the normalizers, pre-tokenizers, post-processors and decoders whose rules the
// library reproduces exactly. Anything else is refused in a sentence that names the file, rather than
// tokenized differently from the model's own tokenizer (which would silently change every attention row).
import { isObject, type Obj } from '../json/object.js';
import { shown } from '../json/shown.js';
import { MAX_ADDED, MAX_ADDED_CHARS, MAX_ID, MAX_INSERT, MAX_PATTERN, MAX_PIECE, MAX_VOCAB } from './bounds/limits.js';
import { regexRefusal } from './bounds/regex-safety.js';
import { checkUnigram, checkWordPiece, modelPieces } from './check-models.js';
import { TokenizerError } from './tokenizer.js';

/** Where each part of the BPE model came from, so a message names the file at fault. */
export interface ModelSources {
  vocab: string;
  merges: string;
  /** How merge number `index` (0-based) is named in messages, e.g. "merges[3]" or "line 5". */
  mergeAt: (index: number) => string;
}

export const TOKENIZER_JSON: ModelSources = {
  vocab: 'tokenizer.json',
  merges: 'tokenizer.json',
  mergeAt: (i) => `model.merges[${i}]`,
};

/**
 * The component types accepted, per slot: those that byte-level and SentencePiece-style BPE, BERT's
 * WordPiece and T5's Unigram files use, each either the library's own where it reproduces the Rust
 * library or ours (see parts/own-parts.ts). Left out on purpose: Whitespace, whose JavaScript \w is ASCII where
 * the Rust library's is Unicode.
 */
const SUPPORTED: Record<string, readonly string[]> = {
  normalizer: ['Sequence', 'NFC', 'NFD', 'NFKC', 'NFKD', 'Lowercase', 'Strip', 'StripAccents', 'Replace', 'Prepend', 'BertNormalizer', 'Precompiled'],
  pre_tokenizer: ['Sequence', 'ByteLevel', 'Split', 'Metaspace', 'BertPreTokenizer', 'WhitespaceSplit'],
  post_processor: ['Sequence', 'TemplateProcessing', 'ByteLevel', 'RobertaProcessing', 'BertProcessing'],
  decoder: ['Sequence', 'ByteLevel', 'Metaspace', 'ByteFallback', 'Fuse', 'Strip', 'Replace', 'WordPiece'],
};
/** The key under which a Sequence lists its members, per slot. */
const MEMBERS: Record<string, string> = {
  normalizer: 'normalizers',
  pre_tokenizer: 'pretokenizers',
  post_processor: 'processors',
  decoder: 'decoders',
};
/** Split behaviours that bounds/bounded-stages.ts reproduces (Contiguous is left out: no real file uses it). */
const SPLIT_BEHAVIOURS = ['Isolated', 'Removed', 'MergedWithPrevious', 'MergedWithNext'];

const fail = (file: string, what: string): never => {
  throw new TokenizerError(`${file}: ${what}`);
};

/** JSON.parse with the file named in the message (a deep nesting's RangeError included). */
export function parseJsonFile(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    return fail(file, `is not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** Checks a parsed tokenizer.json in place and fills the slots the library requires but files may omit. */
export function checkTokenizerJson(root: unknown, sources: ModelSources = TOKENIZER_JSON): Obj {
  const file = 'tokenizer.json';
  if (!isObject(root)) fail(sources.vocab, 'is not a JSON object');
  const json = root as Obj;
  const model = json.model;
  if (!isObject(model)) fail(file, 'has no "model" object');
  checkModel(model as Obj, sources);
  const pieces = modelPieces(model as Obj);
  return checkParts(json, (piece) => pieces.get(piece));
}

/**
 * Checks everything but the model's vocabulary and merges, in place (the slots the library requires
 * but files may omit are filled): `pieceId` gives a vocabulary piece's id. Also run on a cached
 * tokenizer (cache/digest-bytes.ts), whose rules are read again from data that may have been tampered with.
 */
export function checkParts(json: Obj, pieceId: (piece: string) => number | undefined): Obj {
  const file = 'tokenizer.json';
  for (const slot of Object.keys(SUPPORTED)) {
    if (json[slot] === undefined) json[slot] = null;
    checkComponent(json[slot], slot, slot, file);
    if (rules(json[slot], MEMBERS[slot]) > MAX_RULES) fail(file, `"${slot}" holds more than ${MAX_RULES} rules (its Sequences included), over what is supported (real files hold a few)`);
  }
  if (json.added_tokens === undefined) json.added_tokens = [];
  const added = checkAddedTokens(json.added_tokens, file);
  checkTemplateTokens(json.post_processor, (piece) => added.get(piece) ?? pieceId(piece), file);
  return json;
}

function checkModel(model: Obj, sources: ModelSources): void {
  const type = model.type;
  if (type === 'WordPiece') return checkWordPiece(model, (vocab) => checkVocabObject(vocab, sources));
  if (type === 'Unigram') return checkUnigram(model);
  if (type !== undefined && type !== 'BPE') fail('tokenizer.json', `the model type ${shown(type)} is not supported (only BPE, WordPiece and Unigram)`);
  checkVocabObject(model.vocab, sources);
  const vocab = model.vocab as Obj;
  checkBpe(model, vocab, sources);
}

/** A { piece: id } vocabulary (BPE's and WordPiece's): sizes, and each id a whole number in range. */
function checkVocabObject(vocab: unknown, sources: ModelSources): void {
  if (!isObject(vocab)) return fail(sources.vocab, 'has no vocabulary object (model.vocab: { piece: id })');
  let count = 0;
  for (const piece in vocab) {
    if (++count > MAX_VOCAB) fail(sources.vocab, `the vocabulary (model.vocab) holds more than ${MAX_VOCAB.toLocaleString('en-US')} pieces, over what is supported (the largest real ones hold about 260,000)`);
    if (piece.length > MAX_PIECE) fail(sources.vocab, `the vocabulary (model.vocab) has a piece of ${piece.length.toLocaleString('en-US')} characters, over the ${MAX_PIECE} supported`);
    const id = vocab[piece];
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) {
      fail(sources.vocab, `the vocabulary gives ${shown(piece)} the id ${shown(id)}, not a whole number ≥ 0`);
    }
    if ((id as number) > MAX_ID) fail(sources.vocab, `the vocabulary gives ${shown(piece)} the id ${shown(id)}, over the largest supported (${MAX_ID.toLocaleString('en-US')})`);
  }
}

function checkBpe(model: Obj, vocab: Obj, sources: ModelSources): void {
  const merges = model.merges ?? [];
  if (!Array.isArray(merges)) return fail(sources.merges, 'the merges are not a list');
  if (merges.length > MAX_VOCAB) fail(sources.merges, `the merges (model.merges) are ${merges.length.toLocaleString('en-US')}, over the ${MAX_VOCAB.toLocaleString('en-US')} supported`);
  const pairs: [string, string][] = [];
  merges.forEach((merge: unknown, i) => {
    let pair: unknown[];
    if (typeof merge === 'string') pair = merge.split(' ');
    else if (Array.isArray(merge)) pair = merge;
    else return fail(sources.merges, `${sources.mergeAt(i)} is neither "a b" nor ["a", "b"]`);
    if (pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string' || !pair[0] || !pair[1]) {
      fail(sources.merges, `${sources.mergeAt(i)} (${shown(merge)}) is not two pieces`);
    }
    const [a, b] = pair as [string, string];
    for (const piece of [a, b, a + b]) {
      if (!Object.hasOwn(vocab, piece)) {
        fail(sources.merges, `${sources.mergeAt(i)} (${shown(merge)}) names ${shown(piece)}, which is not in the vocabulary`);
      }
    }
    pairs.push([a, b]);
  });
  // The library reads the format from the first merge: give it one format throughout.
  model.merges = pairs;
  checkBpeOptions(model, (piece) => Object.hasOwn(vocab, piece));
}

/** A BPE model's keys beside its vocabulary and merges; `has` says whether a piece is in the vocabulary. */
export function checkBpeOptions(model: Obj, has: (piece: string) => boolean): void {
  const prefix = model.continuing_subword_prefix;
  if (typeof prefix === 'string' && prefix !== '') fail('tokenizer.json', 'a BPE with a continuing_subword_prefix is not supported');
  const suffix = model.end_of_word_suffix;
  if (typeof suffix === 'string' && suffix !== '') fail('tokenizer.json', 'a BPE with an end_of_word_suffix is not supported');
  if (typeof model.dropout === 'number' && model.dropout > 0) fail('tokenizer.json', 'a BPE with dropout (random merges) is not supported');
  if (model.unk_token !== undefined && model.unk_token !== null) {
    if (typeof model.unk_token !== 'string' || !has(model.unk_token)) {
      fail('tokenizer.json', `the unk_token ${shown(model.unk_token)} is not in the vocabulary`);
    }
  }
}

/** Sequences nested deeper than this are refused (real files nest two or three; 100,000 overflowed the stack). */
const MAX_NESTING = 16;
/** Rules in one slot, Sequences included: each is a pass over the whole text. */
const MAX_RULES = 64;

/** How many rules a (checked) component holds, itself included. */
function rules(node: unknown, members: string): number {
  if (!isObject(node)) return 0;
  const list = node[members];
  return 1 + (node.type === 'Sequence' && Array.isArray(list) ? list.reduce((sum: number, m) => sum + rules(m, members), 0) : 0);
}

function checkComponent(node: unknown, slot: string, where: string, file: string, depth = 0): void {
  if (node === null) return;
  if (depth > MAX_NESTING) return fail(file, `the Sequences at "${where.split('.').slice(0, MAX_NESTING + 1).join('.')}" are nested more than ${MAX_NESTING} deep`);
  if (!isObject(node)) return fail(file, `"${where}" is not an object`);
  const type = node.type;
  if (typeof type !== 'string' || !SUPPORTED[slot].includes(type)) {
    fail(file, `the ${slot.replace('_', '-')} type ${shown(type)} (at "${where}") is not supported`);
  }
  if (type === 'Sequence') {
    const members = node[MEMBERS[slot]];
    if (!Array.isArray(members)) return fail(file, `the Sequence at "${where}" has no "${MEMBERS[slot]}" list`);
    members.forEach((m, i) => checkComponent(m, slot, `${where}.${MEMBERS[slot]}[${i}]`, file, depth + 1));
    return;
  }
  if ((slot === 'pre_tokenizer' && type === 'Split') || type === 'Replace') checkPattern(node.pattern, where, file);
  if (type === 'Replace') checkInsert(node.content, `${where}.content`, file, true);
  if (type === 'Prepend') checkInsert(node.prepend, `${where}.prepend`, file, false);
  if (type === 'Metaspace') {
    checkInsert(node.replacement, `${where}.replacement`, file, false);
    checkInsert(node.str_rep, `${where}.str_rep`, file, false);
  }
  if (slot === 'pre_tokenizer' && type === 'Split') {
    if (!SPLIT_BEHAVIOURS.includes(node.behavior as string)) {
      fail(file, `the Split behavior ${shown(node.behavior)} (at "${where}") is not supported (only Isolated, Removed, MergedWithPrevious and MergedWithNext)`);
    }
    if (node.invert === true) fail(file, `an inverted Split (at "${where}") is not supported`);
  }
  if (slot === 'pre_tokenizer' && type === 'Metaspace') checkMetaspace(node, where, file, depth);
  if (slot === 'decoder' && type === 'WordPiece') {
    // A token decoded alone drops the first-token rule of the WordPiece decoder (decode-one.ts), which it can only do at the top.
    if (depth > 0) fail(file, `a WordPiece decoder inside a Sequence (at "${where}") is not supported`);
    checkInsert(node.prefix, `${where}.prefix`, file, false);
  }
}

/**
 * The Metaspace pre-tokenizer is ours (parts/own-parts.ts): its prepend scheme must be one the Rust library
 * knows, and "first" (a "▁" before the text's first piece only) must see the text whole, as the first
 * pre-tokenizer.
 */
function checkMetaspace(node: Obj, where: string, file: string, depth: number): void {
  const scheme = node.prepend_scheme;
  if (scheme !== undefined && scheme !== 'first' && scheme !== 'always' && scheme !== 'never') {
    fail(file, `"${where}.prepend_scheme" is ${shown(scheme)}, not "first", "always" or "never"`);
  }
  if (node.split !== undefined && typeof node.split !== 'boolean') fail(file, `"${where}.split" is ${shown(node.split)}, not true or false`);
  if (scheme === 'first' && depth > 0 && !where.endsWith('.pretokenizers[0]')) {
    fail(file, `a Metaspace with prepend_scheme "first" after another pre-tokenizer (at "${where}") is not supported`);
  }
}

function checkPattern(pattern: unknown, where: string, file: string): void {
  if (!isObject(pattern) || (typeof pattern.Regex !== 'string' && typeof pattern.String !== 'string')) {
    fail(file, `the pattern at "${where}" is neither { "Regex": … } nor { "String": … }`);
  }
  const { Regex: regex, String: string } = pattern as Obj;
  const key = `${where}.pattern.${typeof regex === 'string' ? 'Regex' : 'String'}`;
  const source = typeof regex === 'string' ? regex : String(string);
  if (source.length > MAX_PATTERN) fail(file, `the pattern at "${key}" is ${source.length.toLocaleString('en-US')} characters long, over the ${MAX_PATTERN} supported`);
  const why = typeof regex === 'string' ? regexRefusal(regex) : undefined;
  if (why !== undefined) fail(file, `the pattern at "${key}" ${why}, so it is not supported`);
}

/**
 * A text a rule inserts (a Replace's content, a Prepend, a Metaspace replacement): short, and for a
 * Replace without the "$&"-style patterns that JavaScript's replace reads and the Rust library does not.
 */
function checkInsert(text: unknown, key: string, file: string, replace: boolean): void {
  if (typeof text !== 'string') return;
  if (text.length > MAX_INSERT) fail(file, `"${key}" is ${text.length.toLocaleString('en-US')} characters long, over the ${MAX_INSERT} supported (real files insert one)`);
  if (replace && /\$[$&`'0-9<]/.test(text)) fail(file, `"${key}" holds ${shown(/\$[$&`'0-9<]/.exec(text)?.[0])}, a substitution pattern, which is not supported`);
}

/** The added tokens' contents with their ids, each checked. */
function checkAddedTokens(list: unknown, file: string): Map<string, number> {
  if (!Array.isArray(list)) return fail(file, '"added_tokens" is not a list');
  const contents = new Map<string, number>();
  if (list.length > MAX_ADDED) fail(file, `"added_tokens" holds ${list.length.toLocaleString('en-US')} tokens, over the ${MAX_ADDED.toLocaleString('en-US')} supported`);
  let chars = 0;
  list.forEach((token: unknown, i) => {
    const at = `added_tokens[${i}]`;
    if (!isObject(token)) return fail(file, `${at} is not an object`);
    if (typeof token.content !== 'string' || token.content === '') fail(file, `${at} has no content string`);
    const length = (token.content as string).length;
    if (length > MAX_PIECE) fail(file, `${at}.content is ${length.toLocaleString('en-US')} characters long, over the ${MAX_PIECE} supported`);
    chars += length;
    if (chars > MAX_ADDED_CHARS) fail(file, `"added_tokens" hold more than ${MAX_ADDED_CHARS.toLocaleString('en-US')} characters in all (at ${at}), over what is supported`);
    if (typeof token.id !== 'number' || !Number.isInteger(token.id) || token.id < 0) fail(file, `${at} has no whole-number id`);
    if ((token.id as number) > MAX_ID) fail(file, `${at}.id is ${shown(token.id)}, over the largest supported (${MAX_ID.toLocaleString('en-US')})`);
    if (token.single_word === true) fail(file, `${at} (${shown(token.content)}) is a single_word token, which is not supported`);
    contents.set(token.content as string, token.id as number);
  });
  return contents;
}

/**
 * Every special token a post-processor adds must have an id, and the one the file gives it where it gives
 * one: the library adds the token by its text and looks its id up, where the Rust library adds the ids
 * written in the post-processor, so the two must agree.
 */
function checkTemplateTokens(node: unknown, ids: (piece: string) => number | undefined, file: string, where = 'post_processor'): void {
  if (!isObject(node)) return;
  if (node.type === 'Sequence' && Array.isArray(node.processors)) {
    node.processors.forEach((p, i) => checkTemplateTokens(p, ids, file, `${where}.processors[${i}]`));
    return;
  }
  if (node.type === 'BertProcessing' || node.type === 'RobertaProcessing') {
    for (const key of ['cls', 'sep']) {
      const pair = node[key];
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'number') {
        return fail(file, `"${where}.${key}" is ${shown(pair)}, not [token, id]`);
      }
      const known = ids(pair[0]);
      if (known === undefined) fail(file, `the post-processor adds the token ${shown(pair[0])} (at "${where}.${key}"), which is neither an added token nor in the vocabulary`);
      if (known !== pair[1]) fail(file, `"${where}.${key}" gives ${shown(pair[0])} the id ${pair[1]}, where the vocabulary gives it ${known}`);
    }
    return;
  }
  if (node.type !== 'TemplateProcessing') return;
  if (!Array.isArray(node.single)) fail(file, 'the TemplateProcessing post-processor has no "single" template');
  const table = isObject(node.special_tokens) ? node.special_tokens : {};
  for (const item of node.single as unknown[]) {
    if (!isObject(item)) return fail(file, 'the TemplateProcessing "single" template holds a non-object');
    const special = item.SpecialToken;
    if (special === undefined) continue;
    const id = isObject(special) ? special.id : undefined;
    const known = typeof id === 'string' ? ids(id) : undefined;
    if (typeof id !== 'string' || known === undefined) {
      return fail(file, `the post-processor adds the token ${shown(id)}, which is neither an added token nor in the vocabulary`);
    }
    const entry = table[id];
    if (entry === undefined) continue;
    const listed = isObject(entry) ? entry.ids : undefined;
    if (!Array.isArray(listed) || listed.length !== 1 || listed[0] !== known) {
      fail(file, `"${where}.special_tokens" gives ${shown(id)} the ids ${shown(listed)}, where the vocabulary gives it [${known}] (only one id per special token, the same, is supported)`);
    }
  }
}
