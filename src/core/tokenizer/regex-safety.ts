// A tokenizer.json's regular expressions (a Split pre-tokenizer's, a Replace's) run on every text the
// user types, in JavaScript's backtracking engine, which cannot be interrupted: "(a+)+$" on 30 a's and
// a b takes minutes, and the extension host or `attn run` would hang. The classic exponential shape is
// a group repeated by * + or {n,} / {n,m} whose body itself repeats or holds an alternative ("(a+)+",
// "(a|aa)*", "(\s*\S)+"); no real tokenizer's pattern has one (GPT-2's, Llama 3's and Qwen2's repeat
// character classes, never groups), so such a pattern is refused here, before the library compiles it.
// This is a shape test, not a proof: it finds the exponential shapes, not every slow pattern.

interface Group { repeats: boolean; alternates: boolean; start: number }

/** The first repeated group whose body repeats or alternates, as its source text; undefined when none. */
export function exponentialGroup(pattern: string): string | undefined {
  const stack: Group[] = [{ repeats: false, alternates: false, start: 0 }];
  /** Length of the repeating quantifier at `i` (0 when there is none or it repeats at most once). */
  const repeatAt = (i: number): number => {
    const c = pattern[i];
    if (c === '*' || c === '+') return 1;
    if (c !== '{') return 0;
    const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 24));
    if (!m) return 0;
    const most = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
    return most > 1 ? m[0].length : 0;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const top = stack[stack.length - 1];
    if (c === '\\') { i++; continue; }
    if (c === '[') {
      // A character class: skip to its closing bracket (escapes and a leading ] included).
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      for (; j < pattern.length && pattern[j] !== ']'; j++) if (pattern[j] === '\\') j++;
      i = j;
      if (repeatAt(i + 1) > 0) top.repeats = true;
      continue;
    }
    if (c === '(') { stack.push({ repeats: false, alternates: false, start: i }); continue; }
    if (c === '|') { top.alternates = true; continue; }
    if (c === ')' && stack.length > 1) {
      const group = stack.pop()!;
      const parent = stack[stack.length - 1];
      const repeated = repeatAt(i + 1) > 0;
      if (repeated && (group.repeats || group.alternates)) return pattern.slice(group.start, i + 1 + repeatAt(i + 1));
      if (repeated || group.repeats) parent.repeats = true;
      continue;
    }
    if (repeatAt(i) > 0) top.repeats = true;
  }
  return undefined;
}
