// The Spectrum view's texts at the panel's widths (measured in Chromium by
// test/e2e/widths.e2e.test.ts): the title ended in "…" at 430 px, "not square: no eige…" and the
// plane pictures' captions ("W_Q·W_Kᵀ on is_tech, is_…") were cut with no hover, and at 1,200 px
// a caption ran past the picture's right edge. Titles and captions now wrap; what is still cut
// has its whole text in a <title>. The numbers are the linalg-view tests' own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { analyze } from '../../../../../src/core/index.js';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
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

/** The bars of each matrix drawn: their rectangles, their numbers (the x they centre on, the text), and the hovers' σ. */
function barRows(doc: Document) {
  return Array.from(doc.querySelectorAll('g.singular-values'), (g) => ({
    rects: Array.from(g.querySelectorAll('rect.sigma'), (r) => ({ x: Number(r.getAttribute('x')), y: Number(r.getAttribute('y')), w: Number(r.getAttribute('width')) })),
    values: Array.from(g.querySelectorAll('text.sigma-value'), (t) => ({ x: Number(t.getAttribute('x')), y: Number(t.getAttribute('y')), text: t.textContent! })),
    sigmas: Array.from(g.querySelectorAll('rect.sigma title'), (t) => t.textContent!.split('\n')[0].replace(/^σ\d+ = /, '')),
  }));
}

test('each singular value is written above its bar: the stretch reads 3 and 0.5 on screen, the shear 1.618 and 0.618, at every width', () => {
  for (const width of WIDTHS) {
    const stretch = barRows(draw('spectrum-stretch-shear-rotate.attn.json', width, 0));
    assert.deepEqual(stretch[0].values.map((v) => v.text), ['3', '0.5'], `stretch's W_Q at ${width} px`);
    const shear = barRows(draw('spectrum-stretch-shear-rotate.attn.json', width, 1));
    assert.deepEqual(shear[0].values.map((v) => v.text), ['1.618', '0.618'], `shear's W_Q at ${width} px`);
  }
});

test('a bar\'s number is its σ, above it, centred on it, never on a neighbour\'s; the first bar always has one (init-four-rules\' 32 bars too)', () => {
  for (const example of [...EXAMPLES, 'init-four-rules.attn.json']) {
    for (const width of WIDTHS) {
      for (const row of barRows(draw(example, width, 0))) {
        assert.ok(row.values.length > 0 && Math.abs(row.values[0].x - (row.rects[0].x + row.rects[0].w / 2)) < 0.01, `${example} at ${width} px: the first bar has its number`);
        let lastRight = -Infinity;
        for (const v of row.values) {
          const i = row.rects.findIndex((r) => Math.abs(r.x + r.w / 2 - v.x) < 0.01);
          assert.ok(i >= 0, `${example} at ${width} px: "${v.text}" stands on a bar`);
          assert.equal(v.text, row.sigmas[i], `${example} at ${width} px: bar ${i + 1}`);
          assert.ok(v.y <= row.rects[i].y - 2, `${example} at ${width} px: "${v.text}" above its bar`);
          const half = textWidth(v.text, fs - 2) / 2;
          assert.ok(v.x - half >= lastRight, `${example} at ${width} px: "${v.text}" runs into the number before it`);
          lastRight = v.x + half;
        }
      }
    }
  }
});

test('wide, the eigenvalues follow the bars\' column (at 1,200 px 600 px of nothing stood between), and every picture stays inside', () => {
  for (const example of EXAMPLES) {
    for (const width of [700, 1176, 1200]) {
      const doc = draw(example, width, 0);
      for (const g of Array.from(doc.querySelectorAll('g.matrix-spectrum'))) {
        const eigen = Number(g.querySelector('g.eigenvalues')!.getAttribute('transform')!.match(/translate\(([-\d.]+)/)![1]);
        // The name and the facts (their own text: the <title> of `attn render` is a hover, not drawn).
        const texts = Array.from(g.querySelectorAll(':scope > text.label, :scope > text.facts'),
          (t) => textWidth(Array.from(t.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join(''), fs * 1.1));
        const bars = Array.from(g.querySelectorAll('rect.sigma'), (r) => Number(r.getAttribute('x')) + Number(r.getAttribute('width')));
        const used = Math.max(...texts, ...bars);
        assert.ok(eigen - used <= 200, `${example} at ${width} px: ${(eigen - used).toFixed(0)} px between the bars' column and the eigenvalues`);
        const right = leftOf(g) + eigen + 2 * (140 + 24);
        assert.ok(right <= width, `${example} at ${width} px: the pictures end at ${right}`);
      }
    }
  }
});

test('the eigenvalues\' caption stands under its box, on no circle or point: nothing but "not square" is written inside the box', () => {
  for (const example of EXAMPLES) {
    for (const width of WIDTHS) {
      const doc = draw(example, width, 0);
      for (const box of Array.from(doc.querySelectorAll('g.eigenvalues'))) {
        for (const t of Array.from(box.querySelectorAll('text'))) assert.ok(t.classList.contains('not-square'), `${example} at ${width} px: "${t.textContent}" inside the eigenvalues' box`);
        const y = Number(box.getAttribute('transform')!.match(/translate\([-\d.]+,([-\d.]+)/)![1]);
        const size = Number(box.querySelector('rect')!.getAttribute('width'));
        const caption = box.parentElement!.querySelector(':scope > text.eigen-caption');
        if (box.querySelector('text.not-square')) { assert.equal(caption, null); continue; }
        assert.ok(caption, `${example} at ${width} px: the box has its caption`);
        assert.ok(Number(caption.getAttribute('y')) - (fs - 2) >= y + size, `${example} at ${width} px: the caption's top at ${Number(caption.getAttribute('y')) - (fs - 2)}, the box ends at ${y + size}`);
        assert.match(caption.textContent!, /^eigenvalues/);
      }
    }
  }
});
