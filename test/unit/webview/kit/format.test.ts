// The webview's label clipping: never half a character.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { characters, clip, textWidth } from '../../../../webview/kit/format.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

test('clip cuts an emoji token between characters, never inside a surrogate pair', () => {
  const token = 'a😀😀😀😀😀😀😀😀b';
  for (let px = 1; px <= textWidth(token, 12) + 2; px += 0.5) {
    const out = clip(token, px, 12);
    assert.doesNotMatch(out, LONE_SURROGATE, `width ${px}: ${JSON.stringify(out)}`);
    if (out !== token) {
      assert.ok(out.endsWith('…'));
      assert.ok(token.startsWith(out.slice(0, -1)), `width ${px}: a prefix of the token`);
    }
  }
  // Too narrow for anything: the first emoji stays whole (a code-unit cut would leave '\uD83D…').
  assert.equal(clip('😀😀', 1, 12), '😀…');
  for (const t of ['😀', '😀x', '😀😀😀😀']) assert.doesNotMatch(clip(t, 1, 12), LONE_SURROGATE, t);
  // A width that falls inside the second emoji: the whole emoji goes.
  assert.equal(clip('😀😀😀', textWidth('😀😀', 12) - 1, 12).replace('…', ''), '😀');
});

test('clip keeps a joined emoji (ZWJ family, skin tone) whole or drops it', () => {
  const family = '👩‍👩‍👧';
  const wave = '👋🏽';
  assert.deepEqual(characters(`${family}${wave}x`), [family, wave, 'x']);
  const token = `${family}${family}${wave}${wave}`;
  for (let px = 1; px <= textWidth(token, 12) + 2; px += 0.5) {
    const kept = clip(token, px, 12).replace(/…$/, '');
    const parts = characters(kept);
    assert.ok(parts.every((c) => c === family || c === wave), `width ${px}: ${JSON.stringify(kept)}`);
  }
});

test('clip leaves a label that fits alone and shortens plain text as before', () => {
  assert.equal(clip('watch', 1000, 12), 'watch');
  const out = clip('a rather long label for a head', 60, 12);
  assert.ok(out.endsWith('…'));
  assert.ok(textWidth(out, 12) <= 60);
});

// The widths test found the matrix's label "6. mat" cut to "6. m…" at 13 px type in a margin sized
// by textWidth for it: clip summed the widths a character at a time, 46.28000000000001 > 46.28.
test('clip leaves a text whole when given exactly its own width, at any font size', () => {
  for (const s of ['6. mat', '1. the', 'keyboard', 'W_Q', 'apple′', 'q_watch · k_apple']) {
    for (let size = 8; size <= 20; size += 0.5) assert.equal(clip(s, textWidth(s, size), size), s, `"${s}" at ${size} px`);
  }
});

test('textWidth from its table is, to the bit, the per-character rule on any text (surrogates and emoji too)', () => {
  const rule = (s: string, fontSize: number) => {
    let w = 0;
    for (const ch of s) w += /[ilj.,:;'|!1]/.test(ch) ? 0.32 : /[mwMW@]/.test(ch) ? 0.9 : /[A-Z0-9]/.test(ch) ? 0.66 : 0.56;
    return w * fontSize;
  };
  const texts = ['', 'apple watch', 'Illj.,:;|!1 mwMW@ AZ09 ~', 'naïve 日本語', '👍🏽 family 👨‍👩‍👧', '\ud800 lone \udc00 halves \ud83d', 'x'.repeat(1000)];
  let s = 3;
  for (let k = 0; k < 300; k++) {
    texts.push(Array.from({ length: k % 40 }, () => String.fromCharCode((s = (s * 16807) % 2147483647) % 0xe000)).join(''));
  }
  for (const t of texts) for (const size of [10, 13, 14.3]) assert.equal(textWidth(t, size), rule(t, size), JSON.stringify(t));
});

test('characters() splits text without a segmenter exactly where Intl.Segmenter splits it, on the ranges it skips it for', () => {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const ranges: [number, number][] = [[0x20, 0x7e], [0xa0, 0xff], [0x2010, 0x2027], [0x2030, 0x205e], [0x2190, 0x22ff]];
  const every = ranges.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, k) => String.fromCharCode(a + k)));
  const texts = ['3 layer(s) × 12 head(s) × 512 tokens (F32)', 'naïve café → ≈ √64 … “quoted”', every.join('')];
  let s = 11;
  for (let k = 0; k < 200; k++) texts.push(Array.from({ length: 1 + (k % 30) }, () => every[(s = (s * 16807) % 2147483647) % every.length]).join(''));
  for (const t of texts) assert.deepEqual(characters(t), Array.from(segmenter.segment(t), (x) => x.segment), JSON.stringify(t));
  // Outside those ranges the segmenter still joins: a base letter and its combining accent, a flag.
  assert.deepEqual(characters('e\u0301x'), ['e\u0301', 'x']);
  assert.deepEqual(characters('\u{1F1EB}\u{1F1F7}'), ['\u{1F1EB}\u{1F1F7}']);
});
