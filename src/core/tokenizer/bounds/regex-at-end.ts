// A regex rewritten so that reaching the end of its input is a success: each character it would read,
// each \b and lookbehind may instead be the end, and each lookahead holds within MAX_LOOK of it. On a
// window of a longer text, a match of the rewritten regex that ends before the window's last MAX_LOOK
// units is exactly the original's match on the whole text there, and the places before it have none:
// any way of matching that read the window's end (a long run that fails after it, "\s+$", "(?!\S)")
// would have matched the rewritten regex at the end instead. Groups and their numbers stay the same, so
// a Split's captured groups are the original's.
import { MAX_LOOK } from './regex-safety.js';
import { type Item, parseRegex } from './regex-tree.js';

/**
 * The end of the input: "$", or under "m" (where "$" ends a line) nothing after; V8 reads "(?![\s\S])"
 * as true between the two halves of a surrogate pair, so it is not used where "$" will do.
 */
const endOf = (flags: string) => (flags.includes('m') ? '(?![\\s\\S])' : '$');

const source = (alts: Item[][]): string => alts.map((alt) => alt.map((it) => it.source).join('')).join('|');

function rewrite(alts: Item[][], END: string): string {
  return alts.map((alt) => alt.map((it) => {
    const atom = it.source.slice(0, it.source.length - it.quantifier.length);
    const a = it.atom;
    if (a.kind === 'char') return `(?:${atom}|${END})${it.quantifier}`;
    if (a.kind === 'assert') return atom === '\\b' || atom === '\\B' ? `(?:${atom}|${END})${it.quantifier}` : it.source;
    if (a.kind === 'backref') return it.source;
    if (a.look === 'ahead') return `(?:${a.head}${source(a.alternatives)})|(?=[\\s\\S]{0,${MAX_LOOK}}${END}))${it.quantifier}`;
    if (a.look === 'behind') return `(?:${a.head}${source(a.alternatives)})|${END})${it.quantifier}`;
    return `${a.head}${rewrite(a.alternatives, END)})${it.quantifier}`;
  }).join('')).join('|');
}

/** The rewritten regex (sticky or global as asked), or undefined when the pattern cannot be rewritten. */
export function atEnd(regex: RegExp, flags: string): RegExp | undefined {
  try {
    return new RegExp(rewrite(parseRegex(regex.source), endOf(regex.flags)), flags);
  } catch {
    return undefined;
  }
}
