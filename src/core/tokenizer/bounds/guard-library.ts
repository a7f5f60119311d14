// Puts bounds on the library's tokenizer once built: its Replace normalizers and Split pre-tokenizers
// run through bounded-stages.ts (windows sized from the pattern's shape, an output budget), and every
// normalizer and the Metaspace pre-tokenizer are held to GROWTH × their input (NFKC and NFKD to
// NFK_GROWTH × theirs). The library's objects are patched in place (each is a function object whose
// call goes through the patched method), so its pipeline — added tokens, sections, the BPE and
// post-processor — stays the library's own.
import { isObject, type Obj } from '../../json/object.js';
import { boundedReplace, boundedSplit, type SplitBehavior } from './bounded-stages.js';
import { grown, NFK_GROWTH, SLACK } from './limits.js';
import { TokenizerError } from '../tokenizer.js';

type Part = Record<string, unknown> & ((...args: unknown[]) => unknown);
type Normalize = (text: string) => string;
type PreTokenize = (text: string, options?: unknown) => string[];

const patternKey = (config: Obj, where: string) => `${where}.pattern.${isObject(config.pattern) && typeof config.pattern.Regex === 'string' ? 'Regex' : 'String'}`;
const tooLong = (where: string, input: number, limit: number) => new TokenizerError(`tokenizer.json: the rule at "${where}" makes a text of ${input} characters longer than ${limit}: such growth is not supported`);

/** The library tokenizer's normalizer and pre-tokenizer, bounded; `json` is the checked tokenizer.json. */
export function guardLibrary(hf: { normalizer: unknown; pre_tokenizer: unknown }, json: Obj): void {
  if (typeof hf.normalizer === 'function' && isObject(json.normalizer)) {
    const top = hf.normalizer as Part;
    const state = { base: 0 };
    guardNormalizer(top, json.normalizer, 'normalizer', state);
    hf.normalizer = (text: string) => { state.base = text.length; return (top.normalize as Normalize)(text); };
  }
  if (typeof hf.pre_tokenizer === 'function' && isObject(json.pre_tokenizer)) {
    const top = hf.pre_tokenizer as Part;
    const state = { base: 0, produced: 0 };
    guardPreTokenizer(top, json.pre_tokenizer, 'pre_tokenizer', state);
    hf.pre_tokenizer = (text: string, options?: unknown) => {
      state.base = text.length;
      state.produced = 0;
      return (top.pre_tokenize as PreTokenize)(text, options);
    };
  }
}

function guardNormalizer(part: Part, config: Obj, where: string, state: { base: number }): void {
  if (config.type === 'Sequence') {
    const members = part.normalizers as (Part | null)[];
    const configs = config.normalizers as Obj[];
    members.forEach((m, i) => { if (m) guardNormalizer(m, configs[i], `${where}.normalizers[${i}]`, state); });
    return;
  }
  if (config.type === 'Replace') {
    const content = typeof config.content === 'string' ? config.content : '';
    part.normalize = (text: string) => (part.pattern instanceof RegExp ? boundedReplace(text, part.pattern, content, grown(state.base), where, state.base) : text);
    return;
  }
  const original = (part.normalize as Normalize).bind(part);
  const compat = config.type === 'NFKC' || config.type === 'NFKD';
  part.normalize = (text: string) => {
    const out = original(text);
    const limit = compat ? Math.max(grown(state.base), NFK_GROWTH * text.length + SLACK) : grown(state.base);
    if (out.length > limit) throw tooLong(where, state.base, limit);
    return out;
  };
}

function guardPreTokenizer(part: Part, config: Obj, where: string, state: { base: number; produced: number }): void {
  if (config.type === 'Sequence') {
    const members = part.tokenizers as (Part | null)[];
    const configs = config.pretokenizers as Obj[];
    members.forEach((m, i) => { if (m) guardPreTokenizer(m, configs[i], `${where}.pretokenizers[${i}]`, state); });
    return;
  }
  if (config.type === 'Split') {
    const behavior = config.behavior as SplitBehavior;
    part.pre_tokenize_text = (text: string) => (part.pattern instanceof RegExp ? boundedSplit(text, part.pattern, behavior, patternKey(config, where)) : []);
    return;
  }
  if (config.type === 'Metaspace') {
    // Every space becomes the replacement: the output's length is known before it is made.
    const original = (part.pre_tokenize_text as PreTokenize).bind(part);
    const replacement = String(part.str_rep ?? part.replacement ?? '');
    part.pre_tokenize_text = (text: string, options?: unknown) => {
      let spaces = 0;
      for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) spaces++;
      state.produced += text.length + spaces * Math.max(0, replacement.length - 1) + replacement.length;
      if (state.produced > grown(state.base)) throw tooLong(`${where}.replacement`, state.base, grown(state.base));
      return original(text, options);
    };
  }
}
