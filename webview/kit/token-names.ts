// How a view names a token when the same word occurs more than once ("the cat saw the dog"): by
// its position in the sentence, as the token menu, the step-by-step table and the geometry table
// already do. A label is "4. the"; a sentence says "the" (token 4). Words that occur once keep
// their plain name, so the seed's pictures read as before.

/** The words that occur more than once in `tokens` (one pass). */
export function repeatedWords(tokens: readonly string[]): ReadonlySet<string> {
  const seen = new Set<string>(), twice = new Set<string>();
  for (const t of tokens) {
    if (seen.has(t)) twice.add(t);
    else seen.add(t);
  }
  return twice;
}

/** A label on an axis: "4. the", numbered like the token menu. */
export function numberedLabel(tokens: readonly string[], i: number): string {
  return `${i + 1}. ${tokens[i]}`;
}

/** A token in a sentence: `"the" (token 4)` when the word repeats, else `"cat"`. */
export function quotedToken(tokens: readonly string[], i: number, repeated: ReadonlySet<string>): string {
  const t = tokens[i];
  return repeated.has(t) ? `"${t}" (token ${i + 1})` : `"${t}"`;
}

/** A token in an arrow or formula (the → dog): `the (token 4)` when the word repeats, else `the`. */
export function plainToken(tokens: readonly string[], i: number, repeated: ReadonlySet<string>): string {
  const t = tokens[i];
  return repeated.has(t) ? `${t} (token ${i + 1})` : t;
}
