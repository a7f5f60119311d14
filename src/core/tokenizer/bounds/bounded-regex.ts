// A tokenizer.json regex run so that its work has a bound. JavaScript's engine scans a whole string for
// each match and cannot be interrupted, so a pattern that passes regex-safety.ts still costs length² on
// a text made to defeat it ("a+b" on a megabyte of a's). Here the pattern only sees a window of w units
// (with MAX_LOOK units of context before, for its lookbehinds), w sized from the pattern's shape so that
// one attempt costs at most MAX_STEPS: "a+b" gets 4,096 units, o200k's pattern 512. Inside a window the
// pattern runs rewritten by regex-at-end.ts, which matches wherever a way of matching reads the window's
// end ("\s+$", "(?!\S)", a long word, a long run that fails after it), so a kept match (one that ends in
// the window's first half) is the whole text's. A match that runs past the half is not kept: the next
// window starts where it starts, and one that starts a window is followed alone on windows twice as
// long, up to the whole text, or by one scan of the rest. The steps these take are counted from the
// shape (GROW_STEPS a text) and the pattern is refused by its key past them, so the results are the
// whole-text scan's and a verdict never depends on the machine or its load.
import { atEnd } from './regex-at-end.js';
import { MAX_LOOK, MAX_STEPS, MIN_WINDOW, regexCost, stepsAt, type Poly } from './regex-safety.js';
import { TokenizerError } from '../tokenizer.js';

export const MAX_WINDOW = 4096;
/** Steps that following matches past their windows may take in one text, by the shape's count (a few seconds at worst, far less on real text). */
export const GROW_STEPS = 2 ** 31;

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
  // Inside a window, the rewritten regex: it tells a match that did not read the window's end.
  const probe = atEnd(regex, `${flags}g`) ?? re;
  const stickyProbe = atEnd(regex, `${flags}y`) ?? sticky;
  const unicode = re.unicode || re.flags.includes('v');
  const n = text.length;
  const w = windowFor(regex.source);
  let grown = 0;
  const refuse = () => new TokenizerError(`tokenizer.json: the pattern at "${key}" keeps matching past its windows on this text of ${n.toLocaleString('en-US')} characters, and following those matches would take over ${GROW_STEPS.toLocaleString('en-US')} steps by its shape (its matching backtracks): such a regex is not supported`);
  /**
   * The whole text's first match from `at` (where the windows saw one that reads past them) and its
   * index: the match at `at` tried alone on ever longer windows; when there is none, the next match by
   * one scan of the rest of the text if the shape's steps allow it, else none here (the caller moves on).
   */
  const retry = (at: number): [RegExpExecArray, number] | undefined => {
    const from = Math.max(0, at - MAX_LOOK);
    for (let size = 2 * w; ; size *= 2) {
      const last = at + size >= n;
      grown += attemptSteps(regex.source, last ? n - at : size);
      if (grown > GROW_STEPS) throw refuse();
      const r = last ? sticky : stickyProbe;
      r.lastIndex = at - from;
      const rest = last ? text.slice(from) : text.slice(from, at + size);
      const m = r.exec(rest);
      if (m !== null && (last || from + m.index + m[0].length <= at + size / 2)) return [m, at];
      if (m !== null) continue;
      // No match at `at` in the whole text: one scan of the rest finds the next, if affordable.
      const scanSteps = (n - at) * attemptSteps(regex.source, n - at);
      if (grown + scanSteps > GROW_STEPS) return undefined;
      grown += scanSteps;
      re.lastIndex = at - from;
      const next = re.exec(rest);
      return next === null ? undefined : [next, from + next.index];
    }
  };
  let at = 0;
  for (;;) {
    const from = Math.max(0, at - MAX_LOOK);
    const last = at + w >= n;
    const limit = last ? n : at + w / 2;
    const win = from === 0 && last ? text : text.slice(from, last ? n : at + w);
    const r = last ? re : probe;
    let searchFrom = at, next = limit;
    for (;;) {
      r.lastIndex = searchFrom - from;
      const m = r.exec(win);
      if (m === null) { next = Math.max(searchFrom, limit); break; }
      const s = from + m.index, e = s + m[0].length;
      if (!last && e > limit) {
        // A match that runs past the kept half may have read the window's end (the rewritten regex
        // matches there whatever read it): the next window starts where it starts, and one that starts
        // this window is tried alone on longer windows.
        if (s > at) { next = s; break; }
        const found = retry(at);
        if (found === undefined) { next = advance(text, at, unicode); break; }
        const [whole, index] = found;
        on(whole, index);
        next = whole[0].length > 0 ? index + whole[0].length : advance(text, index, unicode);
        if (next > n) return;
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
