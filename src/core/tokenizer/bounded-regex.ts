// A tokenizer.json regex run so that its work has a bound. JavaScript's engine scans a whole string for
// each match and cannot be interrupted, so a pattern that passes regex-safety.ts (one repeat that can
// give back at most) still costs length² on a text made to defeat it ("a+b" on a megabyte of a's). Here
// the pattern only ever sees a window of WINDOW units (with MAX_LOOK units of context before, for its
// lookbehinds): the matches that end in the first half of the window are kept, and the next window
// starts after the last one (or where a match that runs past the half starts). A window's cost is bounded
// by its length, and the time spent in windows is counted: past REGEX_MS in one text, the pattern is
// refused by its tokenizer.json key. A match the window sees differently from the whole text reads
// near the window's end, so it is not kept, unless the whole text's match is longer than half a window:
// matches agree with a whole-text scan up to KEEP − MAX_LOOK characters; a longer one (a 2,000-character
// word) may be cut.
import { MAX_LOOK } from './regex-safety.js';
import { TokenizerError } from './tokenizer.js';

export const WINDOW = 4096;
const KEEP = WINDOW / 2;
/** Milliseconds of regex work allowed for one text (a real tokenizer needs a few on a megabyte). */
export const REGEX_MS = 5000;

/** Milliseconds of regex work so far in the current text; undefined outside withRegexBudget. */
let spent: number | undefined;

/** Runs `work` (one text's tokenizing) with a fresh count of regex time. */
export function withRegexBudget<T>(work: () => T): T {
  const outer = spent;
  spent = 0;
  try {
    return work();
  } finally {
    spent = outer;
  }
}

const advance = (s: string, i: number, unicode: boolean) => {
  if (!unicode || i + 1 >= s.length) return i + 1;
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? i + 2 : i + 1;
};

/**
 * Calls `on` with each match of the global regex in text order, as String.prototype.matchAll would
 * (empty matches included), and its index in `text`. `key` names the pattern in the refusal.
 */
export function eachMatch(text: string, regex: RegExp, key: string, on: (match: RegExpExecArray, index: number) => void): void {
  if (spent === undefined) return withRegexBudget(() => eachMatch(text, regex, key, on));
  const re = new RegExp(regex.source, regex.flags.includes('g') ? regex.flags : `${regex.flags}g`);
  const unicode = re.unicode || re.flags.includes('v');
  const n = text.length;
  let at = 0;
  for (;;) {
    const t0 = performance.now();
    const from = Math.max(0, at - MAX_LOOK);
    const last = at + WINDOW >= n;
    const limit = last ? n : at + KEEP;
    const win = from === 0 && last ? text : text.slice(from, last ? n : at + WINDOW);
    let searchFrom = at, next = limit;
    for (;;) {
      re.lastIndex = searchFrom - from;
      const m = re.exec(win);
      if (m === null) { next = Math.max(searchFrom, limit); break; }
      const s = from + m.index, e = s + m[0].length;
      if (!last && e > limit) {
        // A match that runs past the kept half: the next window starts where it starts and sees it
        // whole, unless it starts this window (then it is longer than the window, and is cut there).
        if (s === at) { on(m, s); next = e; } else next = s;
        break;
      }
      on(m, s);
      searchFrom = e === s ? from + advance(win, e - from, unicode) : e;
      if (searchFrom > n) break;
    }
    spent = (spent ?? 0) + performance.now() - t0;
    if (spent > REGEX_MS) throw new TokenizerError(`tokenizer.json: the pattern at "${key}" took over ${REGEX_MS / 1000} s on this text (its matching backtracks): such a regex is not supported`);
    if (last) return;
    at = next;
  }
}
