// The matrix view's block geometry (webview/views/spec/matrix-layout.ts): label space from the
// longest token (at most 110 px, at least 10), labels only when a cell is 7 px or more, column
// labels upright when a cell is wide enough for six w's, else slanted; the block's size from the
// cells drawn (⌈n / stride⌉) and the head's title.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HEAD_TITLE_H, layoutBlock } from '../../../../../webview/views/spec/matrix-layout.js';
import { textWidth } from '../../../../../webview/kit/format.js';

test('four tokens at 40 px: labels as wide as the longest token + 8, slanted column labels', () => {
  const tokens = ['i', 'love', 'apple', 'watch'];
  const fs = 12;
  const longest = textWidth('watch', fs);
  // "watch": w (0.9) + a, t, c, h (0.56 each) = 3.14 em.
  assert.ok(Math.abs(longest - 3.14 * 12) < 1e-9);
  const b = layoutBlock(tokens, 4, 40, 1, fs);
  assert.equal(HEAD_TITLE_H, 32);
  assert.equal(b.labelW, longest + 8);
  // 40 px is narrower than six w's (6 · 0.9 · 12 = 64.8 px): labels are slanted, 0.72 of their length + 12.
  assert.equal(b.labelH, longest * 0.72 + 12);
  assert.equal(b.width, b.labelW + 4 * 40);
  assert.equal(b.height, b.labelH + 4 * 40 + 32 + 4);
  assert.deepEqual([b.cell, b.stride], [40, 1]);
});

test('cells wider than six w\'s take upright column labels: one line of text + 8', () => {
  const b = layoutBlock(['a', 'b'], 2, 70, 1, 12);
  assert.equal(b.labelH, 12 + 8);
  // The longest token is short: the label column is at least 10 + 8 px.
  assert.equal(b.labelW, 18);
});

test('a 100,000-character token is capped at 110 px; under 7 px a cell has no labels', () => {
  const long = layoutBlock(['x'.repeat(100_000)], 1, 20, 1, 12);
  assert.equal(long.labelW, 118);
  const tiny = layoutBlock(['apple', 'watch'], 2, 6, 1, 12);
  assert.deepEqual([tiny.labelW, tiny.labelH], [28, 18]);
});

test('with a stride, ⌈n / stride⌉ cells are drawn: 1,000 tokens by 8 are 125 cells', () => {
  const tokens = Array.from({ length: 1000 }, (_, i) => `t${i}`);
  const b = layoutBlock(tokens, 1000, 4, 8, 12);
  assert.equal(b.width, 28 + 125 * 4);
  assert.equal(b.height, 18 + 125 * 4 + HEAD_TITLE_H + 4);
  assert.equal(b.stride, 8);
});

// The widths test found init-four-rules' key labels on each other at 430 px: 22 px cells put 45°
// labels 15.6 px apart across their lines, less than a line of 13 px type. They stand upright there.
test('column labels at 45° only when they are a line of text apart; closer, upright', () => {
  const tokens = ['1. the', '2. cat', '3. sat'];
  const longest = Math.max(...tokens.map((t) => textWidth(t, 13)));
  const upright = layoutBlock(tokens, 3, 22, 1, 13);
  assert.equal(upright.colTurn, -90);
  assert.equal(upright.labelH, longest + 12);
  assert.ok(upright.cell >= upright.labelRoom, 'upright labels one cell apart have their room');
  const slanted = layoutBlock(tokens, 3, 40, 1, 13);
  assert.equal(slanted.colTurn, -45);
  assert.ok(slanted.cell * Math.SQRT1_2 >= slanted.labelRoom);
  assert.equal(layoutBlock(['a', 'b'], 2, 70, 1, 12).colTurn, 0);
});
