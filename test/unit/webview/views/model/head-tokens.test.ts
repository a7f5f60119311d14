// The head as tokens (BertViz's head view): queries left, keys right; the lit token's lines and
// shades are its weights; a long head shows a window of WINDOW tokens that the keyboard, the
// buttons and the wheel move, and says the range and the weight outside it; a head that came as a
// picture asks for the window's exact weights and draws them when they come.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headFloat32, headPicture, headWindow, scanModel } from '../../../../../src/core/model-attention/scan.js';
import { WINDOW, windowStart } from '../../../../../webview/views/model/head-tokens.js';
import { memoryAttention, randomAttention } from '../../../../support/model-fixture.js';
import { drawModel } from '../../../../support/model-views.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';

const WORDS = ['the', 'cat', 'sat', 'on', 'a', 'mat'];
function file(n: number) {
  return memoryAttention(randomAttention(1, 1, n, 9), 1, 1, n, Array.from({ length: n }, (_, i) => WORDS[i % WORDS.length]));
}
function whole(n: number) {
  const a = file(n);
  return { a, data: { ...scanModel(a), head: { layer: 0, head: 0, weights: headFloat32(a, 0, 0) } } };
}

test('windowStart: the window holds the chosen token and stays inside the head', () => {
  assert.equal(windowStart(5, 12), 0);
  assert.equal(windowStart(199, 200), 160);
  assert.equal(windowStart(0, 200), 0);
  assert.equal(windowStart(100, 200), 80);
});

test('a short head: every token on both sides; the chosen query\'s lines and the keys\' shades are its weights', () => {
  const { a, data } = whole(12);
  const theme = makeTheme('light');
  const { svg, handle } = drawModel('head-tokens', data, { token: 3, theme });
  assert.equal(svg.querySelectorAll('g.token[data-side="query"]').length, 12);
  assert.equal(svg.querySelectorAll('g.token[data-side="key"]').length, 12);
  assert.equal(svg.querySelector('g.token[data-side="query"][data-token="3"] text')!.textContent, '4 "on"', 'counted from 1');
  const w = headFloat32(a, 0, 0).subarray(3 * 12, 4 * 12);
  let max = 0;
  for (const v of w) max = Math.max(max, v);
  const lines = [...svg.querySelectorAll('line.link')];
  assert.equal(lines.length, 12, 'one line to each key');
  for (const l of lines) {
    assert.equal(l.getAttribute('data-query'), '3');
    const j = Number(l.getAttribute('data-key'));
    assert.ok(Math.abs(Number(l.getAttribute('stroke-opacity')) - (0.1 + 0.9 * w[j] / max)) < 1e-9);
  }
  for (let j = 0; j < 12; j++) {
    const shade = svg.querySelector(`g.token[data-side="key"][data-token="${j}"] rect.shade`)!.getAttribute('fill');
    assert.equal(shade, theme.seq(w[j] / max), `key ${j + 1} shaded by its weight`);
    assert.match(svg.querySelector(`g.token[data-side="key"][data-token="${j}"] title`)!.textContent!, new RegExp(`^key #${j + 1} "${WORDS[j % 6]}"; weight `));
  }
  assert.match(svg.querySelector('text.range')!.textContent!, /^all 12 tokens$/);
  assert.ok(handle.notes[0].includes('queries on the left read the keys on the right'));
});

test('hovering a key lights the queries that read it, by their weight on it', () => {
  const { a, data } = whole(12);
  const { svg, dom } = drawModel('head-tokens', data, { interactive: true });
  svg.querySelector('g.token[data-side="key"][data-token="5"] text')!.dispatchEvent(new dom.window.MouseEvent('pointerover', { bubbles: true }));
  const lines = [...svg.querySelectorAll('line.link')];
  assert.equal(lines.length, 12);
  assert.ok(lines.every((l) => l.getAttribute('data-key') === '5'));
  const column = Array.from({ length: 12 }, (_, i) => headFloat32(a, 0, 0)[i * 12 + 5]);
  const strongest = column.indexOf(Math.max(...column));
  const widest = lines.reduce((b, l) => (Number(l.getAttribute('stroke-width')) > Number(b.getAttribute('stroke-width')) ? l : b));
  assert.equal(Number(widest.getAttribute('data-query')), strongest);
  assert.match(svg.querySelector('text.outside')!.textContent!, /^key #6 "mat": the weight each query shown puts on it/);
});

test('a long head shows a window of tokens, says which, and the keyboard moves it past its edges', () => {
  const n = 200;
  const { data } = whole(n);
  const { svg, key, active, tips } = drawModel('head-tokens', data, { interactive: true, token: 199 });
  assert.equal(svg.querySelectorAll('g.token').length, 2 * WINDOW, `${WINDOW} tokens a side, not ${n}`);
  assert.equal(svg.querySelector('text.range')!.textContent, 'tokens 161–200 of 200');
  assert.match(svg.querySelector('text.outside')!.textContent!, /^query #200 "cat": [\d.]+ of its weight on the keys shown, [\d.]+ outside them; lines relative to its strongest weight shown/);
  const stop = svg.querySelectorAll('g.token[tabindex="0"]');
  assert.equal(stop.length, 1, 'one tab stop');
  assert.equal(stop[0].getAttribute('data-token'), '199');
  (stop[0] as unknown as HTMLElement).focus();
  key(active()!, 'ArrowUp');
  assert.equal(active()!.getAttribute('data-token'), '198');
  assert.match(tips.at(-1)![0], /^query #199 "the"/);
  key(active()!, 'ArrowRight');
  assert.equal(active()!.getAttribute('data-side'), 'key');
  key(active()!, 'Home');
  assert.equal(svg.querySelector('text.range')!.textContent, 'tokens 1–40 of 200', 'Home: the window moved to the first token');
  assert.equal(active()!.getAttribute('data-token'), '0');
  key(active()!, 'ArrowUp');
  assert.equal(active()!.getAttribute('data-token'), '0', 'nothing before the first token');
  for (let k = 0; k < WINDOW; k++) key(active()!, 'ArrowDown');
  assert.equal(active()!.getAttribute('data-token'), String(WINDOW));
  assert.equal(svg.querySelector('text.range')!.textContent, 'tokens 2–41 of 200', 'ArrowDown past the last shown token moves the window by one');
  key(active()!, 'PageDown');
  assert.equal(active()!.getAttribute('data-token'), String(2 * WINDOW));
  assert.equal(svg.querySelectorAll('g.token[tabindex="0"]').length, 1);
  // The pointer's buttons move a window at a time.
  const later = [...svg.querySelectorAll('text.scroll')].find((t) => t.textContent!.includes('later'))!;
  const before = svg.querySelector('text.range')!.textContent;
  later.dispatchEvent(new (later.ownerDocument.defaultView!).MouseEvent('click', { bubbles: true }));
  assert.notEqual(svg.querySelector('text.range')!.textContent, before);
});

test('the paging buttons are disabled at the ends of a long head, in both directions, and work from the keyboard', () => {
  const n = 200;
  const { data } = whole(n);
  const { svg } = drawModel('head-tokens', data, { interactive: true, token: 199 });
  const win = svg.ownerDocument.defaultView!;
  const button = (word: string) => [...svg.querySelectorAll('text.scroll')].find((t) => t.textContent!.includes(word))!;
  const range = () => svg.querySelector('text.range')!.textContent;
  const state = (word: string) => ({ disabled: button(word).getAttribute('aria-disabled'), tab: button(word).getAttribute('tabindex') });
  assert.equal(range(), 'tokens 161–200 of 200');
  assert.deepEqual(state('later'), { disabled: 'true', tab: null }, 'nothing later than the last window');
  assert.deepEqual(state('earlier'), { disabled: 'false', tab: '0' });
  // The pointer on the disabled one does nothing; Enter on the enabled one pages.
  button('later').dispatchEvent(new win.MouseEvent('click', { bubbles: true }));
  assert.equal(range(), 'tokens 161–200 of 200');
  const press = (el: Element) => el.dispatchEvent(new win.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  for (let k = 0; k < 5; k++) press(button('earlier'));
  assert.equal(range(), 'tokens 1–40 of 200');
  assert.deepEqual(state('earlier'), { disabled: 'true', tab: null }, 'nothing earlier than the first window');
  assert.deepEqual(state('later'), { disabled: 'false', tab: '0' });
  press(button('later'));
  assert.equal(range(), 'tokens 41–80 of 200');
  assert.deepEqual([state('earlier').disabled, state('later').disabled], ['false', 'false'], 'both enabled in between');
});

test('a head that came as a picture asks for the window\'s weights, says it is reading them, and draws them when they come', () => {
  const n = 300;
  const a = file(n);
  const { res, indices, max } = headPicture(a, 0, 0);
  const loaded = { layer: 0, head: 0, picture: { res, indices }, max, windows: [] as { i0: number; j0: number; rows: number; cols: number; weights: Float32Array }[] };
  const { svg, handle, asked } = drawModel('head-tokens', { ...scanModel(a), head: loaded }, { interactive: true, token: 299 });
  assert.deepEqual(asked, [[0, 0, 260, WINDOW, 260, WINDOW]]);
  assert.equal(svg.querySelector('text.outside')!.textContent, 'reading these weights from the file…');
  assert.equal(svg.querySelectorAll('line.link').length, 0);
  loaded.windows.push({ i0: 260, j0: 260, rows: WINDOW, cols: WINDOW, weights: headWindow(a, 0, 0, 260, WINDOW, 260, WINDOW) });
  handle.refresh!();
  assert.equal(svg.querySelectorAll('line.link').length, WINDOW);
  assert.match(svg.querySelector('text.outside')!.textContent!, /^query #300/);
});

test('a head not loaded yet says so', () => {
  const { text } = { text: drawModel('head-tokens', scanModel(file(6)), { layer: 0, head: 0 }).svg.textContent };
  assert.match(text!, /layer 1 head 1: loading/);
});
