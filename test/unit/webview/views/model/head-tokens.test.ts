// The head as tokens (BertViz's head view): queries left, keys right; the lit token's lines and
// shades are its weights; a long head shows a window of WINDOW tokens that the keyboard, the
// buttons and the wheel move, and says the range and the weight outside it; a head that came as a
// picture asks for the window's exact weights and draws them when they come.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headFloat32, headPicture, headWindow, scanModel } from '../../../../../src/core/model-attention/scan.js';
import { OUTSIDE_KEYS, strongestOutside, WINDOW, windowStart } from '../../../../../webview/views/model/head-tokens.js';
import { SENT_PICTURE_MAX, type CellWindow } from '../../../../../src/core/model-attention/data.js';
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
  assert.deepEqual(asked, [[0, 0, 260, WINDOW, 260, WINDOW], [0, 0, 299, 1, 0, n]], 'the window, then the lit query\'s whole row');
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

test('strongestOutside: the strongest keys outside the window, strongest first, zeros left out', () => {
  const row = [0.3, 0, 0.05, 0.2, 0.25, 0.1, 0.1];
  assert.deepEqual(strongestOutside(row, 3, 5), [[0, 0.3], [5, 0.1], [6, 0.1], [2, 0.05]]);
  assert.deepEqual(strongestOutside(row, 0, 7), []);
  assert.deepEqual(strongestOutside(row, 3, 5, 1), [[0, 0.3]]);
});

test('a long head names the lit query\'s strongest keys outside the window in one line; the drawing stays a window', () => {
  const n = 200;
  const { a, data } = whole(n);
  const { svg, handle } = drawModel('head-tokens', data, { token: 199 });
  const row = headFloat32(a, 0, 0).subarray(199 * n, 200 * n);
  const top = strongestOutside(row, 160, 200);
  assert.equal(top.length, OUTSIDE_KEYS);
  const line = svg.querySelector('text.beyond')!;
  const said = line.querySelector('title')?.textContent ?? line.textContent!;
  assert.match(said, /^strongest keys outside the window: #\d+ "\w+" [\d.]+(, #\d+ "\w+" [\d.]+){4}$/);
  assert.ok(said.startsWith(`strongest keys outside the window: #${top[0][0] + 1} `), said);
  assert.ok(handle.notes.some((t) => /^200 tokens, more than the 40 drawn at once: a window of 40 around the chosen token/.test(t)), handle.notes.join(' | '));
  assert.equal(svg.querySelectorAll('g.token').length, 2 * WINDOW);
  assert.ok(svg.querySelectorAll('line.link').length <= WINDOW);
});

test('a short head has no line for keys outside: there are none', () => {
  const { svg } = drawModel('head-tokens', whole(12).data, { token: 3 });
  assert.equal(svg.querySelector('text.beyond'), null);
});

test('at 8,192 tokens a picture-sent head asks one window and one row, names a far sink, and draws a bounded window', () => {
  const n = 8192;
  const small = scanModel(file(6));
  const tokens = Array.from({ length: n }, (_, i) => (i === 0 ? '<s>' : WORDS[i % WORDS.length]));
  const header = { ...small.header, tokens: n, tokenTexts: tokens };
  const res = SENT_PICTURE_MAX;
  const windows: CellWindow[] = [];
  const loaded = { layer: 0, head: 0, picture: { res, indices: new Uint8Array(res * res) }, max: 0.7, windows };
  const began = performance.now();
  const { svg, handle, asked } = drawModel('head-tokens', { ...small, header, head: loaded }, { interactive: true, token: n - 1 });
  assert.deepEqual(asked, [[0, 0, n - WINDOW, WINDOW, n - WINDOW, WINDOW], [0, 0, n - 1, 1, 0, n]]);
  assert.match(svg.querySelector('text.beyond')!.textContent!, /^reading the strongest keys of query #8192 /);
  // The row comes: 0.7 on the first token, the rest spread evenly over the others it sees.
  const weights = new Float32Array(n).fill(0.3 / (n - 1));
  weights[0] = 0.7;
  windows.unshift({ i0: n - 1, j0: 0, rows: 1, cols: n, weights });
  handle.refresh!();
  const said = svg.querySelector('text.beyond')!.querySelector('title')?.textContent ?? svg.querySelector('text.beyond')!.textContent!;
  assert.match(said, /^strongest keys outside the window: #1 "<s>" 0\.7, /);
  assert.match(svg.querySelector('text.outside')!.textContent!, /^query #8192 "\w+": 0\.00\d+ of its weight on the keys shown, 0\.99\d outside them/);
  assert.equal(svg.querySelectorAll('g.token').length, 2 * WINDOW, 'two columns of the window, not 8,192 tokens');
  assert.ok(svg.querySelectorAll('line.link').length <= WINDOW);
  assert.equal(asked.length, 2, 'nothing asked twice');
  assert.ok(performance.now() - began < 5000, 'a hang guard, not a benchmark');
});

test('a window or row the editor dropped after it came is asked again; one on its way is not asked twice', () => {
  const n = 300;
  const a = file(n);
  const { res, indices, max } = headPicture(a, 0, 0);
  const windows: CellWindow[] = [];
  const loaded = { layer: 0, head: 0, picture: { res, indices }, max, windows };
  const { handle, asked } = drawModel('head-tokens', { ...scanModel(a), head: loaded }, { interactive: true, token: 299 });
  const block = [0, 0, 260, WINDOW, 260, WINDOW], row = [0, 0, 299, 1, 0, n];
  assert.deepEqual(asked, [block, row]);
  handle.refresh!();
  assert.equal(asked.length, 2, 'on their way: not asked again');
  windows.push({ i0: 260, j0: 260, rows: WINDOW, cols: WINDOW, weights: headWindow(a, 0, 0, 260, WINDOW, 260, WINDOW) });
  windows.push({ i0: 299, j0: 0, rows: 1, cols: n, weights: headWindow(a, 0, 0, 299, 1, 0, n) });
  handle.refresh!();
  assert.equal(asked.length, 2);
  // The editor keeps a few windows: both were dropped for newer ones.
  windows.length = 0;
  handle.refresh!();
  assert.deepEqual(asked.slice(2), [block, row], 'dropped: asked again, once each');
  handle.refresh!();
  assert.equal(asked.length, 4);
});
