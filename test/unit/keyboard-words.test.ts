// From a newcomer's keyboard-only run in a 676 px panel: hovers and labels said "click" (and
// "hover") as if every user had a mouse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../src/cli/render.js';
import { REGISTRY } from '../../webview/registry.js';
import { renderArcs } from '../../webview/arcs.js';
import { makeTheme } from '../../webview/colour.js';
import { analyze } from '../../src/core/index.js';
import { exampleText } from '../support/specs.js';

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
    for (const e of REGISTRY) {
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
