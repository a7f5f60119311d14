// Hostile tokenizer.json files drawn from a seed, in three families: regexes made to backtrack (nested
// and chained repeats, alternatives, optional parts) in a Split pre-tokenizer, a Replace normalizer or
// a Replace decoder, over texts made to defeat them; size bombs (a Replace that multiplies the text, a
// long Metaspace replacement or Prepend, a huge added token or vocabulary, a long text with a small
// limit, thousands of rules in a row); and decoders that write far more than a piece per token. Each
// case is a tokenizer.json object, a text, and the number of ids wanted (undefined: all).
import { between, seeded } from './random.js';
import { gpt2Style, llama2Style, llama3Style } from './tokenizer-fixtures.js';

type Json = Record<string, unknown>;

export interface HostileCase {
  name: string;
  json: Json;
  text: string;
  limit?: number;
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[between(rand, 0, items.length - 1)];

const ATOMS = ['a', 'a', 'b', '[ab]', '\\s', '.', '\\p{L}', '\\S', ' ', '(?:a|aa)', '(?:a?a)'];
const QUANTIFIERS = ['', '', '?', '*', '+', '{0,3}', '{1,40}', '{2,}', '*?'];

/**
 * Optional parts before a repeat that gives back ("a?a?a?…a*b", 2^k × w steps a place), or bounded
 * repeats nested and in a row ("(?:(?:ab){1,3}c{0,4}){0,5}…"): a cost that a window of any length may
 * not bound, refused by its shape or run within it.
 */
export function choicesRegex(rand: () => number): string {
  const atom = pick(rand, ['a', '[ab]', '\\p{L}', '\\s', '.']);
  if (rand() < 0.5) return `${`${atom}?`.repeat(between(rand, 2, 14))}${atom}${pick(rand, ['*', '+', '{2,}'])}${pick(rand, ['b', '$', '(?!\\S)', 'c'])}`;
  // A fixed body may be repeated (its count is the only choice); a varying one is refused at once.
  const inner = `(?:${atom}{${between(rand, 1, 3)}}${pick(rand, ['', 'c', 'c', 'b?'])})`;
  return `(?:${inner}{${between(rand, 1, 3)}}){0,${between(rand, 2, 16)}}${atom}{0,${between(rand, 1, 16)}}${atom}*${pick(rand, ['b', '$', ''])}`;
}

/** A regex of up to two alternatives of up to four quantified atoms or groups, groups nesting once. */
export function hostileRegex(rand: () => number, depth = 0): string {
  if (depth === 0 && rand() < 0.15) return choicesRegex(rand);
  const alternatives = Array.from({ length: between(rand, 1, 2) }, () => {
    const items = Array.from({ length: between(rand, 1, 4) }, () => {
      // Groups are mostly left unrepeated: a repeated group is refused at once, and the family should
      // also hold patterns that pass the shape check and meet the windows and the time budget.
      if (depth < 1 && rand() < 0.25) return `(${hostileRegex(rand, depth + 1)})${pick(rand, ['', '', '', '?', '+', '*'])}`;
      return pick(rand, ATOMS) + pick(rand, QUANTIFIERS);
    });
    return items.join('');
  });
  return alternatives.join('|') + (rand() < 0.3 ? pick(rand, ['$', 'c', '(?!\\S)', 'b']) : '');
}

/** A text made of long runs of what hostile regexes repeat, ending in what makes them fail. */
function hostileText(rand: () => number, length: number): string {
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const run = pick(rand, ['a', 'b', ' ', 'ab', 'aa', '\n', 'x']).repeat(between(rand, 1, Math.max(1, length >> between(rand, 0, 6))));
    parts.push(run);
    size += run.length;
  }
  return parts.join('').slice(0, length) + pick(rand, ['', 'c', '!', ' ']);
}

const splitAt = (regex: string, behavior: string): Json => ({ type: 'Split', pattern: { Regex: regex }, behavior, invert: false });

/** Regexes in every place that runs one. */
export function regexCases(seed: number, count: number): HostileCase[] {
  const rand = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const regex = hostileRegex(rand);
    const text = hostileText(rand, between(rand, 16, 60_000));
    const place = between(rand, 0, 2);
    let json: Json;
    if (place === 0) {
      json = llama3Style([]).json;
      ((json.pre_tokenizer as Json).pretokenizers as Json[]).unshift(splitAt(regex, pick(rand, ['Isolated', 'Removed'])));
    } else if (place === 1) {
      json = gpt2Style([]);
      json.normalizer = { type: 'Sequence', normalizers: [{ type: 'NFC' }, { type: 'Replace', pattern: { Regex: regex }, content: pick(rand, ['', 'x', 'ab']) }] };
    } else {
      json = llama2Style(['\u2581', 'a', '\u2581a'], [['\u2581', 'a']]);
      json.decoder = { type: 'Sequence', decoders: [{ type: 'Replace', pattern: { Regex: regex }, content: pick(rand, ['', ' ', 'xy']) }, { type: 'ByteFallback' }, { type: 'Fuse' }] };
    }
    return { name: `regex ${i} (seed ${seed}) ${JSON.stringify(regex)} in ${['a Split', 'a Replace normalizer', 'a Replace decoder'][place]}, ${text.length} characters`, json, text };
  });
}

/** Rules and sizes that multiply the work or the memory, each within the file's byte budget. */
export function sizeCases(seed: number, count: number): HostileCase[] {
  const rand = seeded(seed);
  const kinds = ['replace', 'metaspace', 'prepend', 'added', 'long-text', 'rules'] as const;
  return Array.from({ length: count }, (_, i) => {
    const kind = kinds[i % kinds.length];
    const big = (most: number) => Math.round(most ** rand());
    let json: Json, text: string, limit: number | undefined;
    if (kind === 'replace') {
      json = gpt2Style([]);
      const members = Array.from({ length: between(rand, 1, 6) }, () => ({ type: 'Replace', pattern: pick(rand, [{ String: '' }, { Regex: '.' }, { Regex: '' }, { String: 'a' }]), content: 'z'.repeat(big(2000)) }));
      json.normalizer = { type: 'Sequence', normalizers: members };
      text = 'a'.repeat(big(500_000));
    } else if (kind === 'metaspace') {
      json = llama2Style([], [], 'metaspace');
      (json.pre_tokenizer as Json).replacement = '\u2581'.repeat(big(100_000));
      text = ' '.repeat(big(1_000_000));
    } else if (kind === 'prepend') {
      json = llama2Style([], []);
      ((json.normalizer as Json).normalizers as Json[])[0] = { type: 'Prepend', prepend: '\u2581'.repeat(big(1_000_000)) };
      text = 'a b '.repeat(big(10_000));
    } else if (kind === 'added') {
      json = gpt2Style([]);
      (json.added_tokens as Json[]).push({ id: 300, content: 'q'.repeat(big(12_000_000)), special: rand() < 0.5, normalized: rand() < 0.5 });
      json.normalizer = rand() < 0.5 ? null : { type: 'Replace', pattern: { String: 'q' }, content: 'qq' };
      text = 'q'.repeat(big(100_000));
    } else if (kind === 'rules') {
      json = gpt2Style([]);
      json.normalizer = { type: 'Sequence', normalizers: Array.from({ length: big(10_000) }, () => ({ type: pick(rand, ['NFC', 'NFKC', 'Lowercase', 'StripAccents']) })) };
      text = 'Ab\u00e9\ufdfa '.repeat(big(400_000));
    } else {
      json = rand() < 0.5 ? llama3Style([]).json : gpt2Style([]);
      const length = big(8_000_000);
      const unit = pick(rand, ['the cat sat on the mat. ', 'x', ' ', 'ab\n']);
      text = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
      limit = between(rand, 1, 64);
    }
    return { name: `${kind} ${i} (seed ${seed}): ${JSON.stringify(json).length} bytes of tokenizer.json, ${text.length} characters of text${limit ? `, ${limit} ids` : ''}`, json, text, ...(limit ? { limit } : {}) };
  });
}

/** A vocabulary of `pieces` pieces over gpt2Style's (GPT-2's 256 bytes first). */
export function vocabularyCase(pieces: number): HostileCase {
  const json = gpt2Style([]);
  const vocab = (json.model as Json).vocab as Record<string, number>;
  for (let i = 0; i < pieces; i++) vocab[`p${i}`] = 300 + i;
  return { name: `a vocabulary of ${pieces} pieces`, json, text: 'the cat' };
}

/** Decoders whose Replace rules write far more than the piece, alone or chained. */
export function decoderCases(seed: number, count: number): HostileCase[] {
  const rand = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const json = llama2Style(['\u2581', 'a', '\u2581a'], [['\u2581', 'a']]);
    const content = 'D'.repeat(Math.round(4_000_000 ** rand()));
    const replace = () => ({ type: 'Replace', pattern: pick(rand, [{ String: '' }, { Regex: '.' }, { String: '\u2581' }, { Regex: '' }]), content });
    json.decoder = { type: 'Sequence', decoders: [...Array.from({ length: between(rand, 1, 5) }, replace), { type: 'ByteFallback' }, { type: 'Fuse' }] };
    const replaces = ((json.decoder as Json).decoders as unknown[]).length - 2;
    return { name: `decoder ${i} (seed ${seed}): ${replaces} Replaces of ${content.length} characters`, json, text: ' a aa a'.repeat(between(rand, 1, 200)) };
  });
}
