// Starters for a new spec: the schema's snippets are valid specs, and the weight suggestion at
// "wq" has d_model rows, read from the spec being written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSpec } from '../../../../src/core/spec/read.js';
import { weightSnippetsAt } from '../../../../src/core/spec/weight-snippets.js';
import { ROOT } from '../../../support/paths.js';

const schema = JSON.parse(readFileSync(join(ROOT, 'schema', 'attn.schema.json'), 'utf8'));

/** A snippet body with its ${n:default} placeholders replaced by their defaults. */
function filled(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body).replace(/\$\{\d+:([^}]*)\}/g, '$1'));
}

test('the starter spec offered in an empty file reads without a problem', () => {
  const [starter] = schema.defaultSnippets;
  assert.match(starter.label, /starter spec/);
  const { spec, problems } = readSpec(JSON.stringify(filled(starter.body)));
  assert.deepEqual(problems, []);
  assert.equal(spec?.dModel, 2);
});

test('each head snippet makes a valid head in the starter spec', () => {
  const base = filled(schema.defaultSnippets[0].body) as Record<string, unknown>;
  for (const snippet of schema.properties.heads.items.defaultSnippets) {
    const { problems } = readSpec(JSON.stringify({ ...base, heads: [filled(snippet.body)] }));
    assert.deepEqual(problems, [], snippet.label);
  }
});

test('at "wq", a d_model × 2 matrix is offered, and it reads as a valid W_Q', () => {
  const before = '{\n  "features": ["a", "b", "c"],\n  "embeddings": { "x": [1, 0, 0] },\n  "inputs": [{ "tokens": ["x"] }],\n  "heads": [{ "wq": ';
  const after = ' }]\n}';
  const offered = weightSnippetsAt(before + after, before.length);
  assert.equal(offered.length, 3);
  assert.match(offered[0].label, /^3 × 2 matrix/);
  assert.equal(offered[2].text, '{ "init": "xavier", "shape": [3, 2], "seed": 1 }');
  const { spec, problems } = readSpec(before + offered[0].text + ', "wk": ' + offered[0].text + after);
  assert.deepEqual(problems, []);
  assert.equal(spec?.heads[0].wq.matrix.rows, 3);
  assert.equal(spec?.heads[0].wq.matrix.cols, 2);
  // The same spec gets the same numbers: seeded, not random per keystroke.
  assert.equal(weightSnippetsAt(before + after, before.length)[0].text, offered[0].text);
});

test('at d_model 512 the generated weight reads as the seeds\' 512 × 64; past 2,048 it is the only suggestion (a written matrix would be a wall of numbers)', () => {
  const before = `{\n  "embeddings": { "x": [${new Array(512).fill(0).join(', ')}] },\n  "inputs": [{ "tokens": ["x"] }],\n  "heads": [{ "wq": { "init": "lecun", "shape": [512, 64] }, "wk": `;
  const after = ' }]\n}';
  const offered = weightSnippetsAt(before + after, before.length);
  assert.equal(offered.at(-1)!.label, 'generated 512 × 64 weights (Xavier, seeded)');
  const { spec, problems } = readSpec(before + offered.at(-1)!.text + after);
  assert.deepEqual(problems, []);
  assert.deepEqual(spec!.heads[0].wk.generated, { init: 'xavier', variance: 2 / 576, seed: 2 });
  const wide = `{ "embeddings": { "x": [${new Array(2100).fill(0).join(',')}] }, "inputs": [{ "tokens": ["x"] }], "heads": [{ "wq": `;
  assert.deepEqual(weightSnippetsAt(wide + ' }] }', wide.length).map((o) => o.label), ['generated 2100 × 263 weights (Xavier, seeded)']);
});

test('nothing is offered outside a head\'s wq, wk or wv', () => {
  const text = '{ "features": ["a"], "embeddings": { "x": [1] }, "inputs": [] }';
  assert.deepEqual(weightSnippetsAt(text, text.indexOf('[1]')), []);
});
