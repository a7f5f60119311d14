// Cut texts as controls (webview/shell/cuts.ts): which texts count as cut, what marking them sets,
// and the keys and clicks that show and hide their whole text. The walk through every view is
// cuts-walk.test.ts; here each rule on its own, and the kit's every way of cutting a text over a
// seeded family of sentences and widths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { CUT_CLASS, markCuts, shownText, wholeOfCut, wireCuts } from '../../../../webview/shell/cuts.js';
import { makeTheme } from '../../../../webview/kit/colour.js';
import { createSvg, drawHeading, drawNotes, emptyView, fitText, layoutHeading, layoutNotes, note } from '../../../../webview/kit/view.js';
import { wrappedText } from '../../../../webview/views/linalg/linalg-view.js';
import { between, seeded } from '../../../support/random.js';

const SVG = 'http://www.w3.org/2000/svg';

function page(svgBody = '') {
  const dom = new JSDOM(`<!doctype html><body><div id="outer"><div id="view"><svg xmlns="${SVG}">${svgBody}</svg></div></div><div id="tip"></div></body>`, { pretendToBeVisual: true });
  const doc = dom.window.document;
  const shown: string[][] = [];
  let hidden = 0;
  const tooltip = { show: (lines: readonly string[]) => { shown.push([...lines]); }, hide: () => { hidden++; } };
  const view = doc.getElementById('view') as unknown as HTMLElement;
  const key = (el: Element, k: string) => el.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
  return { dom, doc, view, tooltip, shown, hidden: () => hidden, key };
}

test('a text counts as cut when it shows "…" and its own <title> holds more; a hover that explains a whole text does not', () => {
  const { doc } = page(`
    <text id="a">the whole sentence is lo…<title>the whole sentence is long</title></text>
    <text id="b"><tspan>a heading on</tspan><tspan>two lines, cut…</tspan><title>a heading on two lines, cut short here</title></text>
    <text id="c">mask<title>causal: a token sees only itself and earlier tokens</title></text>
    <text id="d">−1 … 0 … 1</text>
    <text id="e">same…<title>same…</title></text>
    <g><title>a group's hover</title><text id="f">x…</text></g>`);
  const get = (id: string) => doc.getElementById(id)!;
  assert.equal(wholeOfCut(get('a')), 'the whole sentence is long');
  assert.equal(wholeOfCut(get('b')), 'a heading on two lines, cut short here');
  assert.equal(shownText(get('b')), 'a heading ontwo lines, cut…');
  for (const id of ['c', 'd', 'e', 'f']) assert.equal(wholeOfCut(get(id)), undefined, id);
});

test('marking makes each cut text a button in the tab order, named by its whole text; a text inside a control of the view is left to it', () => {
  const { doc, view } = page(`
    <text id="a" class="note">first no…<title>first note, whole</title></text>
    <g class="hot" data-tip="3"><text id="b">in a hot gr…<title>in a hot group</title></text></g>
    <g role="button"><text id="c">in a butt…<title>in a button</title></text></g>
    <text id="d">second no…<title>second note, whole</title></text>`);
  const marked = markCuts(view, 'tip');
  assert.deepEqual(marked.map((e) => e.id), ['a', 'd']);
  const a = doc.getElementById('a')!;
  assert.equal(a.classList[0], CUT_CLASS, 'first of its classes: the focus kept across a redraw finds it by it');
  assert.ok(a.classList.contains('note'), 'its own class stays');
  assert.deepEqual(['tabindex', 'role', 'aria-expanded', 'aria-label', 'aria-controls', 'data-cut'].map((n) => a.getAttribute(n)), ['0', 'button', 'false', 'first note, whole', 'tip', '0']);
  assert.equal(doc.getElementById('d')!.getAttribute('data-cut'), '1');
  for (const id of ['b', 'c']) assert.equal(doc.getElementById(id)!.getAttribute('tabindex'), null, id);
  // Marking again changes nothing.
  assert.deepEqual(markCuts(view, 'tip').map((e) => e.id), ['a', 'd']);
  assert.equal(a.getAttribute('class'), `${CUT_CLASS} note`);
});

test('a page around the picture with a tabindex of its own (a notebook\'s output) does not keep its cut texts from the keyboard', () => {
  const { doc } = page();
  const outer = doc.getElementById('outer')!;
  outer.setAttribute('tabindex', '-1');
  doc.querySelector('svg')!.append(Object.assign(doc.createElementNS(SVG, 'text'), { textContent: 'a no…' }));
  doc.querySelector('svg text')!.appendChild(doc.createElementNS(SVG, 'title')).textContent = 'a note, whole';
  assert.equal(markCuts(outer).length, 1);
});

test('Enter and Space show the whole text and fold it again; Escape folds it without the view\'s own Escape; leaving it folds it', () => {
  const p = page(`<text id="a">first no…<title>first note, whole</title></text><text id="b">second no…<title>second note, whole</title></text>`);
  markCuts(p.view);
  const stop = wireCuts(p.view, p.tooltip);
  let viewEscapes = 0;
  p.doc.getElementById('outer')!.addEventListener('keydown', (e) => { if (e.key === 'Escape') viewEscapes++; });
  const a = p.doc.getElementById('a')! as unknown as HTMLElement, b = p.doc.getElementById('b')! as unknown as HTMLElement;
  a.focus();
  p.key(a, 'Enter');
  assert.equal(a.getAttribute('aria-expanded'), 'true');
  assert.deepEqual(p.shown.at(-1), ['first note, whole']);
  p.key(a, ' ');
  assert.equal(a.getAttribute('aria-expanded'), 'false', 'Space folds it again');
  p.key(a, ' ');
  assert.equal(a.getAttribute('aria-expanded'), 'true', 'and unfolds it');
  p.key(a, 'Escape');
  assert.equal(a.getAttribute('aria-expanded'), 'false');
  assert.equal(viewEscapes, 0, 'the Escape that folds a text is not also the view\'s (the model page went back to its grid)');
  p.key(a, 'Escape');
  assert.equal(viewEscapes, 1, 'folded, Escape is the view\'s again');
  p.key(a, 'Enter');
  p.key(b, 'Enter');
  assert.equal(a.getAttribute('aria-expanded'), 'false', 'one text open at a time');
  assert.equal(b.getAttribute('aria-expanded'), 'true');
  assert.deepEqual(p.shown.at(-1), ['second note, whole']);
  b.focus();
  const hides = p.hidden();
  a.focus();
  assert.equal(b.getAttribute('aria-expanded'), 'false', 'the focus left it');
  assert.ok(p.hidden() > hides);
  a.dispatchEvent(new p.dom.window.MouseEvent('click', { bubbles: true }));
  assert.equal(a.getAttribute('aria-expanded'), 'true', 'a click shows it too');
  stop();
  assert.equal(a.getAttribute('aria-expanded'), 'false', 'stopping folds what is open');
  p.key(a, 'Enter');
  assert.equal(a.getAttribute('aria-expanded'), 'false', 'and nothing listens any more');
  p.dom.window.close();
});

test('a text the view draws later (a page of tokens, a step of training) is marked as it comes', async () => {
  const p = page();
  const stop = wireCuts(p.view, p.tooltip);
  const svg = p.view.querySelector('svg')!;
  const late = p.doc.createElementNS(SVG, 'text');
  late.id = 'late';
  late.textContent = 'drawn la…';
  late.appendChild(p.doc.createElementNS(SVG, 'title')).textContent = 'drawn later, whole';
  svg.append(late);
  await new Promise((r) => setImmediate(r));
  assert.equal(p.doc.getElementById('late')!.getAttribute('tabindex'), '0');
  stop();
  p.dom.window.close();
});

test('every way the kit cuts a text (note, notes, heading, fitted label, empty view, wrapped lines), over 300 seeded sentences and widths: shown whole, or a control that shows it whole', () => {
  const rand = seeded(430);
  const words = ['attention', 'the', 'softmax', 'of', 'W_Q·W_Kᵀ', 'héad', '" cat"', 'σ', 'a-very-long-hyphenated-feature-name', 'Ω', 'token', '→', 'explains', '0.396'];
  const theme = makeTheme('dark');
  let cut = 0;
  const p = page();
  for (let k = 0; k < 300; k++) {
    const text = Array.from({ length: between(rand, 1, 40) }, () => words[between(rand, 0, words.length - 1)]).join(' ');
    const width = between(rand, 200, 1600);
    const box = p.doc.createElement('div');
    p.view.replaceChildren(box);
    const kind = k % 6;
    if (kind === 4) emptyView(box as unknown as HTMLElement, theme, width, 'x', text);
    else {
      const svg = createSvg(box as unknown as HTMLElement, theme, width, 400, 'x', 'x');
      const px = width - 24;
      if (kind === 0) note(svg, theme, 8, 20, text);
      else if (kind === 1) drawNotes(svg, theme, 8, 20, layoutNotes([text], px, theme.fontSize), [text]);
      else if (kind === 2) drawHeading(svg, 'title', 8, 20, layoutHeading(text, px, theme.fontSize), text);
      else if (kind === 3) fitText(svg.append<SVGTextElement>('text'), text, between(rand, 20, px), theme.fontSize);
      else wrappedText(svg, theme, 8, 20, text, between(rand, 40, px), 'caption', between(rand, 1, 3));
    }
    markCuts(p.view);
    const texts = Array.from(p.view.querySelectorAll('svg text'));
    // Lines in <tspan>s may drop the space they broke at: compared without spaces.
    const all = texts.map((t) => shownText(t)).join('').replace(/\s+/g, '');
    if (all === text.replace(/\s+/g, '')) continue;
    // Cut: the text that ends in "…" is a control named by the whole sentence (drawNotes draws a <text> a line).
    const ends = texts.filter((t) => shownText(t).includes('…'));
    assert.ok(ends.length > 0, `kind ${kind}, ${width} px: "${text}" is cut with no "…"`);
    for (const t of ends) {
      assert.equal(t.getAttribute('tabindex'), '0', `kind ${kind}, ${width} px: "${shownText(t)}" of "${text}" is not reachable`);
      assert.equal(t.getAttribute('aria-label'), text, `kind ${kind}, ${width} px`);
    }
    cut++;
  }
  p.dom.window.close();
  assert.ok(cut >= 60, `only ${cut} of 300 were cut: the family is too tame`);
});
