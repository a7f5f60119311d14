// Random truncations and mutations of the examples never throw, and every problem's range
// lies inside the document, so the editor can always underline it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { analyze } from '../../../src/core/index.js';
import { allExampleFiles, exampleFiles } from '../../support/specs.js';

/** Every example, the model specs ({ "model", "text" }) among them: truncated and edited at random. */
const allTexts = allExampleFiles().map((f) => readFileSync(f, 'utf8'));
/** The examples with embeddings and heads: mutated in their structure. */
const texts = exampleFiles().map((f) => readFileSync(f, 'utf8'));

function check(text: string) {
  const a = analyze(text);
  for (const p of a.problems) {
    assert.ok(p.span.offset >= 0 && p.span.length >= 0, `negative range ${JSON.stringify(p)}`);
    assert.ok(p.span.offset + p.span.length <= Math.max(text.length, 1), `range past the end: ${JSON.stringify(p)} in ${text.length} chars`);
    assert.ok(p.message.length > 0);
  }
  if (a.json) for (const input of a.json.inputs) for (const h of input.heads) for (const r of h.weights) for (const w of r) assert.ok(Number.isFinite(w));
}

const SNIPPETS = ['{', '}', '[', ']', ',', ':', '"', '1e400', '-0', 'null', 'true', '"identity"', '[[1]]', '"causal"', '0', '\\u12', '/*', '\u2028', '{"a":'];

test('truncations of every example never throw and keep ranges inside the text', () => {
  fc.assert(fc.property(fc.integer({ min: 0, max: allTexts.length - 1 }), fc.nat(), (i, cut) => {
    const t = allTexts[i];
    check(t.slice(0, cut % (t.length + 1)));
  }), { numRuns: 400 });
});

test('random edits of every example never throw and keep ranges inside the text', () => {
  const edit = fc.record({ at: fc.nat(), del: fc.integer({ min: 0, max: 12 }), insert: fc.oneof(fc.constantFrom(...SNIPPETS), fc.string({ maxLength: 6 })) });
  fc.assert(fc.property(fc.integer({ min: 0, max: allTexts.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 4 }), (i, edits) => {
    let t = allTexts[i];
    for (const e of edits) {
      const at = e.at % (t.length + 1);
      t = t.slice(0, at) + e.insert + t.slice(at + e.del);
    }
    check(t);
  }), { numRuns: 600 });
});

test('structural mutations (numbers to strings, rows dropped) give problems, not throws', () => {
  fc.assert(fc.property(fc.integer({ min: 0, max: texts.length - 1 }), fc.nat(), fc.constantFrom('string', 'drop', 'huge', 'nest'), (i, pick, kind) => {
    const spec = JSON.parse(texts[i]);
    const words = Object.keys(spec.embeddings);
    const w = words[pick % words.length];
    if (kind === 'string') spec.embeddings[w][0] = String(spec.embeddings[w][0]);
    if (kind === 'drop') spec.embeddings[w].pop();
    if (kind === 'nest') spec.embeddings[w] = [spec.embeddings[w]];
    let text = JSON.stringify(spec, null, 2);
    // The first number of the embeddings (a description may hold bracketed numbers as text).
    if (kind === 'huge') text = text.replace(/("embeddings"[^]*?\[\s*)-?\d+(\.\d+)?/, '$11e999');
    const a = analyze(text);
    assert.ok(a.problems.some((p) => p.severity === 'error'));
    check(text);
  }), { numRuns: 200 });
});

test('every spec the reader accepts computes to finite numbers only, however large its numbers', () => {
  const magnitude = fc.constantFrom(1, 1e10, 1e100, 1e154, 1e155, 1e200, 1e300, 1e-300);
  fc.assert(fc.property(fc.integer({ min: 0, max: texts.length - 1 }), magnitude, fc.constantFrom<unknown>('sqrt_dk', 'none', 1e-300, 5e-324, 1e300), (i, m, scale) => {
    const spec = JSON.parse(texts[i]);
    for (const w of Object.keys(spec.embeddings)) spec.embeddings[w] = spec.embeddings[w].map((v: number) => v * m);
    spec.scale = scale;
    const a = analyze(JSON.stringify(spec), { json: true });
    if (!a.json) {
      assert.ok(a.problems.some((p) => p.severity === 'error'), 'refused without saying why');
      return;
    }
    const finite = (x: unknown): boolean => (Array.isArray(x) ? x.every(finite) : typeof x !== 'number' || Number.isFinite(x));
    for (const input of a.json.inputs) {
      assert.ok(finite(input.output) && finite(input.concat));
      for (const h of input.heads) assert.ok([h.q, h.k, h.v, h.scores, h.scaled, h.weights, h.output].every(finite));
    }
  }), { numRuns: 300 });
});
