// The Heads view (webview/views/linalg/heads.ts): "raw" (the identity, all of R³) and
// "tech lens" (a plane) were called "the same" at overlap 1; the view now reads containment both
// ways and says which subspace lies inside which. Its title wraps at 430–670 px instead of "…".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { analyze } from '../../../../../src/core/index.js';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { exampleText } from '../../../../support/specs.js';

const doc = (svg: string) => new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
const shown = (el: Element) => Array.from(el.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join(' ');

test('apple-watch-lens: "tech lens"\'s subspace lies inside "raw"\'s, not the same; the cells read 1 one way and 0.67 the other', () => {
  const d = doc(renderSvg(analyze(exampleText('apple-watch-lens.attn.json'), { linalg: true }).data!, 'heads', { width: 626 }));
  for (const role of ['wq', 'wk', 'wv']) {
    const g = d.querySelector(`g.overlap.${role}`)!;
    assert.equal(shown(g.querySelector('text.verdict')!), 'most alike: "tech lens"\'s 2-D subspace lies inside "raw"\'s 3-D: not the same subspace');
    const value = (a: number, b: number) => g.querySelector(`rect.cell[data-a="${a}"][data-b="${b}"]`)!;
    assert.match(value(0, 1).querySelector('title')!.textContent!, /0\.667 of "raw"'s subspace lies inside "tech lens"'s; 1 of "tech lens"'s inside "raw"'s/);
    const texts = Array.from(g.querySelectorAll('text.cell-value'), (t) => t.textContent);
    assert.deepEqual(texts, ['1', '0.67', '1', '1']);
  }
  assert.doesNotMatch(d.documentElement.textContent!, /the same directions/);
});

test('heads-same-and-different-subspaces: the grammar heads read the same 2-D subspace, meaning an orthogonal one', () => {
  const d = doc(renderSvg(analyze(exampleText('heads-same-and-different-subspaces.attn.json'), { linalg: true }).data!, 'heads', { width: 626 }));
  assert.equal(shown(d.querySelector('g.overlap.wq text.verdict')!), 'most alike: "grammar A" and "grammar B" read the same 2-D subspace');
  assert.match(d.querySelector('g.overlap.wq rect.cell[data-a="0"][data-b="2"] title')!.textContent!, /read orthogonal subspaces/);
});

test('at 430, 626 and 670 px the title and the note wrap, every line inside the picture, none cut with "…"', () => {
  const fs = makeTheme('light').fontSize;
  const data = analyze(exampleText('apple-watch-lens.attn.json'), { linalg: true }).data!;
  for (const width of [430, 626, 670]) {
    const d = doc(renderSvg(data, 'heads', { width }));
    const lines = [...Array.from(d.querySelectorAll('text.title tspan')), ...Array.from(d.querySelectorAll('text.note tspan, text.verdict tspan'))];
    assert.ok(lines.length >= 3, `${width} px: wrapped`);
    for (const l of lines) {
      assert.ok(!l.textContent!.includes('…'), `${width} px: "${l.textContent}" is whole`);
      const cls = l.parentElement!.classList;
      const size = cls.contains('title') ? fs * 1.1 : cls.contains('verdict') ? fs - 1 : fs;
      assert.ok(textWidth(l.textContent!, size) <= width - 24, `${width} px: "${l.textContent}" fits`);
    }
  }
});
