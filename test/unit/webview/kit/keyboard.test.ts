// From a newcomer's keyboard-only run in a 676 px panel: hovers and labels said "click" (and
// "hover") as if every user had a mouse, and the tooltip of a focused element could cover that
// element (a tall row or a legend line near the bottom right of the panel).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../src/cli/render/spec-views.js';
import { SPEC_ENTRIES } from '../../../../webview/views/registry.js';
import { renderArcs } from '../../../../webview/views/spec/arcs.js';
import { makeTheme } from '../../../../webview/kit/colour.js';
import { Tooltip } from '../../../../webview/kit/tooltip.js';
import { analyze } from '../../../../src/core/index.js';
import { exampleText } from '../../../support/specs.js';

/** Every sentence of a picture that tells the user to click or to hover, without the keyboard's way. */
function mouseOnly(svg: string): string[] {
  const doc = new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
  const out: string[] = [];
  for (const el of Array.from(doc.querySelectorAll('text, title, tspan'))) {
    const s = Array.from(el.childNodes).filter((c) => c.nodeType === 3).map((c) => c.textContent).join('');
    for (const m of s.matchAll(/\b(click|hover)\b.{0,24}/gi)) {
      const ok = /^click or press Enter/i.test(m[0]) || /^hover or focus/i.test(m[0]);
      if (!ok) out.push(s);
    }
  }
  return out;
}

test('no hover or label says only "click" or "hover": each names the keyboard\'s way too (Enter, focus), in every view', () => {
  for (const file of ['apple-watch-lens.attn.json', 'long-64-tokens-8-heads.attn.json']) {
    const data = analyze(exampleText(file)).data!;
    for (const e of SPEC_ENTRIES) {
      if (e.needs === 'linalg' && !data.linalg) continue;
      for (const head of [0, 'all'] as const) {
        const bad = mouseOnly(renderSvg(data, e.name, { head, width: 676 }));
        assert.deepEqual(bad, [], `${file}, ${e.name}, head ${head}`);
      }
    }
  }
});

test('the arcs note for every head hidden says how to show one with the keyboard too', () => {
  const data = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  const dom = new JSDOM('<!doctype html><div id="r"></div>');
  const handle = renderArcs(dom.window.document.getElementById('r') as unknown as HTMLElement, data, {
    theme: makeTheme('light'), width: 676, head: 'all', input: 0, token: 0, matrixMode: 'weights', projection: 'wq',
    interactive: false, hiddenHeads: data.inputs[0].heads.map((_, h) => h),
  });
  assert.ok(handle.notes.some((n) => /click or press Enter on a head/.test(n)), handle.notes.join(' | '));
  assert.deepEqual(mouseOnly(new dom.window.XMLSerializer().serializeToString(handle.svg)), []);
});

/** A tooltip of w × h in a window of vw × vh, shown for an element at `rect`: where it lands. */
function placeFor(rect: { left: number; top: number; right: number; bottom: number }, w = 260, h = 64, vw = 676, vh = 420) {
  const dom = new JSDOM('<!doctype html><div id="tip"></div><svg><g id="el"></g></svg>', { pretendToBeVisual: true });
  const win = dom.window;
  Object.defineProperty(win, 'innerWidth', { value: vw });
  Object.defineProperty(win, 'innerHeight', { value: vh });
  const tipEl = win.document.getElementById('tip')!;
  Object.defineProperty(tipEl, 'offsetWidth', { value: w });
  Object.defineProperty(tipEl, 'offsetHeight', { value: h });
  const el = win.document.getElementById('el')!;
  el.getBoundingClientRect = () => ({ ...rect, x: rect.left, y: rect.top, width: rect.right - rect.left, height: rect.bottom - rect.top, toJSON: () => '' });
  new Tooltip(tipEl as unknown as HTMLElement).show(['a line'], el);
  const x = Number.parseFloat(tipEl.style.left), y = Number.parseFloat(tipEl.style.top);
  win.close();
  return { x, y, w, h };
}

const overlaps = (a: { x: number; y: number; w: number; h: number }, r: { left: number; top: number; right: number; bottom: number }) =>
  a.x < r.right && r.left < a.x + a.w && a.y < r.bottom && r.top < a.y + a.h;

test('a focused element stays visible: its tooltip goes below it, or above when there is no room below, never over it', () => {
  const cases = [
    { left: 420, top: 340, right: 660, bottom: 384 }, // a legend line at the bottom right
    { left: 12, top: 100, right: 660, bottom: 140 },   // a whole row, the panel's width
    { left: 300, top: 10, right: 340, bottom: 54 },    // a matrix cell at the top
    { left: 600, top: 200, right: 640, bottom: 244 },  // a cell near the right edge
  ];
  for (const r of cases) {
    const t = placeFor(r);
    assert.ok(!overlaps(t, r), `tooltip at ${JSON.stringify(t)} covers the element at ${JSON.stringify(r)}`);
    assert.ok(t.x >= 0 && t.x + t.w <= 676 && t.y >= 0 && t.y + t.h <= 420, `tooltip at ${JSON.stringify(t)} stays in the window`);
  }
});

test('a legend stays readable: a head toggle\'s tooltip keeps its whole legend clear, and a cell\'s tooltip avoids the legend under the matrix', () => {
  const dom = new JSDOM('<!doctype html><div id="tip"></div><svg><g class="legend" id="lg"><g id="toggle"></g><g id="key"></g></g><g id="cell"></g><g class="legend" id="scale"></g></svg>', { pretendToBeVisual: true });
  const win = dom.window;
  Object.defineProperty(win, 'innerWidth', { value: 676 });
  Object.defineProperty(win, 'innerHeight', { value: 600 });
  const tipEl = win.document.getElementById('tip')!;
  Object.defineProperty(tipEl, 'offsetWidth', { value: 300 });
  Object.defineProperty(tipEl, 'offsetHeight', { value: 40 });
  const rects: Record<string, { left: number; top: number; right: number; bottom: number }> = {
    lg: { left: 12, top: 60, right: 600, bottom: 130 },      // the arcs legend: toggles, then the key to the arcs
    toggle: { left: 12, top: 60, right: 120, bottom: 78 },
    cell: { left: 100, top: 420, right: 144, bottom: 464 },  // a matrix cell in the last row
    scale: { left: 8, top: 480, right: 300, bottom: 530 },   // the colour legend under it
  };
  for (const [id, r] of Object.entries(rects)) {
    win.document.getElementById(id)!.getBoundingClientRect = () => ({ ...r, x: r.left, y: r.top, width: r.right - r.left, height: r.bottom - r.top, toJSON: () => '' });
  }
  const tooltip = new Tooltip(tipEl as unknown as HTMLElement);
  const at = () => ({ x: Number.parseFloat(tipEl.style.left), y: Number.parseFloat(tipEl.style.top), w: 300, h: 40 });
  tooltip.show(['head "raw": click or press Enter to hide it'], win.document.getElementById('toggle')!);
  assert.ok(!overlaps(at(), rects.lg), `toggle's tooltip at ${JSON.stringify(at())} covers the legend`);
  tooltip.show(['a cell'], win.document.getElementById('cell')!);
  assert.ok(!overlaps(at(), rects.cell) && !overlaps(at(), rects.scale), `cell's tooltip at ${JSON.stringify(at())} covers the cell or the colour legend`);
  win.close();
});
