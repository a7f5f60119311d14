// Geometry view, from a newcomer's keyboard-only run in a 676 px panel: the table's keys could not
// be focused (only their numbers), and the θ label sat where the dashed drop from q's tip crossed it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderGeometry } from '../../../../../webview/views/spec/geometry.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { analyze } from '../../../../../src/core/index.js';
import { exampleText } from '../../../../support/specs.js';

const data = analyze(exampleText('apple-watch-lens.attn.json')).data!;

function draw(head: number, token: number, interactive: boolean) {
  const dom = new JSDOM('<!doctype html><div id="r"></div>', { pretendToBeVisual: true });
  const doc = dom.window.document;
  const handle = renderGeometry(doc.getElementById('r') as unknown as HTMLElement, data, {
    theme: makeTheme('light'), width: 676, head, input: 0, token, matrixMode: 'weights', projection: 'wq', interactive,
  });
  return { dom, doc, handle };
}

test('keyboard only: every key of the table (its name, not only its numbers) and every hoverable part of the plane is reached by Tab then the arrows', () => {
  const { dom, doc, handle } = draw(1, 3, true);
  const hot = Array.from(handle.svg.querySelectorAll('.hot'));
  const keys = Array.from(handle.svg.querySelectorAll('g.keys .key.hot'));
  assert.equal(keys.length, 4, 'one focusable name per key');
  assert.equal(handle.svg.querySelectorAll('[tabindex="0"]').length, 1, 'one tab stop');
  const seen = new Set<Element>();
  let at = handle.svg.querySelector('[tabindex="0"]')!;
  const press = (key: string) => { at.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key, bubbles: true })); at = doc.activeElement ?? at; };
  (at as unknown as HTMLElement).focus();
  for (let row = 0; row < 50; row++) {
    press('Home');
    for (let i = 0; i < 50; i++) { seen.add(at); const before = at; press('ArrowRight'); if (at === before) break; }
    press('Home');
    const before = at;
    press('ArrowDown');
    if (at === before) break;
  }
  assert.equal(seen.size, hot.length, `${seen.size} of ${hot.length} hoverable elements reached`);
  for (const k of keys) assert.ok(seen.has(k), `key "${k.textContent}" reached`);
  handle.destroy();
  dom.window.close();
});

/** Does the segment (x1, y1)–(x2, y2) pass through the box? (Liang–Barsky clipping.) */
function crosses(seg: [number, number, number, number], box: { x: number; y: number; w: number; h: number }): boolean {
  const [x1, y1, x2, y2] = seg;
  let t0 = 0, t1 = 1;
  const dx = x2 - x1, dy = y2 - y1;
  for (const [p, q] of [[-dx, x1 - box.x], [dx, box.x + box.w - x1], [-dy, y1 - box.y], [dy, box.y + box.h - y1]] as const) {
    if (p === 0) { if (q < 0) return false; continue; }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r); else t1 = Math.min(t1, r);
    if (t0 > t1) return false;
  }
  return true;
}

test('the θ label is crossed by no line of the plane (the dashed drop from q crossed it for "love" → "apple"), for every query of every head', () => {
  const fs = makeTheme('light').fontSize;
  let checked = 0;
  for (let head = 0; head < data.inputs[0].heads.length; head++) {
    for (let token = 0; token < data.inputs[0].tokens.length; token++) {
      const { dom, handle } = draw(head, token, false);
      const label = handle.svg.querySelector('text.theta')!;
      assert.ok(label, 'the θ label is drawn');
      const size = Number(label.getAttribute('font-size') ?? fs);
      const w = textWidth(label.textContent!, size);
      const anchorEnd = label.getAttribute('text-anchor') === 'end';
      const x = Number(label.getAttribute('x')) - (anchorEnd ? w : 0), y = Number(label.getAttribute('y'));
      const box = { x, y: y - size * 0.8, w, h: size };
      for (const line of Array.from(handle.svg.querySelectorAll('g.plane line'))) {
        const seg = ['x1', 'y1', 'x2', 'y2'].map((a) => Number(line.getAttribute(a))) as [number, number, number, number];
        assert.ok(!crosses(seg, box), `head ${head}, query ${token}: "${label.textContent}" at ${JSON.stringify(box)} is crossed by line ${seg.join(',')} (${line.getAttribute('class') ?? line.getAttribute('stroke-dasharray') ?? ''})`);
      }
      checked++;
      dom.window.close();
    }
  }
  assert.ok(checked >= 8);
});

/** The text a <text> shows (its tspans joined by a space), without its hover <title>. */
const shown = (el: Element) => Array.from(el.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join(' ');

test('q = k ("raw", query watch, the default) is θ = 0°, not 8.54e-7°, in the plane and in the table', () => {
  const { dom, handle } = draw(0, 3, false);
  assert.equal(shown(handle.svg.querySelector('text.theta')!), 'θ = 0°');
  const watchRow = Array.from(handle.svg.querySelectorAll('g.keys text.num')).slice(15, 20).map(shown);
  assert.deepEqual(watchRow, ['3.16', '1.000', '0°', '10', '0.999']);
  assert.doesNotMatch(handle.svg.textContent!, /e-\d+°/, 'no angle in exponent notation');
  dom.window.close();
});

test('the learner picks the key: a click on watch\'s row draws watch · watch = 64 beside the strongest, watch · apple = 136; Enter and the buttons too', () => {
  const { dom, doc, handle } = draw(1, 3, true);
  const formula = () => shown(handle.svg.querySelector('text.formula')!);
  assert.equal(formula(), 'q_watch · k_apple = |q||k| cos θ = 11.66 · 11.66 · 1.000 = 136');
  const watch = () => handle.svg.querySelector('g.keys text.key[data-token="3"]')!;
  watch().dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  assert.equal(formula(), 'q_watch · k_watch = |q||k| cos θ = 11.66 · 5.66 · 0.970 = 64');
  assert.equal(watch().getAttribute('aria-current'), 'true');
  // Keyboard: Enter on apple's row draws apple again, and the focus stays on that row.
  const apple = handle.svg.querySelector('g.keys text.key[data-token="2"]')!;
  (apple as unknown as HTMLElement).focus();
  apple.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  assert.match(formula(), /k_apple .* = 136$/);
  assert.equal(doc.activeElement?.getAttribute('data-token'), '2', 'the focus stays on the row picked');
  // The buttons: the next key after apple is watch.
  handle.svg.querySelector('[data-control="next-key"]')!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  assert.match(formula(), /= 64$/);
  handle.destroy();
  dom.window.close();
});

test('a row\'s click picks the key and shows nothing in the spec; the arrows still show their token there', () => {
  const dom = new JSDOM('<!doctype html><div id="r"></div>', { pretendToBeVisual: true });
  const reveals: unknown[] = [];
  const handle = renderGeometry(dom.window.document.getElementById('r') as unknown as HTMLElement, data, {
    theme: makeTheme('light'), width: 626, head: 1, input: 0, token: 3, matrixMode: 'weights', projection: 'wq', interactive: true, onReveal: (t) => reveals.push(t),
  });
  handle.svg.querySelector('g.keys text.key[data-token="3"]')!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(reveals, []);
  handle.svg.querySelector('line.k-arrow')!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(reveals, [{ kind: 'token', input: 0, token: 3 }]);
  handle.destroy();
  dom.window.close();
});

test('at 430, 626 and 1,200 px the title wraps and the formula fits the picture (it was cut at the right edge)', () => {
  const fs = makeTheme('light').fontSize;
  for (const width of [430, 626, 1200]) {
    for (const token of [0, 1, 2, 3]) {
      const dom = new JSDOM('<!doctype html><div id="r"></div>');
      const handle = renderGeometry(dom.window.document.getElementById('r') as unknown as HTMLElement, data, {
        theme: makeTheme('light'), width, head: 1, input: 0, token, matrixMode: 'weights', projection: 'wq', interactive: false,
      });
      const f = handle.svg.querySelector('text.formula')!;
      const lines = f.querySelectorAll('tspan').length ? Array.from(f.querySelectorAll('tspan'), (t) => t.textContent!) : [shown(f)];
      for (const line of lines) assert.ok(12 + line.length * fs * 0.6 <= width, `${width} px: "${line}" fits`);
      assert.ok(!lines.join('').includes('…'), `${width} px: the formula is whole`);
      for (const t of Array.from(handle.svg.querySelectorAll('text.title, text.title tspan'))) {
        if (t.querySelector('tspan')) continue;
        assert.ok(12 + textWidth(t.textContent!, fs * 1.1) <= width, `${width} px: title line "${t.textContent}" fits`);
      }
      dom.window.close();
    }
  }
});

test('with the table beside the plane (1,200 px, long-64) the formula keeps left of the keys\' names, whole on up to three lines (it ran under "17. warm")', async () => {
  const { formulaLines } = await import('../../../../../webview/views/spec/geometry.js');
  const { monoWidth } = await import('../../../../../webview/kit/format.js');
  const long = analyze(exampleText('long-64-tokens-8-heads.attn.json')).data!;
  const fs = makeTheme('light').fontSize;
  for (const width of [1176, 1200, 1600]) {
    for (const [head, token] of [[0, 0], [2, 17], [7, 63]]) {
      const dom = new JSDOM('<!doctype html><div id="r"></div>');
      const handle = renderGeometry(dom.window.document.getElementById('r') as unknown as HTMLElement, long, {
        theme: makeTheme('light'), width, head, input: 0, token, matrixMode: 'weights', projection: 'wq', interactive: false,
      });
      const tableX = Number(handle.svg.querySelector('g.keys')!.getAttribute('transform')!.match(/translate\(([-\d.]+)/)![1]);
      const f = handle.svg.querySelector('text.formula')!;
      const lines = f.querySelectorAll('tspan').length ? Array.from(f.querySelectorAll('tspan'), (t) => t.textContent!) : [shown(f)];
      for (const line of lines) {
        const right = Number(f.getAttribute('x')) + monoWidth(line, fs);
        assert.ok(right <= tableX - 4, `${width} px, head ${head}, token ${token}: "${line}" ends at ${right.toFixed(0)}, the table starts at ${tableX}`);
      }
      assert.ok(!lines.join('').includes('…'), `${width} px: the formula is whole`);
      dom.window.close();
    }
  }
  // Too narrow for the numbers on one line: the score goes on a third line of its own, nothing cut.
  const three = formulaLines('q_runs · k_quick = |q||k| cos θ', '12.34 · 8.33 · −0.585 = −60.123', 260, 13);
  assert.deepEqual(three, ['q_runs · k_quick = |q||k| cos θ', '  = 12.34 · 8.33 · −0.585', '  = −60.123']);
});

/** The q and k lines as drawn: which is on top (later in the document) and how wide each is. */
function arrows(svg: Element) {
  const lines = Array.from(svg.querySelectorAll('g.plane line.q-arrow, g.plane line.k-arrow'));
  const q = svg.querySelector('line.q-arrow')!, k = svg.querySelector('line.k-arrow')!;
  return { top: lines[lines.length - 1], q, k, qw: Number(q.getAttribute('stroke-width')), kw: Number(k.getAttribute('stroke-width')) };
}

test('θ = 0 (q_watch along k_apple): k is drawn on top and narrower than q, so both colours show on the shared line', () => {
  const { handle } = draw(1, 3, false);
  assert.match(handle.svg.querySelector('text.theta')!.textContent!, /θ = 0°/);
  const a = arrows(handle.svg);
  assert.equal(a.top, a.k, 'k on top');
  assert.ok(a.kw < a.qw - 2, `k ${a.kw} px inside q ${a.qw} px`);
  assert.notEqual(a.q.getAttribute('stroke'), a.k.getAttribute('stroke'));
});

test('q and k apart (θ = 14°): both the same width, as before', () => {
  const { dom, doc, handle } = draw(1, 3, true);
  // Draw k_watch (14° off) instead of the strongest key, as a click on its row does.
  const row = Array.from(handle.svg.querySelectorAll('g.keys .key.hot')).find((el) => /watch/.test(el.textContent!))!;
  row.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  const svg = doc.querySelector('svg')!;
  assert.match(svg.querySelector('text.theta')!.textContent!, /θ = 14/);
  const a = arrows(svg);
  assert.equal(a.qw, a.kw);
});

test('2,048 keys: the table lists the 64 strongest and the key drawn, said in one line; ‹ › still reach every key', async () => {
  const { longSpecData, drawSpecView } = await import('../../../../support/long-spec.js');
  const { listedKeys } = await import('../../../../../webview/views/spec/long-input.js');
  const data = longSpecData();
  const head = data.inputs[0].heads[0];
  for (const interactive of [false, true]) {
    const { svg, handle, elements, ms, dom } = drawSpecView(renderGeometry, data, { token: 2047, interactive });
    const rows = Array.from(svg.querySelectorAll('g.keys text.key'), (t) => Number(t.getAttribute('data-token')));
    const w = (k: number) => head.weights.data[2047 * 2048 + k];
    assert.equal(rows.length, 64);
    assert.deepEqual(rows, listedKeys(2048, w, () => true, [rows.find((k) => svg.querySelector(`g.keys text.key[data-token="${k}"][aria-current]`))!]));
    const said = handle.notes.find((t) => t.startsWith('2,048 keys'))!;
    assert.match(said, /^2,048 keys, more than the 64 listed at once: showing the 64 with the largest weights of the 2,048 keys "w39" may look at \(0\.\d{3} of its weight on the others\); ‹ key › steps through all of them$/);
    assert.ok(Array.from(svg.querySelectorAll('text.note'), (t) => t.querySelector('title')?.textContent ?? t.textContent).includes(said), 'written on the picture');
    assert.ok(elements < 1500, `${elements} elements`);
    assert.ok(ms < 20_000, 'a hang guard, not a benchmark');
    if (interactive) {
      // Stepping from the strongest to a key the table did not list: it is listed now, still 64 rows.
      const drawnKey = () => Number(svg.querySelector('g.keys text.key[aria-current]')!.getAttribute('data-token'));
      const strongest = drawnKey();
      for (let k = 0; k < 3; k++) svg.querySelector('g.control[data-control="next-key"]')!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
      assert.equal(drawnKey(), strongest + 3);
      const now = Array.from(svg.querySelectorAll('g.keys text.key'), (t) => Number(t.getAttribute('data-token')));
      assert.equal(now.length, 64);
      assert.ok(now.includes(strongest + 3));
    }
    dom.window.close();
  }
});
