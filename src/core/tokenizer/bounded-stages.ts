// The library's rules that run a tokenizer.json pattern or can grow a text, redone with bounds and
// the same results: a Replace (normalizer or decoder) over bounded-regex.ts's windows that stops as soon
// as its output passes its budget, and a Split pre-tokenizer over the same windows.
import { eachMatch } from './bounded-regex.js';
import { TokenizerError } from './tokenizer.js';

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

/** The library's Split: "Isolated" keeps matches and the text between as pieces; "Removed" drops the matches (keeping their groups, as String.split does). */
export function boundedSplit(text: string, regex: RegExp, removed: boolean, key: string): string[] {
  const out: string[] = [];
  let prev = 0;
  eachMatch(text, regex, key, (m, s) => {
    if (prev < s) out.push(text.slice(prev, s));
    if (removed) {
      for (let g = 1; g < m.length; g++) if (m[g]) out.push(m[g]);
    } else if (m[0].length > 0) out.push(m[0]);
    prev = s + m[0].length;
  });
  if (prev < text.length) out.push(text.slice(prev));
  return out;
}
