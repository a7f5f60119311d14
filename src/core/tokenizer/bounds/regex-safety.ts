// A tokenizer.json's regular expressions (a Split pre-tokenizer's, a Replace's) run on every text the
// user types, in JavaScript's backtracking engine, which cannot be interrupted: "(a+)+$" on 30 a's and
// a b takes minutes, and the extension host or `attn run` would hang. A pattern is accepted only when
// its cost on a window of w characters can be bounded from its shape:
// - no repeated group whose body can match in more than one way (a quantifier inside, `?` included, or
//   an alternative): "(a+)+", "(a|aa)*", "(a?a)+" take exponential time;
// - at most one unbounded repeat that a later part of the match can make it give back ("a*a*b" on a's
//   tries every split of the run: w² per start, "a*a*a*b" w³); a repeat with nothing after it that can
//   fail ("\s*[\r\n]+" ends in one) never backtracks usefully, so it does not count;
// - few bounded choices in a row ("a?a?a?…a?" tries 2^k ways); no back-reference; lookarounds that look
//   a bounded distance (the windows of bounded-regex.ts see only so far around their cut).
// Beyond these, the cost of one attempt at one place is a polynomial in the window's length w (each
// repeat that can give back multiplies by w, each bounded choice by its number of ways, alternatives
// add): "a?a?a?a?a?a?a?a?a*b" tries 256 × w steps per place. bounded-regex.ts sizes its windows from it,
// and a pattern whose attempt costs more than MAX_STEPS even on the smallest window is refused here, so
// the verdict comes from the pattern's shape, never from how long a text took on a loaded machine.
// Real tokenizers pass (GPT-2's, Llama 3's, Qwen2's, o200k's and DeepSeek-V3's patterns have one repeat
// that can give back, at most, and a few dozen ways through their alternatives).
import { type Item, parseRegex } from './regex-tree.js';

/** A repeat whose span (max − min) is over this counts as unbounded: {0,1000} is a* for the cost. */
const BOUNDED_SPAN = 16;
/** The most steps one attempt at one place may cost on the smallest window (o200k's: about 60 × 256). */
export const MAX_STEPS = 1 << 14;
/** The smallest window bounded-regex.ts runs a pattern over, in UTF-16 units. */
export const MIN_WINDOW = 256;
/** How far a lookaround may see, in UTF-16 units: the windows keep this much context on each side. */
export const MAX_LOOK = 64;

const unbounded = (it: Item) => it.max - it.min > BOUNDED_SPAN;
const alternativesOf = (it: Item) => (it.atom.kind === 'group' ? it.atom.alternatives : []);

/** True when the item can fail where it stands (it needs at least one thing that can fail). */
function canFail(it: Item): boolean {
  if (it.min === 0) return false;
  if (it.atom.kind !== 'group') return true;
  return alternativesOf(it).every((alt) => alt.some(canFail));
}

/** True when the item can match in more than one way: a varying count, or alternatives, anywhere inside. */
function varies(it: Item): boolean {
  if (it.min !== it.max) return true;
  const alts = alternativesOf(it);
  return alts.length > 1 || alts.some((alt) => alt.some(varies));
}

/** The longest text an alternative list can match, in UTF-16 units (a character is up to 2). */
function widest(alts: Item[][]): number {
  let most = 0;
  for (const alt of alts) {
    let sum = 0;
    for (const it of alt) {
      const one = it.atom.kind === 'group' ? (it.atom.look ? 0 : widest(it.atom.alternatives)) : it.atom.kind === 'char' ? 2 : 0;
      sum += one * it.max;
    }
    most = Math.max(most, sum);
  }
  return most;
}

/** Steps of one attempt at one place as coefficients of w⁰, w¹, w²…: [3, 2] is 3 + 2w. */
export type Poly = number[];
const add = (a: Poly, b: Poly): Poly => Array.from({ length: Math.max(a.length, b.length) }, (_, i) => (a[i] ?? 0) + (b[i] ?? 0));
const mul = (a: Poly, b: Poly): Poly => {
  const out: Poly = new Array<number>(a.length + b.length - 1).fill(0);
  a.forEach((x, i) => b.forEach((y, j) => { out[i + j] += x * y; }));
  return out;
};
/** The steps of one attempt on a window of w units. */
export const stepsAt = (p: Poly, w: number) => p.reduce((sum, c, d) => sum + c * w ** d, 0);

interface Cost { degree: number; choices: number; poly: Poly }

/** Why the pattern is refused, as the middle of a sentence ("… is not supported" follows); undefined when its cost is bounded. */
export function regexRefusal(pattern: string): string | undefined {
  const r = analyse(pattern);
  return typeof r === 'string' ? r : undefined;
}

/** The steps of one attempt of an accepted pattern, as a polynomial in the window's length; undefined when it is refused. */
export function regexCost(pattern: string): Poly | undefined {
  const r = analyse(pattern);
  return typeof r === 'string' ? undefined : r;
}

function analyse(pattern: string): string | Poly {
  let tree: Item[][];
  try {
    tree = parseRegex(pattern);
  } catch (err) {
    return `cannot be read (${(err as Error).message})`;
  }
  let why: string | undefined;
  const refuse = (reason: string) => { why ??= reason; };

  /** The cost of one alternative; `failsAfter` says whether what follows it in the pattern can fail. */
  const sequence = (alt: Item[], failsAfter: boolean, inLook: boolean): Cost => {
    let degree = 0, choices = 1;
    let poly: Poly = [1];
    alt.forEach((it, k) => {
      const laterFails = failsAfter || alt.slice(k + 1).some(canFail);
      if (it.atom.kind === 'backref') refuse(`uses a back-reference (${it.source}), whose cost has no bound`);
      if (it.atom.kind === 'group') {
        const group = it.atom;
        if (group.look && inLook) refuse(`nests a lookaround in a lookaround (${it.source})`);
        if (group.look && widest(group.alternatives) > MAX_LOOK) refuse(`has a lookaround that can look further than ${MAX_LOOK / 2} characters (${it.source})`);
        if (it.max > 1 && varies({ ...it, min: 1, max: 1 })) refuse(`repeats the group ${it.source}, whose body can match in more than one way: such a regex can take exponential time on some texts (catastrophic backtracking)`);
        let inner: Cost = { degree: 0, choices: 0, poly: [0] };
        for (const a of group.alternatives) {
          const c = sequence(a, laterFails || it.max > 1, inLook || group.look !== undefined);
          inner = { degree: Math.max(inner.degree, c.degree), choices: inner.choices + c.choices, poly: add(inner.poly, c.poly) };
        }
        degree += inner.degree;
        choices *= Math.max(1, inner.choices);
        if (inner.choices > 0) poly = mul(poly, inner.poly);
      }
      if (inLook && it.max !== it.min) {
        if (unbounded(it)) refuse(`has a lookaround with an unbounded repeat (${it.source})`);
      }
      if (unbounded(it)) {
        if (laterFails) {
          degree++;
          poly = mul(poly, [0, 1]);
        }
      } else {
        choices *= it.max - it.min + 1;
        poly = mul(poly, [it.max - it.min + 1]);
      }
    });
    return { degree, choices, poly };
  };
  let degree = 0, poly: Poly = [0];
  for (const alt of tree) {
    const c = sequence(alt, false, false);
    degree = Math.max(degree, c.degree);
    poly = add(poly, c.poly);
  }
  if (why !== undefined) return why;
  if (degree > 1) return `has ${degree} unbounded repeats in a row that can each give characters back to the next ("a*a*b"): its cost grows as the text's length to the power ${degree + 1}`;
  const steps = stepsAt(poly, MIN_WINDOW);
  if (steps > MAX_STEPS) {
    const ways = stepsAt(poly, 1);
    return `tries ${ways > 1e6 ? 'over a million' : Math.round(ways)} ways at each place through its optional parts and alternatives ("a?a?a?…")${degree > 0 ? ', each giving back along a repeat' : ''}: ${Math.round(steps).toLocaleString('en-US')} steps per place on a window of ${MIN_WINDOW} characters, over the ${MAX_STEPS.toLocaleString('en-US')} allowed`;
  }
  return poly;
}
