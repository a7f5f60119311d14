// resolveSelection (webview/views/spec/selection.ts): one answer to "which input, head and token does this
// view show", for the panel, attn render and the views.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../../../../src/core/index.js';
import { resolveSelection } from '../../../../../webview/views/spec/selection.js';
import { exampleText } from '../../../../support/specs.js';

const mouse = analyze(exampleText('mouse-two-contexts.attn.json')).data!;
const multi = analyze(exampleText('multi-head-causal.attn.json')).data!;

test('a selection inside the data is kept as it is', () => {
  assert.deepEqual(resolveSelection(multi, 'matrix', { input: 0, head: 1, token: 2 }), { input: 0, head: 1, token: 2 });
  assert.deepEqual(resolveSelection(multi, 'arcs', { input: 0, head: 'all', token: 0 }), { input: 0, head: 'all', token: 0 });
});

test('out of range or unset: the first input, all heads, and the view\'s own start token', () => {
  const n = multi.inputs[0].tokens.length;
  assert.deepEqual(resolveSelection(multi, 'arcs', { input: 7, head: 9, token: -1 }), { input: 0, head: 'all', token: n - 1 });
  assert.deepEqual(resolveSelection(multi, 'arcs', { input: 0, head: 1.5, token: 99 }), { input: 0, head: 'all', token: n - 1 });
});

test('compare starts on the shared word whose outputs differ most, in its input, unless the input is pinned', () => {
  const free = resolveSelection(mouse, 'compare', { input: 1, head: 0, token: -1 });
  const word = mouse.inputs[free.input].tokens[free.token];
  assert.equal(word, 'mouse');
  const pinned = resolveSelection(mouse, 'compare', { input: 1, head: 0, token: -1 }, true);
  assert.equal(pinned.input, 1);
  assert.equal(mouse.inputs[1].tokens[pinned.token], 'mouse');
});
