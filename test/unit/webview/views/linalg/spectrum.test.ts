// The Spectrum view's texts at the panel's widths (measured in Chromium by
// test/e2e/widths.e2e.test.ts): the title ended in "…" at 430 px, "not square: no eige…" and the
// plane pictures' captions ("W_Q·W_Kᵀ on is_tech, is_…") were cut with no hover, and at 1,200 px
// a caption ran past the picture's right edge. Titles and captions now wrap; what is still cut
// has its whole text in a <title>. The numbers are the linalg-view tests' own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { analyze } from '../../../../../src/core/index.js';
import { renderSvg } from '../../../../../src/cli/render.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { exampleText } from '../../../../support/specs.js';

const fs = makeTheme('light').fontSize;
const WIDTHS = [406, 430, 602, 626, 1176, 1200];
const EXAMPLES = ['apple-watch-geometry.attn.json', 'multi-head-causal.attn.json', 'spectrum-stretch-shear-rotate.attn.json'];

const draw = (example: string, width: number, head: number) =>
  new JSDOM(renderSvg(analyze(exampleText(example), { linalg: true }).data!, 'spectrum', { width, head }), { contentType: 'image/svg+xml' }).window.document;

/** Where an element's x = 0 sits in the picture: its ancestors' translations added up. */
function leftOf(el: Element): number {
  let x = 0;
  for (let e: Element | null = el.parentElement; e; e = e.parentElement) {
    const m = e.getAttribute('transform')?.match(/translate\(([-\d.]+)/);
    if (m) x += Number(m[1]);
  }
  return x;
}

/** Each line a text is drawn in (its tspans, or itself), with its font size. */
function leaves(doc: Document): { el: Element; text: string; size: number }[] {
  const out: { el: Element; text: string; size: number }[] = [];
  for (const t of Array.from(doc.querySelectorAll('text'))) {
    const size = Number(t.getAttribute('font-size') ?? t.closest('[font-size]')?.getAttribute('font-size') ?? fs) * (t.getAttribute('font-weight') === '600' ? 1.1 : 1);
    const spans = Array.from(t.querySelectorAll('tspan'));
    for (const el of spans.length ? spans : [t]) out.push({ el, text: Array.from(el.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join(''), size });
  }
  return out;
}

/** The hover of a text: every <title> on it or an ancestor. */
const hover = (el: Element) => {
  const texts: string[] = [];
  for (let e: Element | null = el; e; e = e.parentElement) for (const c of Array.from(e.children)) if (c.nodeName === 'title') texts.push(c.textContent ?? '');
  return texts.join('\n');
};

test('at 406–1,200 px the title wraps whole, every text cut with "…" has its whole text in its hover', () => {
  for (const example of EXAMPLES) {
    for (const width of WIDTHS) {
      const doc = draw(example, width, 0);
      for (const l of Array.from(doc.querySelectorAll('text.title, text.title tspan'))) {
        if (l.querySelector('tspan')) continue;
        assert.doesNotMatch(l.textContent!, /…$/, `${example} at ${width} px: the title line "${l.textContent}" is cut`);
      }
      for (const { el, text } of leaves(doc)) {
        if (!text.endsWith('…')) continue;
        const prefix = text.slice(0, -1).trim();
        const h = hover(el);
        assert.ok(h.includes(prefix) && h.length > prefix.length + 1, `${example} at ${width} px: "${text}" has no hover with its whole text (${JSON.stringify(h)})`);
      }
    }
  }
});

test('"not square: no eigenvalues" is whole inside its box, and each plane picture\'s caption stays under its picture, no wider', () => {
  for (const example of EXAMPLES) {
    for (const width of WIDTHS) {
      const doc = draw(example, width, 0);
      const svgW = Number(doc.documentElement.getAttribute('width'));
      for (const t of Array.from(doc.querySelectorAll('text.not-square'))) {
        const lines = Array.from(t.querySelectorAll('tspan'), (s) => s.textContent!);
        assert.equal(lines.join(' '), 'not square: no eigenvalues', `${example} at ${width} px`);
        const box = Number(t.closest('g.eigenvalues')!.querySelector('rect')!.getAttribute('width'));
        for (const l of lines) assert.ok(6 + textWidth(l, fs - 1) <= box, `${example} at ${width} px: "${l}" in a ${box} px box`);
      }
      const pictures = Array.from(doc.querySelectorAll('g.plane-picture'));
      const captions = Array.from(doc.querySelectorAll('text.caption'));
      assert.equal(captions.length, pictures.length, `${example} at ${width} px: one caption per picture`);
      captions.forEach((c) => {
        const picture = Array.from(c.parentElement!.querySelectorAll(':scope > g.plane-picture'))[0];
        const [px] = picture.getAttribute('transform')!.match(/-?[\d.]+/g)!.map(Number);
        const size = Number(picture.querySelector('rect')!.getAttribute('width'));
        const left = leftOf(c) + Number(c.getAttribute('x'));
        for (const s of Array.from(c.querySelectorAll('tspan'))) {
          const right = left + textWidth(s.textContent!, fs - 2);
          assert.ok(right <= leftOf(c) + px + size + 1, `${example} at ${width} px: caption line "${s.textContent}" ends at ${right.toFixed(0)}, past its picture`);
          assert.ok(right <= svgW - 4, `${example} at ${width} px: "${s.textContent}" leaves the picture`);
        }
      });
    }
  }
});
