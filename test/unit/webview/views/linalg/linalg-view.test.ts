// The linear-algebra views (Spectrum, Heads, Covariance, Init lab) drawn from their examples by
// attn render: the numbers the seed and each example promise are in the picture's hovers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { analyze } from '../../../../../src/core/index.js';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import { decodeAttention, encodeAttention } from '../../../../../src/core/result/wire.js';
import { PANEL_LINALG_WORK } from '../../../../../src/core/result/linalg-data.js';
import { exampleText } from '../../../../support/specs.js';

const data = (name: string) => analyze(exampleText(name), { linalg: true }).data!;
const titles = (svg: string) => {
  const doc = new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
  const out = Array.from(doc.querySelectorAll('title'), (t) => t.textContent ?? '');
  return out.join('\n');
};

test('Spectrum: the stretch has σ = 3 and 0.5 (κ = 6); the shear σ = 1.618 and 0.618 with eigenvalues 1; the OV circuits copy (1) and turn (0)', () => {
  const d = data('spectrum-stretch-shear-rotate.attn.json');
  const stretch = titles(renderSvg(d, 'spectrum', { head: 0 }));
  assert.match(stretch, /σ1 = 3\n/);
  assert.match(stretch, /σ2 = 0\.5\n/);
  assert.match(stretch, /condition number σ_max \/ σ_min = 6:/);
  assert.match(stretch, /copying score trace \/ Σ\|λ\| = 1:/);
  const shear = titles(renderSvg(d, 'spectrum', { head: 1 }));
  assert.match(shear, /σ1 = 1\.618/);
  assert.match(shear, /σ2 = 0\.618/);
  assert.match(shear, /λ1 = 1, \|λ\| = 1/);
  assert.match(shear, /copying score trace \/ Σ\|λ\| = 0:/);
  assert.match(shear, /a complex pair: a turn, no direction is kept/);
  assert.doesNotMatch(stretch + shear, /NaN|undefined|Infinity/);
});

test('Heads: the two grammar heads read the same directions (1), meaning reads others (0)', () => {
  const t = titles(renderSvg(data('heads-same-and-different-subspaces.attn.json'), 'heads'));
  // The cell reads both ways of containment, with the overlap attn analyze reports (1 and 0) beside it.
  assert.match(t, /W_Q: "grammar A" \(2-D\) in "grammar B" \(2-D\)\n1 of "grammar A"'s subspace lies inside "grammar B"'s; 1 of "grammar B"'s inside "grammar A"'s\n"grammar A" and "grammar B" read the same 2-D subspace\nattn analyze's overlap \(mean cos² over the smaller subspace\): 1\n/);
  assert.match(t, /W_Q: "grammar A" \(2-D\) in "meaning" \(2-D\)\n0 of "grammar A"'s subspace lies inside "meaning"'s; 0 of "meaning"'s inside "grammar A"'s\n"grammar A" and "meaning" read orthogonal subspaces: nothing in common\nattn analyze's overlap \(mean cos² over the smaller subspace\): 0\n/);
  const one = renderSvg(data('apple-watch-raw.attn.json'), 'heads');
  assert.match(one, /One head: there is no other head to compare it with/);
});

test('Covariance: the redundant features are called out, and PC1 explains most of the variance', () => {
  const svg = renderSvg(data('covariance-redundant-features.attn.json'), 'covariance', { head: 0 });
  assert.match(svg, /is_fruit and is_sweet: correlation 0\.985, nearly redundant/);
  assert.match(titles(svg), /PC1: 7[5-9](\.\d)?% of the variance/);
});

test('Init lab: Var(q · k) grows like d_k, and ÷ √d_k keeps the largest weight from saturating', () => {
  const d = data('apple-watch-lens.attn.json');
  const rows = d.linalg!.init.scores;
  const last = rows[rows.length - 1];
  assert.equal(last.dk, 256);
  assert.ok(last.dotVariance > 200 && last.dotVariance < 320, `Var(q · k) at d_k 256 is ${last.dotVariance}`);
  assert.ok(Math.abs(last.scaledVariance - 1) < 0.25);
  assert.ok(last.maxWeight > 0.8 && last.maxWeightScaled < 0.5, 'unscaled saturates, scaled does not');
  const t = titles(renderSvg(d, 'init'));
  assert.match(t, /d_k = 256, q · k ÷ √d_k: the largest weight is/);
  // Kaiming keeps ReLU stacks steady; LeCun halves them layer after layer.
  const relu = d.linalg!.init.curves.filter((c) => c.activation === 'relu');
  const kaiming = relu.find((c) => c.label.startsWith('Kaiming'))!, lecun = relu.find((c) => c.label.startsWith('LeCun'))!;
  assert.ok(kaiming.variance[kaiming.variance.length - 1] > 0.1 && kaiming.variance[kaiming.variance.length - 1] < 10);
  assert.ok(lecun.variance[lecun.variance.length - 1] < 1e-4);
});

test('the numbers travel with the result to the webview, and a spec too large for the panel says to run attn analyze', () => {
  const d = data('spectrum-stretch-shear-rotate.attn.json');
  const wire = encodeAttention(d);
  // (JSON has no −0: compare after the same round trip.)
  assert.deepEqual(decodeAttention(JSON.parse(JSON.stringify(wire.header)), wire.buffer).linalg, JSON.parse(JSON.stringify(d.linalg)));
  const n = 64, width = 600;
  const embeddings = Object.fromEntries(Array.from({ length: n }, (_, i) => [`w${String.fromCharCode(97 + (i % 26))}${i}`, Array.from({ length: width }, (_, j) => Math.sin(i + j))]));
  const big = analyze(JSON.stringify({ embeddings, inputs: [{ tokens: Object.keys(embeddings) }], heads: [{}, {}] }), { linalg: true }).data!;
  assert.match(big.linalg!.tooBig ?? '', new RegExp(`over the ${PANEL_LINALG_WORK / 1e6} million the panel spends per edit: run attn analyze`));
  assert.match(renderSvg(big, 'spectrum'), /run attn analyze/);
});

test('Spectrum: eigen-directions are drawn only for a matrix that maps the plane to itself (square), never for a 3 × 2 W_Q', () => {
  const count = (svg: string, cls: string) => {
    const doc = new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
    return doc.querySelectorAll(`g.matrix-spectrum.${cls} line.eigen`).length;
  };
  const lens = renderSvg(data('apple-watch-lens.attn.json'), 'spectrum', { head: 1 });
  assert.equal(count(lens, 'wq'), 0, 'W_Q is 3 × 2: its 2 × 2 block maps features to outputs, it has no eigen-directions');
  const stretch = renderSvg(data('spectrum-stretch-shear-rotate.attn.json'), 'spectrum', { head: 0 });
  assert.equal(count(stretch, 'wq'), 2, 'a stretch keeps its two axes');
});

test('keyboard only: every hoverable number of Spectrum, Heads, Covariance and Init lab is reached by Tab then the arrows (a newcomer could reach none of them, or only W_Q in Heads)', async () => {
  const { renderSpectrum } = await import('../../../../../webview/views/linalg/spectrum.js');
  const { renderHeads } = await import('../../../../../webview/views/linalg/heads.js');
  const { renderCovariance } = await import('../../../../../webview/views/linalg/covariance.js');
  const { renderInitLab } = await import('../../../../../webview/views/linalg/init-lab.js');
  const { makeTheme } = await import('../../../../../webview/kit/colour.js');
  const cases = [
    [renderSpectrum, 'spectrum-stretch-shear-rotate.attn.json'],
    [renderHeads, 'heads-same-and-different-subspaces.attn.json'],
    [renderCovariance, 'covariance-redundant-features.attn.json'],
    [renderInitLab, 'apple-watch-lens.attn.json'],
  ] as const;
  for (const [render, file] of cases) {
    const dom = new JSDOM('<!doctype html><div id="r"></div>', { pretendToBeVisual: true });
    const doc = dom.window.document;
    const handle = render(doc.getElementById('r') as unknown as HTMLElement, data(file), {
      theme: makeTheme('light'), width: 676, head: 0, input: 0, token: 0, matrixMode: 'weights', projection: 'wq', interactive: true,
    });
    const hot = Array.from(handle.svg.querySelectorAll('.hot'));
    assert.ok(hot.length > 4, file);
    assert.equal(handle.svg.querySelectorAll('[tabindex="0"]').length, 1, `${file}: one tab stop`);
    // Walk with the arrows from the tab stop: Right along a row, Home, Down to the next; count what is reached.
    const seen = new Set<Element>();
    let at = handle.svg.querySelector('[tabindex="0"]')!;
    const press = (key: string) => { at.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key, bubbles: true })); at = doc.activeElement ?? at; };
    (at as HTMLElement).focus();
    for (let row = 0; row < 200 && seen.size < hot.length; row++) {
      press('Home');
      for (let i = 0; i < 400; i++) { seen.add(at); const before = at; press('ArrowRight'); if (at === before) break; }
      press('Home'); // Down from the row's start: every row has a first element
      const before = at;
      press('ArrowDown');
      if (at === before) break;
    }
    assert.equal(seen.size, hot.length, `${file}: ${seen.size} of ${hot.length} hoverable elements reached`);
    handle.destroy();
    dom.window.close();
  }
});

test('seed-projection-512-64 (one 512 × 64 head): Spectrum and Covariance say why on wrapped lines with the command, Heads that there is one head; nothing runs off a 626 px picture', async () => {
  const { makeTheme } = await import('../../../../../webview/kit/colour.js');
  const d = data('seed-projection-512-64.attn.json');
  assert.ok(d.linalg!.tooBig, 'the spec is over the panel\'s budget');
  const { textWidth } = await import('../../../../../webview/kit/format.js');
  const fs = makeTheme('light').fontSize;
  for (const view of ['spectrum', 'covariance'] as const) {
    const doc = new JSDOM(renderSvg(d, view, { width: 626 }), { contentType: 'image/svg+xml' }).window.document;
    const lines = Array.from(doc.querySelectorAll('text.refusal tspan, text.refusal-what tspan'), (t) => t.textContent!);
    assert.ok(lines.length >= 3, `${view}: ${lines.length} lines`);
    for (const l of lines) assert.ok(textWidth(l, fs) <= 626 - 24, `${view}: "${l}" fits`);
    assert.match(lines.join(' '), /360 million multiply-adds/);
    assert.equal(doc.querySelector('text.command')!.textContent, 'attn analyze FILE.attn.json');
    assert.ok(Number(doc.documentElement.getAttribute('height')) > 100, `${view}: a picture, not one line`);
  }
  assert.match(renderSvg(d, 'heads', { width: 626 }), /One head: there is no other head to compare it with/);
});

test('in the panel the command names the spec\'s own file', async () => {
  const { renderSpectrum } = await import('../../../../../webview/views/linalg/spectrum.js');
  const { makeTheme } = await import('../../../../../webview/kit/colour.js');
  const dom = new JSDOM('<!doctype html><main data-file-name="seed-projection-512-64.attn.json"><div id="r"></div></main>');
  const handle = renderSpectrum(dom.window.document.getElementById('r') as unknown as HTMLElement, data('seed-projection-512-64.attn.json'), {
    theme: makeTheme('dark'), width: 626, head: 0, input: 0, token: 0, matrixMode: 'weights', projection: 'wq', interactive: true,
  });
  assert.equal(handle.svg.querySelector('text.command')!.textContent, 'attn analyze seed-projection-512-64.attn.json');
  handle.destroy();
  dom.window.close();
});

test('the Init lab\'s notes wrap at 430–670 px (they ended in "…")', () => {
  const d = data('init-four-rules.attn.json');
  for (const width of [430, 626, 670]) {
    const doc = new JSDOM(renderSvg(d, 'init', { width }), { contentType: 'image/svg+xml' }).window.document;
    const notes = Array.from(doc.querySelectorAll('text.note'));
    assert.equal(notes.length, 2);
    for (const n of notes) {
      assert.equal(n.querySelector('title'), null, `${width} px: nothing cut`);
      for (const t of Array.from(n.querySelectorAll('tspan'))) assert.ok(!t.textContent!.includes('…'), `${width} px: "${t.textContent}"`);
    }
    assert.match(Array.from(notes[1].querySelectorAll('tspan'), (t) => t.textContent).join(' '), /their curves lie on each other$/);
  }
});
