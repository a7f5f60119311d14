// The next-token view of a model run: in a 430 px panel the line under its title ran off the right
// edge ("… (fo"); it wraps to the view's width now, the rows below it moved down, and every token
// and its p are drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanModel } from '../../../../../src/core/model-attention/scan.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { memoryAttention, randomAttention } from '../../../../support/model-fixture.js';
import { drawModel } from '../../../../support/model-views.js';

const tokens = ['The', ' cat', ' sat', ' on', ' the', ' mat', '.', ' The', ' cat'];
const data = {
  ...scanModel(memoryAttention(randomAttention(2, 2, tokens.length), 2, 2, tokens.length, tokens)),
  run: {
    model: 'models/induction-gpt2', forwardMs: 79,
    next: [{ id: 3, token: ' sat', p: 0.9632 }, { id: 2, token: ' cat', p: 0.0196 }, { id: 4, token: ' on', p: 0.0004 }],
  },
};

test('at 387 px the note under the title wraps inside the view, the rows below it', () => {
  const width = 387;
  const { svg } = drawModel('next', data, { width });
  assert.ok(Number(svg.getAttribute('width')) <= width);
  const note = svg.querySelector('text.note')!;
  const lines = [...note.querySelectorAll('tspan')].map((t) => t.textContent ?? '');
  assert.ok(lines.length >= 2, `the note takes ${lines.length} line(s)`);
  for (const line of lines) assert.ok(8 + textWidth(line.trim(), 12) <= width - 8, `"${line}" fits`);
  assert.match(lines.join(''), /after #9 " cat", the softmax .*forward pass 79 ms\)/);
  const noteBottom = 38 + (lines.length - 1) * 15;
  const firstToken = svg.querySelector('text.token')!;
  const rowTop = Number(/translate\(0,([\d.]+)\)/.exec(firstToken.parentElement!.getAttribute('transform') ?? '')![1]);
  assert.ok(rowTop > noteBottom + 8, `the first row (at ${rowTop}) is below the note (ending at ${noteBottom})`);
  assert.deepEqual([...svg.querySelectorAll('text.token')].map((t) => t.textContent), ['" sat"', '" cat"', '" on"']);
  assert.deepEqual([...svg.querySelectorAll('text.p')].map((t) => t.textContent), ['p = 0.9632', 'p = 0.0196', 'p = 0.0004']);
});

test('wide, the note is one line', () => {
  const { svg } = drawModel('next', data, { width: 900 });
  assert.equal(svg.querySelectorAll('text.note tspan').length, 1);
});

// An encoder's run: no next token; the guesses at each mask token, under a line naming it.
const maskTokens = ['[CLS]', 'the', '[MASK]', 'sat', 'on', '[MASK]', '[SEP]'];
const encoder = {
  ...scanModel(memoryAttention(randomAttention(2, 2, maskTokens.length), 2, 2, maskTokens.length, maskTokens)),
  run: {
    model: 'models/tiny-bert', forwardMs: 12, next: [],
    masked: [2, 5].map((position) => ({ position, guesses: [{ id: 7, token: 'cat', p: 0.5 }, { id: 8, token: 'dog', p: 0.25 }, { id: 9, token: 'mat', p: 0.125 }] })),
  },
};

for (const width of [430, 700, 1200]) {
  test(`an encoder at ${width} px: each mask token's guesses under its own line, no text over another`, () => {
    const { svg, handle } = drawModel('next', encoder, { width });
    assert.ok(Number(svg.getAttribute('width')) <= width);
    assert.deepEqual([...svg.querySelectorAll('text.mask-label')].map((t) => t.textContent), ['at #3 "[MASK]"', 'at #6 "[MASK]"']);
    assert.deepEqual([...svg.querySelectorAll('text.token')].map((t) => t.textContent), ['"cat"', '"dog"', '"mat"', '"cat"', '"dog"', '"mat"']);
    assert.match(svg.querySelector('text.note')!.textContent ?? '', /masked-token head's softmax at each mask token/);
    assert.ok(handle.notes.includes('at #6 "[MASK]"'));
    // Each text's line box (its group's offset + y) is apart from every other's in the same column.
    const boxes = [...svg.querySelectorAll('g text.mask-label, g text.token')].map((t) => {
      const g = Number(/translate\(0,([\d.]+)\)/.exec(t.parentElement!.getAttribute('transform') ?? '')![1]);
      return g + Number(t.getAttribute('y'));
    }).sort((a, b) => a - b);
    boxes.slice(1).forEach((y, i) => assert.ok(y - boxes[i] >= 14, `texts at ${boxes[i]} and ${y} overlap`));
    const height = Number(svg.getAttribute('height'));
    assert.ok(boxes.at(-1)! < height, 'the last row is inside the view');
  });
}

test('an encoder run without a mask token (or without its head): the view is absent, the run\'s sentence says why', () => {
  const note = 'the text holds no mask token ([MASK] or <mask>), the only place an encoder guesses a token';
  const { svg } = drawModel('next', { ...encoder, run: { model: 'models/tiny-bert', forwardMs: 12, next: [], masked: [], note } }, { width: 430 });
  assert.equal(svg.querySelectorAll('rect.bar').length, 0);
  assert.match(svg.textContent ?? '', /masked-token guess: the text holds no mask token/);
});

test('the note says the numeric form the forward pass ran in, when the run says it', () => {
  const noteOf = (precision?: 'f32' | 'f64') => {
    const { svg } = drawModel('next', { ...data, run: { ...data.run, ...(precision ? { precision } : {}) } }, { width: 1200 });
    return [...svg.querySelectorAll('text.note tspan')].map((t) => t.textContent ?? '').join('');
  };
  assert.match(noteOf('f32'), /\(forward pass 79 ms in float32\)$/);
  assert.match(noteOf('f64'), /\(forward pass 79 ms in float64\)$/);
  assert.match(noteOf(), /\(forward pass 79 ms\)$/);
});
