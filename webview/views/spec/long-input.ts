// What the spec views draw of a long input (a spec holds up to 2,048 tokens: a lens on a real head):
// a view that draws every token (arcs, tokens) shows a window of them around the selected token,
// and a view that lists every key of one query (geometry's table, compare's bars) lists the keys with
// the largest weights, as steps' table does past its own 48. Each says so in one line; the drawing stays bounded whatever n is.

/** Most tokens the arcs and the tokens view draw at once; past it, a window of them around the selected token. */
export const MAX_DRAWN_TOKENS = 256;

/**
 * Most keys geometry's table and compare's bars list for one query (a row each, 22 px): the 64-token
 * example stays whole; past it the strongest are listed. Steps lists 48 (its rows are taller).
 */
export const MAX_KEY_ROWS = 64;

/** Tokens first … first + count − 1 of an input of n. */
export interface TokenWindow { first: number; count: number; n: number }

/** The window of at most `size` of n tokens around `token` (centred, kept inside the input); the whole input when it fits. */
export function tokenWindow(n: number, token: number, size = MAX_DRAWN_TOKENS): TokenWindow {
  if (n <= size) return { first: 0, count: n, n };
  const t = token >= 0 && token < n ? token : n - 1;
  const first = Math.max(0, Math.min(n - size, t - Math.floor(size / 2)));
  return { first, count: size, n };
}

const count = (k: number) => k.toLocaleString('en-US');

/** "tokens 1,793–2,048 of 2,048" (counted from 1). */
export function windowRangeText(w: TokenWindow): string {
  return `tokens ${count(w.first + 1)}–${count(w.first + w.count)} of ${count(w.n)}`;
}

/** The one line a windowed view says: which tokens it draws, why, and how to move them. */
export function windowNote(w: TokenWindow, how: string): string {
  return `${count(w.n)} tokens, more than the ${count(MAX_DRAWN_TOKENS)} drawn at once: showing ${windowRangeText(w)} around the selected token; ${how}`;
}

/**
 * The keys a list shows for one query: every key up to `max`; past it the `max` − 1 strongest the
 * query may see (ties: the earlier) and the ones `always` names, in reading order. A masked key
 * competes with none: its weight is 0 by the mask, not by comparison.
 */
export function listedKeys(n: number, weight: (j: number) => number, visible: (j: number) => boolean, always: readonly number[] = [], max = MAX_KEY_ROWS): number[] {
  if (n <= max) return Array.from({ length: n }, (_, j) => j);
  // The strongest by a bounded insertion (max is small): never a sort of all n.
  const best: number[] = [];
  const room = max;
  for (let j = 0; j < n; j++) {
    if (!visible(j)) continue;
    const w = weight(j);
    if (best.length === room && !(w > weight(best[room - 1]))) continue;
    let at = best.length === room ? room - 1 : best.length;
    while (at > 0 && w > weight(best[at - 1])) at--;
    best.splice(at, 0, j);
    if (best.length > room) best.pop();
  }
  // The ones always listed take the places of the weakest of the strongest when they are not among them.
  const missing = [...new Set(always)].filter((j) => j >= 0 && j < n && !best.includes(j));
  return [...best.slice(0, Math.max(0, max - missing.length)), ...missing].sort((a, b) => a - b);
}

/** The line a list of keys says past its limit: how many it shows of how many, the weight it leaves out, the masked keys left out. */
export function listedNote(n: number, listed: number, open: number, rest: number, query: string): string {
  const masked = n - open;
  const which = listed >= open ? `all ${count(open)} keys ${query} may look at` : `the ${listed} with the largest weights of the ${count(open)} keys ${query} may look at (${rest.toFixed(3)} of its weight on the others)`;
  return `${count(n)} keys, more than the ${MAX_KEY_ROWS} listed at once: showing ${which}${masked > 0 ? `; ${count(masked)} masked (weight 0) left out` : ''}`;
}

/**
 * What a window hides of one query's row: the weight it puts on keys outside the window and its
 * strongest key there ([key, weight]), or undefined when nothing lies outside. A sink at token 1
 * left out of a late window made the arcs look empty: this line says where the weight went.
 */
export function outsideWeight(row: ArrayLike<number>, w: TokenWindow): { share: number; strongest: [number, number] } | undefined {
  if (w.count >= w.n) return undefined;
  let share = 0, best = -1;
  for (let j = 0; j < w.n; j++) {
    if (j >= w.first && j < w.first + w.count) continue;
    const v = row[j];
    if (!(v > 0)) continue;
    share += v;
    if (best < 0 || v > row[best]) best = j;
  }
  return best < 0 ? undefined : { share, strongest: [best, row[best]] };
}
