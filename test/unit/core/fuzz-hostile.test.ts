// Properties over hostile specs the reader accepts: random strings (control characters, XML-
// forbidden characters, bidi overrides, lone surrogates) in every name, and numbers from tiny to
// huge. Whatever they hold: every view's SVG is well-formed with no NaN/undefined/Infinity, the
// text report has no control character, and costs are refused from the shapes (fast, no throw).
import { dataToJson } from '../../../src/core/result/result-json.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { analyze } from '../../../src/core/index.js';
import { renderSvg } from '../../../src/cli/render/spec-views.js';
import { computeReport } from '../../../src/cli/compute.js';
import { printable } from '../../../src/cli/terminal.js';
import { formatProblem } from '../../../src/core/json/problems.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { npyFloat32, zipOf } from '../../support/tensor-files.js';
import { folderFiles } from '../../../src/core/files/spec-files.js';
import { tempDir } from '../../support/temp-dir.js';
import { VIEW_NAMES } from '../../../src/core/vocabulary.js';

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

/** Every tab and the summary strip above them. */
const VIEWS = [...VIEW_NAMES, 'summary'] as const;
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
    const a = analyze(text, { linalg: true });
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
    const a = analyze(text, { linalg: true });
    assert.equal(a.spec, undefined);
    assert.ok(a.problems.some((p) => p.path === 'heads'), JSON.stringify(a.problems.map((p) => p.message)));
  }), { numRuns: 40 });
});

/** A 3 × 2 float32 .npy, a safetensors and an .npz (stored or deflated) holding it: the bytes the fuzz below damages. */
function npy(): Buffer {
  return npyFloat32([3, 2], [1, 2, 3, 4, 5, 6]);
}
function st(): Buffer {
  const h = Buffer.from(JSON.stringify({ w: { dtype: 'F32', shape: [3, 2], data_offsets: [0, 24] }, __metadata__: { a: 'b' } }));
  const s = Buffer.alloc(8); s.writeBigUInt64LE(BigInt(h.length));
  return Buffer.concat([s, h, Buffer.from(new Float32Array([1, 2, 3, 4, 5, 6]).buffer)]);
}
const npz = (deflate: boolean) => zipOf([{ name: 'w.npy', data: npy(), deflate }]);
test('tensor files with random bytes changed or cut short: every problem is placed on the reference, never a throw', () => {
  const dir = tempDir('attn-fuzz-files-');
  const bases: [string, Buffer][] = [['f.npy', npy()], ['f.safetensors', st()], ['f.npz', npz(false)], ['d.npz', npz(true)]];
  const files = folderFiles(dir);
  let n = 0;
  fc.assert(fc.property(fc.integer({ min: 0, max: 3 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.option(fc.nat()), (which, edits, cut) => {
    const [name, base] = bases[which];
    const b = Buffer.from(base);
    for (const [at, v] of edits) b[at % b.length] = v;
    const bytes = cut === null ? b : b.subarray(0, cut % (b.length + 1));
    const file = `m${n++}-${name}`;
    writeFileSync(join(dir, file), bytes);
    const text = JSON.stringify({ embeddings: { a: [1, 2, 3] }, inputs: [{ tokens: ['a'] }], heads: [{ wq: { file, ...(name.endsWith('safetensors') ? { tensor: 'w' } : {}) }, wk: [[1, 1], [1, 1], [1, 1]] }] }, null, 2);
    const a = analyze(text, { files });
    for (const p of a.problems) assert.ok(p.path.startsWith('heads[0]'), `placed on the reference: ${p.path}: ${p.message}`);
    if (a.data) assert.equal(a.data.inputs[0].heads[0].q.cols, 2);
  }), { numRuns: 300 });
});
