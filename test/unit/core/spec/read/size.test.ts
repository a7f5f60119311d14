// The reader's cost from the text (src/core/spec/read/size.ts): JSON values counted before any tree
// is built, so a spec of millions of numbers (allowed in by --max-bytes) is one line, not gigabytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { countJsonValues, MAX_JSON_VALUES } from '../../../../../src/core/spec/read/size.js';
import { readSpec } from '../../../../../src/core/spec/read.js';
import { allExampleFiles } from '../../../../support/specs.js';
import { attn, tempSpec } from '../../../../support/cli.js';

/** The values of a parsed JSON value, counted exactly. */
function values(v: unknown): number {
  if (Array.isArray(v)) return 1 + v.reduce((s: number, x) => s + values(x), 0);
  if (v && typeof v === 'object') return 1 + Object.values(v).reduce((s: number, x) => s + values(x), 0);
  return 1;
}

test('the count is an upper bound within a few of the values, whatever the strings hold (commas, brackets, escaped quotes)', () => {
  fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
    const text = JSON.stringify(v);
    const exact = values(v);
    const counted = countJsonValues(text);
    // A value is counted at its start; an object's keys add their colons' values, an empty array or object one too many.
    assert.ok(counted >= exact, `${text}: ${counted} < ${exact}`);
    assert.ok(counted <= 2 * exact + 1, `${text}: ${counted} for ${exact}`);
  }), { seed: 3031, numRuns: 300 });
  assert.equal(countJsonValues('{"a,b[{": "x\\\\", "c": [1, 2, 3]}'), 6, 'the object, two values, the array\'s three numbers: the key\'s commas and brackets are text');
});

test('every example is far within the budget', () => {
  for (const file of allExampleFiles()) assert.ok(countJsonValues(readFileSync(file, 'utf8')) < MAX_JSON_VALUES / 10, file);
});

test('4.6 million numbers (a 9 MB spec under --max-bytes) are refused in one line before the tree is built', async () => {
  const text = `{"embeddings": {"x": [1]}, "inputs": [{"tokens": ["x"]}], "title": [${'0,'.repeat(4_600_000)}0]}`;
  const started = Date.now();
  const { problems, spec } = readSpec(text, { maxBytes: 64 * 1024 * 1024 });
  assert.equal(spec, undefined);
  assert.equal(problems.length, 1);
  assert.match(problems[0].message, /^the spec holds more than 4,500,000 JSON values, the most one spec may/);
  assert.ok(Date.now() - started < 5_000, `${Date.now() - started} ms`);
  const r = await attn('validate', '--max-bytes', String(64 * 1024 * 1024), tempSpec(text));
  assert.equal(r.code, 1);
  assert.match(r.err, /bad\.attn\.json:1:1: the spec holds more than 4,500,000 JSON values/);
  assert.equal(r.err.split('\n').length, 1);
});
