// Texts for comparing two tokenizers built from one file (a fresh build and a cached one): pieces of
// the real texts (test/support/real-tokenizers.ts) and runs of characters from every script those
// texts touch, joined at random from a seed, so each run checks the same few hundred texts.
import { between, seeded } from './random.js';
import { REAL_TEXTS } from './real-tokenizers.js';

/** [first, last] code points to draw from: ASCII, Latin-1, Greek, Cyrillic, Arabic, CJK, Hangul, emoji, astral CJK. */
const RANGES: [number, number][] = [[0x20, 0x7e], [0xa0, 0xff], [0x370, 0x3ff], [0x400, 0x4ff], [0x600, 0x6ff], [0x4e00, 0x4fff], [0xac00, 0xacff], [0x1f300, 0x1f64f], [0x20000, 0x2007f]];
const SPACES = [' ', '  ', '\n', '\t', '\r\n', '   '];

export function cacheTexts(seed: number, count: number): string[] {
  const rand = seeded(seed);
  const pick = <T>(list: readonly T[]) => list[between(rand, 0, list.length - 1)];
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let part = between(rand, 1, 6); part > 0; part--) {
      if (rand() < 0.5) {
        const real = pick(REAL_TEXTS);
        const from = between(rand, 0, real.length);
        text += real.slice(from, from + between(rand, 1, 40));
      } else {
        const [lo, hi] = pick(RANGES);
        for (let n = between(rand, 1, 12); n > 0; n--) text += String.fromCodePoint(between(rand, lo, hi));
      }
      text += pick(SPACES);
    }
    texts.push(text);
  }
  return texts;
}
