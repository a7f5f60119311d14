// Spec strings inside messages: a word can be 100,000 characters long and a list can hold a
// million names, so a message quotes a clipped copy and names only a few items. Messages stay
// short whatever the spec holds (one unknown-token message once repeated every known word).

/** Longest piece of a spec string a message quotes. */
export const QUOTE_CHARS = 40;

/** The first `max` characters of `s`, with "…" when cut; never half of a surrogate pair. */
export function clipText(s: string, max = QUOTE_CHARS): string {
  if (s.length <= max) return s;
  let end = max;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c < 0xdc00) end--;
  return s.slice(0, end) + '…';
}

/** A spec string as a message shows it: in double quotes, escaped as JSON, clipped. */
export function quote(s: string, max = QUOTE_CHARS): string {
  return JSON.stringify(clipText(s, max));
}

/** "a, b, c" for the first `max` items, then "and N more". */
export function listSome(items: Iterable<string>, max = 12): string {
  const shown: string[] = [];
  let total = 0;
  for (const item of items) {
    if (shown.length < max) shown.push(clipText(item));
    total++;
  }
  return total > max ? `${shown.join(', ')} and ${total - max} more` : shown.join(', ');
}

/** Words as a message offers them: "a", "b" or "c" (each quoted; a list of one is that word). */
export function quoteOr(words: readonly string[]): string {
  const quoted = words.map((w) => quote(w));
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}
