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
// Real tokenizers pass (GPT-2's, Llama 3's, Qwen2's and o200k's patterns have one repeat that can give
// back, at most); the cost left, w per start, is bounded by running the pattern over windows.
import { type Item, parseRegex } from './regex-tree.js';

/** A repeat whose span (max − min) is over this counts as unbounded: {0,1000} is a* for the cost. */
const BOUNDED_SPAN = 16;
/** The most ways a match may try in a row through bounded choices (Llama 3's contractions make 7). */
const MAX_CHOICES = 4096;
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

interface Cost { degree: number; choices: number }

/** Why the pattern is refused, as the middle of a sentence ("… is not supported" follows); undefined when its cost is bounded. */
export function regexRefusal(pattern: string): string | undefined {
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
    alt.forEach((it, k) => {
      const laterFails = failsAfter || alt.slice(k + 1).some(canFail);
      if (it.atom.kind === 'backref') refuse(`uses a back-reference (${it.source}), whose cost has no bound`);
      if (it.atom.kind === 'group') {
        const group = it.atom;
        if (group.look && inLook) refuse(`nests a lookaround in a lookaround (${it.source})`);
        if (group.look && widest(group.alternatives) > MAX_LOOK) refuse(`has a lookaround that can look further than ${MAX_LOOK / 2} characters (${it.source})`);
        if (it.max > 1 && varies({ ...it, min: 1, max: 1 })) refuse(`repeats the group ${it.source}, whose body can match in more than one way: such a regex can take exponential time on some texts (catastrophic backtracking)`);
        let inner: Cost = { degree: 0, choices: 0 };
        for (const a of group.alternatives) {
          const c = sequence(a, laterFails || it.max > 1, inLook || group.look !== undefined);
          inner = { degree: Math.max(inner.degree, c.degree), choices: inner.choices + c.choices };
        }
        degree += inner.degree;
        choices *= Math.max(1, inner.choices);
      }
      if (inLook && it.max !== it.min) {
        if (unbounded(it)) refuse(`has a lookaround with an unbounded repeat (${it.source})`);
      }
      if (unbounded(it)) {
        if (laterFails) degree++;
      } else {
        choices *= it.max - it.min + 1;
      }
    });
    return { degree, choices };
  };
  let degree = 0, choices = 0;
  for (const alt of tree) {
    const c = sequence(alt, false, false);
    degree = Math.max(degree, c.degree);
    choices += c.choices;
  }
  if (why !== undefined) return why;
  if (degree > 1) return `has ${degree} unbounded repeats in a row that can each give characters back to the next ("a*a*b"): its cost grows as the text's length to the power ${degree + 1}`;
  if (choices > MAX_CHOICES) return `tries more than ${MAX_CHOICES} ways at each place through its optional parts and alternatives ("a?a?a?…")`;
  return undefined;
}
