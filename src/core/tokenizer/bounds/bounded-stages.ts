// The library's rules that run a tokenizer.json pattern or can grow a text, redone with bounds and
// the same results: a Replace (normalizer or decoder) over bounded-regex.ts's windows that stops as soon
// as its output passes its budget, and a Split pre-tokenizer over the same windows.
import { eachMatch } from './bounded-regex.js';
import { TokenizerError } from '../tokenizer.js';

/**
 * text.replaceAll(regex, content) for a content without "$" patterns (check-json refuses them), refused
 * with `key` named once the output would pass `limit` characters (the budget of an input of `base`).
 */
export function boundedReplace(text: string, regex: RegExp, content: string, limit: number, key: string, base = text.length): string {
  const refuse = () => new TokenizerError(`tokenizer.json: the Replace at "${key}" makes a text of ${base} characters longer than ${limit}: such growth is not supported`);
  const parts: string[] = [];
  let prev = 0, size = 0;
  eachMatch(text, regex, `${key}.pattern`, (m, s) => {
    size += s - prev + content.length;
    if (size > limit) throw refuse();
    parts.push(text.slice(prev, s), content);
    prev = s + m[0].length;
  });
  if (size + text.length - prev > limit) throw refuse();
  parts.push(text.slice(prev));
  return parts.join('');
}

/** How a Split keeps its matches (tokenizer.json's "behavior"). */
export type SplitBehavior = 'Isolated' | 'Removed' | 'MergedWithPrevious' | 'MergedWithNext';

/**
 * The Split pre-tokenizer. "Isolated" keeps matches and the text between as pieces; "Removed" drops the
 * matches (keeping their groups, as the library's String.split does); "MergedWithPrevious" joins a match
 * to the text before it, and "MergedWithNext" to the text after it, as the Rust library does: a match
 * right after another match (or, merging with the next, right before one) stays a piece of its own.
 * `removed` true stands for "Removed" and false for "Isolated".
 */
export function boundedSplit(text: string, regex: RegExp, behavior: SplitBehavior | boolean, key: string): string[] {
  const how: SplitBehavior = behavior === true ? 'Removed' : behavior === false ? 'Isolated' : behavior;
  const parts: [string, boolean][] = [];
  let prev = 0;
  eachMatch(text, regex, key, (m, s) => {
    if (prev < s) parts.push([text.slice(prev, s), false]);
    if (how === 'Removed') {
      for (let g = 1; g < m.length; g++) if (m[g]) parts.push([m[g], false]);
    } else if (m[0].length > 0) parts.push([m[0], true]);
    prev = s + m[0].length;
  });
  if (prev < text.length) parts.push([text.slice(prev), false]);
  if (how === 'MergedWithPrevious') return merged(parts, (a, b) => a + b);
  if (how === 'MergedWithNext') return merged(parts.reverse(), (a, b) => b + a).reverse();
  return parts.map(([t]) => t);
}

/** Each match joined by `join` to the piece met before it in `parts`' order, unless that piece is a match too. */
function merged(parts: [string, boolean][], join: (piece: string, match: string) => string): string[] {
  const out: string[] = [];
  let lastMatch = false;
  for (const [t, isMatch] of parts) {
    if (isMatch && !lastMatch && out.length > 0) out[out.length - 1] = join(out[out.length - 1], t);
    else out.push(t);
    lastMatch = isMatch;
  }
  return out;
}
