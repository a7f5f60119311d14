// Which input, head and token a view shows: one answer for the panel, `attn render` and the views,
// from whatever the user (or a flag, or a saved state) asked for, kept inside what the data has.
import { row, type AttentionData } from '../../../src/core/result/attention-data.js';
import type { ViewName } from '../../../src/core/vocabulary.js';

/** A view's name, or the summary strip's. */
export type AnyViewName = ViewName | 'summary';

export interface Selection {
  input: number;
  head: number | 'all';
  /** A token of the input; -1 asks for the view's own start (see defaultToken). */
  token: number;
}

const inRange = (i: unknown, n: number): i is number => Number.isInteger(i) && (i as number) >= 0 && (i as number) < n;

/**
 * What `view` shows of `data` for the asked selection: an input that exists (else the first), a
 * head that exists (else "all"), and a token of that input (else the view's own start; for
 * compare, that start may be in another input unless `inputPinned`, as a flag pins it).
 */
export function resolveSelection(data: AttentionData, view: AnyViewName, asked: Selection, inputPinned = false): Selection {
  let input = inRange(asked.input, data.inputs.length) ? asked.input : 0;
  const heads = data.inputs[input]?.heads.length ?? 0;
  const head = asked.head === 'all' || !inRange(asked.head, heads) ? 'all' : asked.head;
  let token = asked.token;
  if (!inRange(token, data.inputs[input]?.tokens.length ?? 0)) {
    const pick = defaultToken(data, view, input);
    if (view === 'compare' && !inputPinned) input = pick.input;
    // A pinned input starts on the same word if it has it, else on its last token.
    const word = data.inputs[pick.input]?.tokens[pick.token];
    const here = data.inputs[input]?.tokens ?? [];
    token = pick.input === input ? pick.token : word !== undefined && here.includes(word) ? here.indexOf(word) : Math.max(0, here.length - 1);
  }
  return { input, head, token };
}

/** Inputs compared per shared word when picking compare's start: enough for any teaching spec, and bounded. */
const MAX_PAIRED = 8;

/**
 * The token a view starts on when none was picked: for "compare", a word found in several inputs
 * whose outputs differ the most (the mouse of the two sentences); otherwise the last token.
 * Linear in the tokens: each word's first occurrence per input is collected once, and only the
 * first MAX_PAIRED inputs holding a word are compared pairwise.
 */
export function defaultToken(data: AttentionData, view: AnyViewName, input: number): { input: number; token: number } {
  const inp = data.inputs[input] ?? data.inputs[0];
  if (!inp) return { input: 0, token: 0 };
  if (view === 'compare' && data.inputs.length > 1) {
    const places = new Map<string, { input: number; token: number }[]>();
    data.inputs.forEach((a, ia) => {
      const seen = new Set<string>();
      a.tokens.forEach((t, ta) => {
        if (seen.has(t)) return;
        seen.add(t);
        const list = places.get(t) ?? [];
        if (list.length < MAX_PAIRED) list.push({ input: ia, token: ta });
        places.set(t, list);
      });
    });
    let best: { input: number; token: number; d: number } | undefined;
    for (const list of places.values()) {
      for (let x = 0; x < list.length; x++) {
        for (let y = x + 1; y < list.length; y++) {
          const va = row(data.inputs[list[x].input].output, list[x].token);
          const vb = row(data.inputs[list[y].input].output, list[y].token);
          let d = 0;
          for (let k = 0; k < va.length; k++) d += (va[k] - (vb[k] ?? 0)) ** 2;
          if (!best || d > best.d || (d === best.d && (list[x].input < best.input || (list[x].input === best.input && list[x].token < best.token)))) {
            best = { ...list[x], d };
          }
        }
      }
    }
    if (best) return { input: best.input, token: best.token };
  }
  const last = inp.tokens.length - 1;
  // Step by step starts on the word the input leads up to (its last word), at that word's first
  // occurrence: a repeated last word would otherwise start on a copy rather than the word itself.
  if (view === 'steps') return { input: data.inputs.indexOf(inp), token: Math.max(0, inp.tokens.indexOf(inp.tokens[last])) };
  return { input: data.inputs.indexOf(inp), token: last };
}
