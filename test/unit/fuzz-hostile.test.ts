// Properties over hostile specs the reader accepts: random strings (control characters, XML-
// forbidden characters, bidi overrides, lone surrogates) in every name, and numbers from tiny to
// huge. Whatever they hold: every view's SVG is well-formed with no NaN/undefined/Infinity, the
// text report has no control character, and costs are refused from the shapes (fast, no throw).
import { dataToJson } from '../../src/core/result-json.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { analyze } from '../../src/core/index.js';
import { renderSvg } from '../../src/cli/render.js';
import { computeReport } from '../../src/cli/compute-text.js';
import { printable } from '../../src/cli/terminal.js';
import { formatProblem } from '../../src/core/problems.js';

const NASTY = ['\u0000', '\u0001', '\u0007', '\u001b[2J', '\n', '\r', '\u0085', '\u009b', '\u202e', '\ud800', '\udc00', '\ufffe', '\uffff', '<', '&', ']]>', '"', '😀'];
const nastyString = fc.array(fc.oneof(fc.constantFrom(...NASTY), fc.string({ maxLength: 3 })), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
const number = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(1e-300, -1e-300, 1e150, -1e150, 1e300, 0.5, -0.25));

const spec = fc.record({
  words: fc.uniqueArray(nastyString, { minLength: 2, maxLength: 4 }),
  dModel: fc.integer({ min: 1, max: 3 }),
  heads: fc.integer({ min: 1, max: 3 }),
  values: fc.array(number, { minLength: 64, maxLength: 64 }),
  names: fc.array(nastyString, { minLength: 4, maxLength: 4 }),
  causal: fc.boolean(),
});

const VIEWS = ['arcs', 'matrix', 'steps', 'quadrant', 'projection', 'compare', 'geometry', 'training', 'summary'] as const;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

test('hostile names and extreme numbers: well-formed SVG without NaN from every view, and a clean terminal report', () => {
  fc.assert(fc.property(spec, (s) => {
    let k = 0;
    const next = () => s.values[k++ % s.values.length];
    const embeddings = Object.fromEntries(s.words.map((w) => [w, Array.from({ length: s.dModel }, next)]));
    const heads = Array.from({ length: s.heads }, (_, h) => ({
      name: s.names[h % 4],
      wq: Array.from({ length: s.dModel }, () => [next(), next()]),
      wk: Array.from({ length: s.dModel }, () => [next(), next()]),
    }));
    const text = JSON.stringify({ title: s.names[3], features: Array.from({ length: s.dModel }, (_, i) => `${s.names[i % 4]}${i}`), embeddings,
      inputs: [{ name: s.names[0], tokens: [...s.words, s.words[0]] }, { name: s.names[1], tokens: [s.words[1], s.words[0]] }], heads, mask: s.causal ? 'causal' : 'none' });
    const a = analyze(text);
    for (const p of a.problems) assert.doesNotMatch(printable(formatProblem('f', text, p)), CONTROL);
    if (!a.data) return;
    assert.doesNotMatch(computeReport(dataToJson(a.data)), CONTROL);
    for (const view of VIEWS) {
      const svg = renderSvg(a.data, view, { head: 'all' });
      const dom = new JSDOM(svg, { contentType: 'image/svg+xml' });
      const wellFormed = dom.window.document.getElementsByTagName('parsererror').length === 0;
      dom.window.close(); // hundreds of documents otherwise pile up until the heap runs out
      assert.ok(wellFormed, `${view}: not well-formed`);
      assert.doesNotMatch(svg, /="[^"]*(NaN|undefined|Infinity)[^"]*"/, `${view}: a bad number in an attribute`);
    }
  }), { numRuns: 30 });
});

test('shapes that would cost too much are refused from the tree, whatever the numbers (fast: no allocation first)', () => {
  fc.assert(fc.property(fc.integer({ min: 2100, max: 40_000 }), fc.integer({ min: 1, max: 300 }), (dModel, heads) => {
    const text = `{"embeddings":{"a":[${new Array(dModel).fill(0).join(',')}]},"inputs":[{"tokens":["a"]}],"heads":[${new Array(heads).fill('{}').join(',')}]}`;
    const a = analyze(text);
    assert.equal(a.spec, undefined);
    assert.ok(a.problems.some((p) => p.path === 'heads'), JSON.stringify(a.problems.map((p) => p.message)));
  }), { numRuns: 40 });
});
