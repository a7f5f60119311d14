// The story fields (src/core/spec/read/story.ts): "description", "open" (a view and the input, head,
// token and modes it shows, named by name and read back as indices) and "next" (a sibling spec's
// name); each wrong field is one problem at its own place, like the rest of the spec; and every
// example's "next" names an example that exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { badNextName, storyOf } from '../../../../../src/core/spec/read/story.js';
import { readSpec } from '../../../../../src/core/spec/read.js';
import { BASE, only, problemsOf, specOf } from '../../../../support/spec-problems.js';
import { EXAMPLES, exampleFiles } from '../../../../support/specs.js';

const HEADS = [{ name: 'lens', wq: 'identity' }, { name: 'other' }];

test('description, open and next are read; open names become indices', () => {
  const spec = specOf({
    ...BASE, heads: HEADS, description: 'What it shows.', next: 'b.attn.json',
    open: { view: 'matrix', input: 'in', head: 'other', token: 'y', matrix: 'scores', projection: 'wk' },
  });
  assert.equal(spec.description, 'What it shows.');
  assert.equal(spec.next, 'b.attn.json');
  assert.deepEqual(spec.open, { view: 'matrix', input: 0, head: 1, token: 1, matrix: 'scores', projection: 'wk' });
  assert.deepEqual(storyOf(spec), { description: 'What it shows.', open: spec.open, next: 'b.attn.json' });
  assert.deepEqual(specOf({ ...BASE, open: { head: 'all' } }).open, { head: 'all' });
  assert.equal(storyOf(specOf(BASE)), undefined, 'no story fields, no story');
});

test('each wrong story field is one error, at its own value, naming what it expected', () => {
  const cases: [unknown, string, RegExp, string][] = [
    [{ description: 3 }, 'description', /expected a sentence or two about the spec, got the number 3/, '3'],
    [{ next: '../x.attn.json' }, 'next', /without a folder or a separator/, '"../x.attn.json"'],
    [{ next: 'x.json' }, 'next', /ending \.attn\.json/, '"x.json"'],
    [{ open: { view: 'pie' } }, 'open.view', /expected one of "arcs", ("tokens", )?"matrix"/, '"pie"'],
    [{ open: { head: 'nope' } }, 'open.head', /no head is named "nope": expected one of "lens", "other"/, '"nope"'],
    [{ open: { input: 'x' } }, 'open.input', /no input is named "x": expected one of "in"/, '"x"'],
    [{ open: { token: 'z' } }, 'open.token', /no token of input "in" is named "z": expected one of "x", "y"/, '"z"'],
    [{ open: { matrix: 'raw' } }, 'open.matrix', /expected one of "scores", "scaled", "weights", "cosine"/, '"raw"'],
    [{ open: { projection: 'wo' } }, 'open.projection', /expected one of "wq", "wk", "wv", got/, '"wo"'],
    [{ open: 'matrix' }, 'open', /where the panel opens/, '"matrix"'],
  ];
  for (const [extra, path, message, at] of cases) {
    const p = only(JSON.stringify({ ...BASE, heads: HEADS, ...extra as object }, null, 2));
    assert.equal(p.path, path, JSON.stringify(extra));
    assert.match(p.message, message, JSON.stringify(extra));
    assert.equal(p.at, at, JSON.stringify(extra));
  }
});

test('a problem in "open" is placed at its line and column, and an unknown key of it is a warning', () => {
  const text = JSON.stringify({ ...BASE, open: { view: 'matrix', colour: 'red' } }, null, 2);
  const [warning] = problemsOf(text);
  assert.equal(warning.severity, 'warning');
  assert.equal(warning.path, 'open.colour');
  assert.deepEqual(warning.where, { line: text.split('\n').findIndex((l) => l.includes('"colour"')) + 1, column: 5 });
  assert.ok(readSpec(text).spec, 'a warning does not stop the spec');
});

test('badNextName: a bare *.attn.json name only', () => {
  assert.equal(badNextName('apple-watch-lens.attn.json'), undefined);
  assert.equal(badNextName('A.ATTN.JSON'), undefined);
  for (const bad of ['', '.attn.json', '.hidden.attn.json', 'a/b.attn.json', 'a\\b.attn.json', '..\\x.attn.json', 'c:x.attn.json', 'x.json', 'x.attn.json\0', `${'a'.repeat(300)}.attn.json`]) {
    assert.notEqual(badNextName(bad), undefined, JSON.stringify(bad));
  }
});

test('every example\'s "next" names an example beside it, and the chain has no loop', () => {
  const next = new Map<string, string>();
  for (const file of exampleFiles()) {
    const spec = readSpec(readFileSync(file, 'utf8')).spec!;
    if (spec.next === undefined) continue;
    assert.ok(existsSync(join(EXAMPLES, spec.next)), `${file}: next ${spec.next} exists`);
    next.set(file.slice(file.lastIndexOf('/') + 1), spec.next);
  }
  let at: string | undefined = 'apple-watch-raw.attn.json';
  const seen = new Set<string>();
  while (at) {
    assert.ok(!seen.has(at), `no loop at ${at}`);
    seen.add(at);
    at = next.get(at);
  }
  assert.ok(seen.size >= 8, `the story runs through ${[...seen].join(' → ')}`);
});
