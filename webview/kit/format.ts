// Number formatting shared by every view: integers stay integers (136, not 136.000),
// other values get up to `digits` decimals, tiny and huge values use exponents.

export function fmt(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined) return 'masked';
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '∞';
  if (v === -Infinity) return '−∞';
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 10 ** -digits || a >= 1e7)) return v.toExponential(2);
  return String(Number(v.toFixed(digits)));
}

/**
 * A number written as a factor in a sum: negatives in parentheses, so 2·(−1) reads unambiguously.
 * Given the largest |x| of its vector (`scale`), an entry within rounding noise of it reads ≈0.
 */
export function factor(v: number, digits = 3, scale?: number): string {
  const s = scale === undefined ? fmt(v, digits) : fmtNear(v, scale, 1, digits);
  return v < 0 && s !== '≈0' ? `(${s})` : s;
}

/**
 * A vector's entries as text, each judged against the vector's largest |x|: a rotation's
 * cos(π/2) = 8.66e-17 beside 1.414 reads ≈0, as the 0 it stands for.
 */
export function entries(values: ArrayLike<number>, digits = 3): string[] {
  const scale = largestAbs(values);
  return Array.from(values, (x) => fmtNear(x, scale, 1, digits));
}

/** "a·b + c·d + … = total", cut in the middle with "…" when there are many terms. */
export function dotTerms(a: ArrayLike<number>, b: ArrayLike<number>, total: number, maxTerms = 12): string {
  const sa = largestAbs(a), sb = largestAbs(b);
  const terms = Array.from(a, (x, t) => `${factor(x, 3, sa)}·${factor(b[t], 3, sb)}`);
  let size = 0;
  for (let t = 0; t < a.length; t++) size += Math.abs(a[t] * b[t]);
  let shown = terms;
  if (terms.length > maxTerms) {
    const half = Math.floor(maxTerms / 2);
    shown = [...terms.slice(0, half), `… (${terms.length - maxTerms} more terms) …`, ...terms.slice(-half)];
  }
  // A total that is rounding noise of its terms (orthogonal vectors, −8.88e-16), or of entries that
  // are themselves read as ≈0 next to their vector's largest, reads ≈0, not as a number.
  return `${shown.join(' + ')} = ${fmtNear(total, Math.max(size, sa * sb), a.length)}`;
}

/** A vector as [1, 3, 0], shortened in the middle when long. */
export function vec(values: ArrayLike<number>, max = 16): string {
  const v = entries(values);
  if (v.length <= max) return `[${v.join(', ')}]`;
  const half = Math.floor(max / 2);
  return `[${v.slice(0, half).join(', ')}, … ${v.length - max} more …, ${v.slice(-half).join(', ')}]`;
}

/** 3145728 → "3,145,728" without depending on the host locale. */
export function thousands(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Each ASCII character's width in ems for textWidth; every other code point is 0.56. */
const ASCII_EM = Float64Array.from({ length: 128 }, (_, c) => {
  const ch = String.fromCharCode(c);
  return /[ilj.,:;'|!1]/.test(ch) ? 0.32 : /[mwMW@]/.test(ch) ? 0.9 : /[A-Z0-9]/.test(ch) ? 0.66 : 0.56;
});

/**
 * Rough width of a text in pixels: jsdom has no layout, so every view measures this way. Code point
 * by code point (a surrogate pair is one), from a table: a thousand labels cost no regular expressions.
 */
export function textWidth(s: string, fontSize: number): number {
  let w = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) w += ASCII_EM[c];
    else {
      w += 0.56;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const next = s.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) i++;
      }
    }
  }
  return w * fontSize;
}

const SIMPLE_TEXT = /^[\x20-\x7e\xa0-\xff\u2010-\u2027\u2030-\u205e\u2190-\u22ff]*$/;

/** One grapheme segmenter for every label (making one per label cost more than the segmenting). */
let segmenter: Intl.Segmenter | null | undefined;

/** The characters of a text one by one, lazily (see `characters`). */
function* eachCharacter(s: string): Generator<string> {
  // One character per code unit where no cluster can form: printable ASCII and Latin-1, general
  // punctuation, arrows and mathematical operators (×, …, →, ≈, √) hold no combining mark, joiner,
  // Hangul jamo, regional indicator or line break, so every boundary between them is a break.
  if (SIMPLE_TEXT.test(s)) {
    yield* s;
    return;
  }
  if (segmenter === undefined) {
    const Segmenter = (Intl as { Segmenter?: typeof Intl.Segmenter }).Segmenter;
    segmenter = Segmenter ? new Segmenter(undefined, { granularity: 'grapheme' }) : null;
  }
  if (segmenter) {
    for (const x of segmenter.segment(s)) yield x.segment;
  } else {
    yield* s;
  }
}

/**
 * The characters of a text as a reader sees them: grapheme clusters where the runtime can tell
 * (an emoji with skin tone or a family joined by ZWJ stays whole), else code points (never half a
 * surrogate pair).
 */
export function characters(s: string): string[] {
  return Array.from(eachCharacter(s));
}

/**
 * Shorten a label to fit `px` pixels, with an ellipsis; cuts only between whole characters and
 * keeps at least one. One pass that stops at the budget: a 100,000-character token costs as much
 * as the characters that fit, not the square of its length.
 */
export function clip(s: string, px: number, fontSize: number): string {
  // Only a prefix is walked: every code point is at least 0.32 em wide, so past `most` of them the
  // text no longer fits. Measuring the whole text first, or splitting all of it into graphemes
  // (Intl.Segmenter reads the whole string), cost a pass over a 1 MB token per label: a head view
  // of seven such tokens took 20 s.
  const most = 2 * Math.ceil(Math.max(0, px) / (0.32 * fontSize)) + 16;
  if (s.length > most) {
    const end = /[\ud800-\udbff]/.test(s[most - 1]) ? most + 1 : most; // never half a surrogate pair
    const clipped = clipPrefix(s.slice(0, end), px, fontSize);
    if (clipped !== undefined) return clipped;
  }
  return clipPrefix(s, px, fontSize) ?? s;
}

/** `s` cut to fit with an ellipsis, or undefined when all of `s` fits. */
function clipPrefix(s: string, px: number, fontSize: number): string | undefined {
  const budget = px - textWidth('…', fontSize);
  let out = '', width = 0;
  let cut: string | undefined;
  for (const ch of eachCharacter(s)) {
    const w = textWidth(ch, fontSize);
    if (cut === undefined && out && width + w > budget) cut = out;
    width += w;
    // Summed a character at a time, the width can exceed textWidth's by a rounding error: a label
    // given exactly its own width ("6. mat" at 13 px) was cut to "6. m…".
    if (width > px + 1e-6) return (cut ?? out + ch) + '…';
    out += ch;
  }
  return undefined;
}

/**
 * A weight for a label: "<0.001" rather than 1.4e-16, which reads as noise, and ">0.999" rather
 * than "1" for 0.9993: only an exact 0 or 1 reads "0" or "1" (the raw example's 0.0003 and 0.9993
 * read as a weight of nothing and of everything).
 */
export function fmtWeight(w: number, digits = 3): string {
  if (w === 0) return '0';
  const step = 10 ** -digits;
  if (w > 0 && w < step) return `<${step.toFixed(digits)}`;
  if (w < 1 && w > 1 - step / 2) return `>${(1 - step).toFixed(digits)}`;
  return fmt(w, digits);
}

/**
 * `v` rounded to `digits` decimals for a cell or a label, never as an exact value it is not: a
 * nonzero that rounds to 0 reads "≈0" (or, for a weight, "<0.01"), a weight under 1 that rounds to
 * 1 reads ">0.99"; integers stay integers.
 */
export function fmtRounded(v: number, digits: number, weight = false): string {
  if (weight && v >= 0 && v <= 1) return fmtWeight(v, digits);
  if (v !== 0 && Number.isFinite(v) && Math.abs(v) < (10 ** -digits) / 2) return '≈0';
  if (Math.abs(v) < 10 ** -digits && Number.isFinite(v)) return String(Number(v.toFixed(digits)));
  return fmt(v, digits);
}

/**
 * `v` with exactly `digits` decimals (2.2 → "2.20"), as a description that rounds to that many
 * places writes it; integers stay integers, and a nonzero that would read as 0 reads "≈0".
 */
export function fmtFixed(v: number, digits = 2): string {
  if (!Number.isFinite(v) || Number.isInteger(v)) return fmt(v, digits);
  const a = Math.abs(v);
  if (a >= 1e7) return v.toExponential(2);
  if (a < (10 ** -digits) / 2) return '≈0';
  return v.toFixed(digits);
}

/**
 * `v` with exactly `digits` decimals (a cosine as 0.970, 1.000), but "≈0" for a nonzero that would
 * read 0.000 and never "-0.000".
 */
export function fmtDecimals(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return fmt(v, digits);
  if (v === 0) return (0).toFixed(digits);
  if (Math.abs(v) < (10 ** -digits) / 2) return '≈0';
  return v.toFixed(digits);
}

/**
 * The largest error rounding leaves in a result made of `terms` terms (a sum, a dot product) whose
 * magnitudes add up to `scale`: a few units in the last place per term. Below it, a result that
 * should be 0 (a difference of equal things, a dot product of orthogonal vectors) is only noise.
 */
export function roundingNoise(scale: number, terms = 1): number {
  return 4 * Number.EPSILON * Math.max(1, terms) * Math.abs(scale);
}

/**
 * fmt, but "≈0" for a value within rounding noise of 0 next to the magnitudes it came from
 * (`scale`, over `terms` terms): a real head's q · k of −8.88e-16 from terms of size 10 is a 0
 * that floating point could not hit exactly, and printed as a number it reads as one.
 */
export function fmtNear(v: number, scale: number, terms = 1, digits = 3): string {
  return v !== 0 && Number.isFinite(v) && Math.abs(v) <= roundingNoise(scale, terms) ? '≈0' : fmt(v, digits);
}

/** The largest |x| of a vector (0 when empty): the scale its entries are noise against. */
export function largestAbs(values: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) {
    const a = Math.abs(values[i]);
    if (a > m && Number.isFinite(a)) m = a;
  }
  return m;
}

/** Width of a text in a monospace font. */
export function monoWidth(s: string, fontSize: number): number {
  return [...s].length * fontSize * 0.6;
}

/**
 * A heading broken into lines of at most `px` pixels at its spaces, at most `maxLines` of them
 * (the last cut with "…" if the text is longer still; a word wider than a line is cut too). A
 * narrow panel gets a heading on two lines instead of one cut short.
 */
export function wrapLines(s: string, px: number, fontSize: number, maxLines = 3): string[] {
  if (textWidth(s, fontSize) <= px) return [s];
  const words = s.split(' ');
  const out: string[] = [];
  let line = '';
  for (let k = 0; k < words.length; k++) {
    const next = line ? `${line} ${words[k]}` : words[k];
    if (textWidth(next, fontSize) <= px || !line) {
      line = next;
      continue;
    }
    out.push(line);
    line = words[k];
    if (out.length === maxLines - 1) {
      line = words.slice(k).join(' ');
      break;
    }
  }
  out.push(line);
  return out.map((l) => clip(l, px, fontSize));
}
