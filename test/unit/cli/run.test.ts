// The attn command, called in-process through run() and once as a real process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { COMMANDS, run } from '../../../src/cli/run.js';
import { USAGE } from '../../../src/cli/args.js';
import { EXAMPLES } from '../../support/specs.js';
import { ROOT } from '../../support/paths.js';
import { attn, tempSpec } from '../../support/cli.js';

const lens = join(EXAMPLES, 'apple-watch-lens.attn.json');

test('compute --json prints every intermediate with the seeds\' 136 and 64', async () => {
  const r = await attn('compute', lens, '--json');
  assert.equal(r.code, 0);
  const json = JSON.parse(r.out);
  const lensHead = json.inputs[0].heads[1];
  assert.deepEqual(Object.keys(lensHead).filter((k) => ['name', 'q', 'k', 'v', 'scores', 'scaled', 'weights', 'output'].includes(k)),
    ['name', 'q', 'k', 'v', 'scores', 'scaled', 'weights', 'output']);
  assert.deepEqual(lensHead.q[3], [10, 6]);
  assert.equal(lensHead.scores[3][2], 136);
  assert.equal(lensHead.scores[3][3], 64);
  assert.ok(Array.isArray(json.inputs[0].concat) && Array.isArray(json.inputs[0].output));
  assert.equal(json.parameters.fullSize.total, 3145728);
});

test('compute --json writes null for masked scaled entries', async () => {
  const r = await attn('compute', join(EXAMPLES, 'multi-head-causal.attn.json'), '--json');
  const scaled = JSON.parse(r.out).inputs[0].heads[0].scaled;
  assert.equal(scaled[0][1], null);
  assert.equal(typeof scaled[1][0], 'number');
});

test('compute without --json prints readable tables', async () => {
  const r = await attn('compute', lens);
  assert.equal(r.code, 0);
  assert.match(r.out, /scores \(Q·Kᵀ\)/);
  assert.match(r.out, /watch\s+26\s+42\s+136\s+64/);
});

test('compute refuses a broken spec the same way validate reports it', async () => {
  const file = tempSpec('{"inputs": [{"tokens": ["nope"]}], "embeddings": {"x": [1]}}');
  const r = await attn('compute', file, '--json');
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  assert.match(r.err, /:1:\d+: inputs\[0\]\.tokens\[0\]: unknown token "nope"/);
});

test('a missing file, a directory and an unknown command are plain messages', async () => {
  const missing = await attn('validate', '/no/such.attn.json');
  assert.equal(missing.code, 1);
  assert.match(missing.err, /no such file/);
  const dir = await attn('validate', EXAMPLES);
  assert.equal(dir.code, 1);
  assert.match(dir.err, /is a directory/);
  const r = await attn('frobnicate');
  assert.equal(r.code, 2);
  assert.match(r.err, /unknown command "frobnicate"/);
});

test('a file over --max-bytes is refused once the budget is read', async () => {
  const r = await attn('validate', lens, '--max-bytes', '100');
  assert.equal(r.code, 1);
  assert.match(r.err, /:1:1: the spec is over the 100 bytes limit: .*binary file/);
});

test('the built attn prints no stack trace for malformed JSON', () => {
  const file = tempSpec('{"inputs": [');
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'attn.js'), 'compute', file], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /bad\.attn\.json:1:\d+: invalid JSON/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});

test('render draws the matrix as a standalone SVG with the 136 cell, in the theme asked for', async () => {
  const r = await attn('render', lens, '--view', 'matrix', '--head', '1', '--show', 'scores', '--theme', 'dark');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^<\?xml[^]*<svg[^]*<\/svg>\s*$/);
  assert.match(r.out, /10·10 \+ 6·6 = 136/);
  assert.doesNotMatch(r.out, /var\(--/);
});

test('render refuses a head the spec does not have, and an unknown theme', async () => {
  const noHead = await attn('render', lens, '--view', 'matrix', '--head', '7');
  assert.equal(noHead.code, 2);
  assert.match(noHead.err, /--head 7, but the spec has 2 head\(s\)/);
  const badTheme = await attn('render', lens, '--view', 'arcs', '--theme', 'purple');
  assert.equal(badTheme.code, 2);
  assert.match(badTheme.err, /--theme must be one of light, dark, hc-dark, hc-light/);
});

test('render says plainly when it cannot write --out, and refuses a token the input does not have', async () => {
  const noDir = await attn('render', lens, '--view', 'arcs', '--out', '/no/such/folder/x.svg');
  assert.equal(noDir.code, 1);
  assert.equal(noDir.err, 'attn render: cannot write /no/such/folder/x.svg (ENOENT)');
  const noToken = await attn('render', lens, '--view', 'steps', '--token', '99');
  assert.equal(noToken.code, 2);
  assert.match(noToken.err, /--token 99, but input 0 has 4 token\(s\)/);
});

test('compute labels the full-size figure as the seeds\' estimate, not the spec\'s own count', async () => {
  const r = await attn('compute', lens);
  assert.match(r.out, /18 learnable numbers in this spec/);
  assert.match(r.out, /full-size estimate: one 512×64 matrix × 8 heads × 6 blocks × 2 \(encoder and decoder\) = 3,145,728/);
});

test('USAGE names exactly the commands run.ts dispatches', () => {
  const named = [...new Set([...USAGE.matchAll(/^ {2}attn (\w+)/gm)].map((m) => m[1]))].sort();
  assert.deepEqual(named, Object.keys(COMMANDS).sort());
  assert.deepEqual(named, ['analyze', 'compute', 'inspect', 'render', 'run', 'train', 'validate']);
});

test('a command is only one of its own: names an object inherits are unknown commands', async () => {
  for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
    const err: string[] = [];
    const code = await run([name], { out: () => assert.fail('nothing on standard output'), err: (t) => err.push(t) });
    assert.equal(code, 2, name);
    assert.equal(err.join('\n'), `attn: unknown command ${JSON.stringify(name)}\n${USAGE}`);
  }
});
