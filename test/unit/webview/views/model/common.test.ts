// What the model views share: tokens, layers and heads counted from 1 on screen (as the spec
// views count), JSON-quoted tokens, and the crosshair's colour per theme.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { crosshair, headName, shown, tokenLabel, tokenName } from '../../../../../webview/views/model/common.js';

test('tokens, layers and heads are counted from 1 on screen', () => {
  assert.equal(shown(0), 1);
  assert.equal(tokenName(['the', 'cat'], 1), '#2 "cat"');
  assert.equal(tokenName([], 49), '#50', 'the 50th token of a file without tokens');
  assert.equal(tokenLabel([], 0), '#1');
  assert.equal(tokenLabel(['a\nb'], 0), '"a\\nb"');
  assert.equal(headName(0, 11), 'layer 1 head 12');
});

test('the crosshair is the accent except in the dark theme, whose accent is viridis\'s strongest yellow', () => {
  assert.notEqual(crosshair(makeTheme('dark')), makeTheme('dark').accent);
  for (const kind of ['light', 'hc-dark', 'hc-light'] as const) assert.equal(crosshair(makeTheme(kind)), makeTheme(kind).accent);
});
