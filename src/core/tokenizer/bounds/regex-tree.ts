// A tokenizer.json regular expression (Oniguruma syntax, as the Rust library reads it) parsed into the
// little that its cost depends on: sequences of atoms, each repeated min..max times, groups with their
// alternatives, lookarounds and assertions. Character classes, escapes and literals are one-character
// atoms; what they match does not matter to the cost analysis in regex-safety.ts.

export type Atom =
  | { kind: 'char' }
  /** A zero-width test (^ $ \b \A \z …): it matches nothing but can fail. */
  | { kind: 'assert' }
  | { kind: 'backref' }
  | { kind: 'group'; alternatives: Item[][]; look?: 'ahead' | 'behind'; /** "(", "(?:", "(?<=", "(?i:"… */ head: string };

export interface Item {
  atom: Atom;
  min: number;
  max: number;
  /** The item's source text, quantifier included, for messages. */
  source: string;
  /** The quantifier's text at the end of `source` ("", "*", "{2,}?"…). */
  quantifier: string;
}

/** Throws a SyntaxError for what the parser cannot follow (an unclosed group or class). */
export function parseRegex(pattern: string): Item[][] {
  let i = 0;
  const alternatives = (): Item[][] => {
    const alts: Item[][] = [[]];
    while (i < pattern.length) {
      const c = pattern[i];
      if (c === ')') break;
      if (c === '|') { i++; alts.push([]); continue; }
      const start = i;
      const atom = parseAtom();
      if (atom === undefined) continue;
      const atomEnd = i;
      const [min, max] = quantifier();
      alts[alts.length - 1].push({ atom, min, max, source: pattern.slice(start, i), quantifier: pattern.slice(atomEnd, i) });
    }
    return alts;
  };
  const parseAtom = (): Atom | undefined => {
    const c = pattern[i];
    if (c === '(') return group();
    if (c === '[') { charClass(); return { kind: 'char' }; }
    if (c === '\\') return escape();
    i++;
    if (c === '^' || c === '$') return { kind: 'assert' };
    // A character outside the BMP is one atom (its two UTF-16 units are never parted).
    if (/[\ud800-\udbff]/.test(c) && /[\udc00-\udfff]/.test(pattern[i] ?? '')) i++;
    return { kind: 'char' };
  };
  const group = (): Atom | undefined => {
    const open = i;
    i++;
    let look: 'ahead' | 'behind' | undefined;
    if (pattern[i] === '?') {
      const head = /^\?(<=|<!|=|!|:|>|<[A-Za-z_][A-Za-z0-9_]*>|'[A-Za-z_][A-Za-z0-9_]*'|[imx-]+:|[imx-]+\))/.exec(pattern.slice(i));
      if (!head) throw new SyntaxError(`an unknown group "(${pattern.slice(i, i + 4)}" at index ${i - 1}`);
      if (head[1].endsWith(')')) { i += head[0].length; return undefined; } // an inline flag like (?i): no atom
      if (head[1] === '=' || head[1] === '!') look = 'ahead';
      if (head[1] === '<=' || head[1] === '<!') look = 'behind';
      i += head[0].length;
    }
    const head = pattern.slice(open, i);
    const alts = alternatives();
    if (pattern[i] !== ')') throw new SyntaxError('a group is not closed');
    i++;
    return { kind: 'group', alternatives: alts, head, ...(look ? { look } : {}) };
  };
  const charClass = () => {
    // Oniguruma classes nest ([a-z&&[^aeiou]]) and hold POSIX brackets ([[:alpha:]]); a ] first is literal.
    let depth = 0;
    for (; i < pattern.length; i++) {
      const c = pattern[i];
      if (c === '\\') { i++; continue; }
      if (c === '[') {
        depth++;
        if (pattern[i + 1] === '^') i++;
        if (pattern[i + 1] === ']') i++;
        continue;
      }
      if (c === ']' && --depth === 0) { i++; return; }
    }
    throw new SyntaxError('a character class is not closed');
  };
  const escape = (): Atom => {
    const c = pattern[i + 1];
    i += 2;
    if (c === undefined) throw new SyntaxError('the pattern ends in a backslash');
    if (/[1-9]/.test(c) || (c === 'k' && pattern[i] === '<') || (c === 'g' && pattern[i] === '<')) return { kind: 'backref' };
    if ('pPxuo'.includes(c) && pattern[i] === '{') {
      const end = pattern.indexOf('}', i);
      if (end < 0) throw new SyntaxError(`"\\${c}{" is not closed`);
      i = end + 1;
    }
    return 'bBAzZG'.includes(c) ? { kind: 'assert' } : { kind: 'char' };
  };
  const quantifier = (): [number, number] => {
    const c = pattern[i];
    let range: [number, number] | undefined;
    if (c === '*') { i++; range = [0, Infinity]; } else if (c === '+') { i++; range = [1, Infinity]; } else if (c === '?') { i++; range = [0, 1]; } else if (c === '{') {
      const m = /^\{(\d*)(,(\d*))?\}/.exec(pattern.slice(i, i + 32));
      if (m && (m[1] !== '' || (m[3] ?? '') !== '')) {
        i += m[0].length;
        const lo = m[1] === '' ? 0 : Number(m[1]);
        range = [lo, m[2] === undefined ? lo : m[3] === '' ? Infinity : Number(m[3])];
      }
    }
    if (range === undefined) return [1, 1];
    // A lazy (?) or possessive (+) mark after the quantifier changes the order of tries, not their number.
    if (pattern[i] === '?' || pattern[i] === '+') i++;
    return range;
  };
  const alts = alternatives();
  if (i < pattern.length) throw new SyntaxError(`an unmatched ")" at index ${i}`);
  return alts;
}
