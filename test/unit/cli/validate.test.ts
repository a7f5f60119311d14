// `attn validate FILE...` (src/cli/validate.ts): "FILE: ok" for a clean spec, one FILE:LINE:COL line
// per problem (warnings included) on stderr, every file checked even after one fails, exit 1 when
// any file has a problem or cannot be read, exit 2 with the usage when no file is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { USAGE } from '../../../src/cli/args.js';
import { EXAMPLES } from '../../support/specs.js';
import { attn, tempSpec } from '../../support/cli.js';
import { tempDir } from '../../support/temp-dir.js';

const lens = join(EXAMPLES, 'apple-watch-lens.attn.json');

// Moved from test/unit/cli/run.test.ts, every assertion kept.
test('validate passes a clean example with exit 0', async () => {
  const r = await attn('validate', lens);
  assert.equal(r.code, 0);
  assert.match(r.out, /apple-watch-lens\.attn\.json: ok/);
});

// Moved from test/unit/cli/run.test.ts, every assertion kept.
test('validate prints FILE:LINE:COL: path: message and exits 1', async () => {
  const file = tempSpec('{\n  "features": ["a", "b", "c"],\n  "embeddings": { "x": [1, 0, 0] },\n  "inputs": [{ "tokens": ["x"] }],\n  "heads": [{ "wq": [[1, 0], [0, 1]] }]\n}\n');
  const r = await attn('validate', file);
  assert.equal(r.code, 1);
  assert.equal(r.err, `${file}:5:21: heads[0].wq: 2 rows, expected 3 (d_model)`);
});

test('no file named: exit 2 with the usage', async () => {
  const r = await attn('validate');
  assert.equal(r.code, 2);
  assert.equal(r.out, '');
  assert.equal(r.err, `attn validate: name at least one spec file\n${USAGE}`);
});

test('every file is checked: ok lines on stdout, problem lines on stderr, exit 1 if any failed', async () => {
  const bad = tempSpec('{"features": ["a"], "embeddings": {"x": [1]}, "inputs": [{"tokens": ["x"]}], "scale": 0}');
  const r = await attn('validate', lens, bad, '/no/such.attn.json', join(EXAMPLES, 'learn-value.attn.json'));
  assert.equal(r.code, 1);
  assert.equal(r.out, `${lens}: ok\n${join(EXAMPLES, 'learn-value.attn.json')}: ok`);
  const lines = r.err.split('\n');
  assert.equal(lines.length, 2, r.err);
  assert.match(lines[0], new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:87: scale: scale must be positive`));
  assert.match(lines[1], /^\/no\/such\.attn\.json.*no such file/);
});

test('a warning alone fails validation: it is printed with "warning:" and the exit is 1', async () => {
  const file = tempSpec('{\n  "features": ["a"],\n  "embeddings": { "x": [1] },\n  "inputs": [{ "tokens": ["x"] }],\n  "colour": "red"\n}');
  const r = await attn('validate', file);
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  assert.match(r.err, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5:3: warning: colour: `));
});

test('a spec whose numbers overflow when computed is a problem too (validate computes, it does not only read)', async () => {
  const file = tempSpec('{"embeddings": {"a": [1], "b": [1e200]}, "inputs": [{"tokens": ["a", "b"]}], "scale": "none"}');
  const r = await attn('validate', file);
  assert.equal(r.code, 1);
  assert.match(r.err, /inputs\[0\]: the numbers grow too large to compute: scores of "b" in head "Q = K = V = input" overflows past the largest number/);
});

test('a file name with a control character is printed escaped, not raw', async () => {
  const dir = tempDir('attn-');
  const file = join(dir, 'x\u001b[31m.attn.json');
  writeFileSync(file, '{"features": ["a"], "embeddings": {"x": [1]}, "inputs": [{"tokens": ["x"]}]}');
  const r = await attn('validate', file);
  assert.equal(r.code, 0);
  assert.equal(r.out.includes('\u001b'), false);
  assert.match(r.out, /: ok$/);
});
