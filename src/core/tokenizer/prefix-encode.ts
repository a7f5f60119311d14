// The first `limit` ids of a long text without tokenizing all of it (`--max-tokens 8` over an 8 MB
// file): growing prefixes are tokenized, cut before a space where one is near, until two prefixes in a
// row give more than limit + MARGIN ids and agree on the first `limit`. A rule that looks far ahead
// (a regex's lookahead, a pre-tokenizer that needs the next character) only changes the ids near a
// cut, MARGIN ids past the ones kept.
import type { Encoding } from './tokenizer.js';

const MARGIN = 16;
/** Characters in the first prefix, per id wanted (real texts run 3 to 5 characters an id). */
const CHARS_PER_ID = 16;

/** Where to cut `text` near `length`: before the last space within 64 characters, never inside a surrogate pair. */
function cutNear(text: string, length: number): number {
  const space = text.lastIndexOf(' ', length);
  if (space > length - 64 && space > 0) return space;
  const c = text.charCodeAt(length);
  return c >= 0xdc00 && c <= 0xdfff ? length - 1 : length;
}

const firstIds = (e: Encoding, limit: number): Encoding => ({ ids: e.ids.slice(0, limit), pieces: e.pieces.slice(0, limit) });

export function encodePrefix(text: string, limit: number, encode: (text: string) => Encoding): Encoding {
  let previous: Encoding | undefined;
  for (let length = Math.max(1024, limit * CHARS_PER_ID); length < text.length; length *= 2) {
    const e = encode(text.slice(0, cutNear(text, length)));
    if (e.ids.length <= limit + MARGIN) continue;
    if (previous && e.ids.slice(0, limit).every((id, i) => id === previous?.ids[i])) return firstIds(e, limit);
    previous = e;
  }
  return firstIds(encode(text), limit);
}
