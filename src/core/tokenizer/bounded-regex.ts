// A tokenizer.json regex run so that its work has a bound. JavaScript's engine scans a whole string for
// each match and cannot be interrupted, so a pattern that passes regex-safety.ts still costs length² on
// a text made to defeat it ("a+b" on a megabyte of a's). Here the pattern only sees a window of w units
// (with MAX_LOOK units of context before, for its lookbehinds), w sized from the pattern's shape so that
// w × (the steps of one attempt) stays within MAX_STEPS × MAX_WINDOW: "a+b" gets 4,096 units, o200k's
// pattern 512. The matches that end in the first half of the window are kept, and the next window starts
// after the last one. A match that runs past the half (a long word, or "\s+$" and "\s+(?!\S)", which
// succeed at a window's end as at the text's) is not taken as the window sees it: the next window starts
// where it starts, and a match that starts a window is tried again there, alone, on windows of twice the
// length, up to the whole text, until it ends in the first half of one. The steps those attempts may
// take are counted from the shape too (GROW_STEPS a text), so a verdict never depends on the machine.
import { MAX_LOOK, MAX_STEPS, MIN_WINDOW, regexCost, stepsAt, type Poly } from './regex-safety.js';
import { TokenizerError } from './tokenizer.js';

export const MAX_WINDOW = 4096;
/** Steps that retrying long matches may take in one text, by the shape's count (about a second at worst). */
export const GROW_STEPS = 1 << 29;

const costs = new Map<string, Poly | undefined>();
/** The window for a pattern: the longest power of two up to MAX_WINDOW whose attempts cost at most MAX_STEPS. */
export function windowFor(source: string): number {
  if (!costs.has(source)) costs.set(source, regexCost(source));
  const poly = costs.get(source);
  if (poly === undefined) return MIN_WINDOW;
  let w = MAX_WINDOW;
  while (w > MIN_WINDOW && stepsAt(poly, w) > MAX_STEPS) w /= 2;
  return w;
}

/** Steps of one attempt on a window of w units (a pattern the shape check cannot read counts as w per attempt). */
const attemptSteps = (source: string, w: number) => {
  const poly = costs.get(source) ?? regexCost(source);
  return poly === undefined ? w : stepsAt(poly, w);
};

/** Kept for the callers that group one text's regex work; the bounds no longer depend on time. */
export function withRegexBudget<T>(work: () => T): T {
  return work();
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
  const flags = regex.flags.replace(/[gy]/g, '');
  const re = new RegExp(regex.source, `${flags}g`);
  const sticky = new RegExp(regex.source, `${flags}y`);
  const unicode = re.unicode || re.flags.includes('v');
  const n = text.length;
  const w = windowFor(regex.source);
  let grown = 0;
  /** The match at `at` as the whole text has it, tried on ever longer windows; null when there is none. */
  const retry = (at: number): RegExpExecArray | null => {
    const from = Math.max(0, at - MAX_LOOK);
    for (let size = 2 * w; ; size *= 2) {
      const last = at + size >= n;
      grown += attemptSteps(regex.source, last ? n - at : size);
      if (grown > GROW_STEPS) throw new TokenizerError(`tokenizer.json: the pattern at "${key}" keeps matching past its windows on this text of ${n.toLocaleString('en-US')} characters, and trying those matches whole would take over ${GROW_STEPS.toLocaleString('en-US')} steps by its shape (its matching backtracks): such a regex is not supported`);
      sticky.lastIndex = at - from;
      const m = sticky.exec(last ? text.slice(from) : text.slice(from, at + size));
      if (m === null || last || from + m.index + m[0].length <= at + size / 2) return m;
    }
  };
  let at = 0;
  for (;;) {
    const from = Math.max(0, at - MAX_LOOK);
    const last = at + w >= n;
    const limit = last ? n : at + w / 2;
    const win = from === 0 && last ? text : text.slice(from, last ? n : at + w);
    let searchFrom = at, next = limit;
    for (;;) {
      re.lastIndex = searchFrom - from;
      const m = re.exec(win);
      if (m === null) { next = Math.max(searchFrom, limit); break; }
      const s = from + m.index, e = s + m[0].length;
      if (!last && e > limit) {
        // A match that runs past the kept half may read the window's end as the text's: the next window
        // starts where it starts, and one that starts this window is tried alone on longer windows.
        if (s > at) { next = s; break; }
        const whole = retry(at);
        if (whole === null) { next = advance(text, at, unicode); break; }
        on(whole, at);
        next = whole[0].length > 0 ? at + whole[0].length : advance(text, at, unicode);
        break;
      }
      on(m, s);
      searchFrom = e === s ? from + advance(win, e - from, unicode) : e;
      if (searchFrom > n) break;
    }
    if (last) return;
    at = next;
  }
}
