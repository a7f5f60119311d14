// From a place in a string value to its place in the JSON text: a character of the value is one
// character of the literal, or one escape (\n: two characters, \u00e9: six), so a problem about a
// word of a spec's "text" is underlined on that word in the editor, escapes and all.

/**
 * A reader of the string literal at `literalOffset` in `source` (its opening quote): `at(i)` is the
 * offset in `source` of the value's character i. Asked in increasing order, it walks the literal once.
 */
export function stringOffsets(source: string, literalOffset: number): { at(index: number): number } {
  let index = 0, offset = literalOffset + 1;
  return {
    at(target: number): number {
      if (target < index) { index = 0; offset = literalOffset + 1; }
      while (index < target && offset < source.length && source[offset] !== '"') {
        offset += source[offset] !== '\\' ? 1 : source[offset + 1] === 'u' ? 6 : 2;
        index++;
      }
      return Math.min(offset, source.length);
    },
  };
}
