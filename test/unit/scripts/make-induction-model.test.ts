// scripts/make_induction_model.py and the checkpoint it made, examples/models/induction-gpt2: the
// committed files are what the script makes, byte for byte; `attn run --json` (in-process) on it shows
// what examples/induction-gpt2.attn.json tells the learner (the words as tokens, layer 0 head 0 one
// key back, layer 1 head 0 on the word after the earlier occurrence of the last word, that word first
// in the next-token list), on the example's text and on repeats it was not built around (so the
// circuit is an induction circuit, not a memorised sentence); and the independent PyTorch forward
// pass (test/reference/torch_forward.py) gives the same numbers to 1e-4. Layers and heads count from
// 0 here, from 1 in the views and the example's description.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attn } from '../../support/cli.js';
import { ROOT } from '../../support/paths.js';
import { tempDir } from '../../support/temp-dir.js';
import { exampleText } from '../../support/specs.js';

const SCRIPT = join(ROOT, 'scripts', 'make_induction_model.py');
const MODEL = join(ROOT, 'examples', 'models', 'induction-gpt2');
const TORCH = '/usr/bin/python3';
const REFERENCE = join(ROOT, 'test', 'reference', 'torch_forward.py');
const python = ['python3', TORCH].find((p) => spawnSync(p, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0);

interface RunJson {
  ids: number[]; pieces: string[]; tokens: string[];
  attention: number[][][][];
  next: { id: number; token: string; p: number }[];
}

/** The texts, their tokens, and where the last token's earlier occurrence is followed (the induction target). */
const CASES = [
  { text: 'The cat sat on the mat. The cat', tokens: ['The', ' cat', ' sat', ' on', ' the', ' mat', '.', ' The', ' cat'], target: 2, next: ' sat', echo: ' cat' },
  { text: 'A dog ran. A dog', tokens: ['A', ' dog', ' ran', '.', ' A', ' dog'], target: 2, next: ' ran', echo: ' dog' },
  { text: 'The mat sat on the cat. The mat', tokens: ['The', ' mat', ' sat', ' on', ' the', ' cat', '.', ' The', ' mat'], target: 2, next: ' sat', echo: ' mat' },
  {
    text: 'I love the red apple and the big watch. I love the red apple and the big',
    tokens: ['I', ' love', ' the', ' red', ' apple', ' and', ' the', ' big', ' watch', '.', ' I', ' love', ' the', ' red', ' apple', ' and', ' the', ' big'],
    target: 8, next: ' watch', echo: ' big',
  },
];

async function runJson(text: string): Promise<RunJson> {
  const r = await attn('run', MODEL, '--text', text, '--json');
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out) as RunJson;
}

/** The numbers the example's description and this test's name state, checked on one run's attention and next tokens. */
function assertCircuit(name: string, c: typeof CASES[number], attention: number[][][][], next: { token: string; p: number }[]) {
  const n = c.tokens.length;
  const [[previous, self], [induction, uniform]] = attention;
  for (let i = 1; i < n; i++) assert.ok(previous[i][i - 1] >= 0.9998, `${name}: layer 0 head 0, query ${i} puts ${previous[i][i - 1]} on key ${i - 1}`);
  assert.equal(previous[0][0], 1, `${name}: query 0 has only itself`);
  for (let i = 0; i < n; i++) assert.ok(self[i][i] >= 0.9998, `${name}: layer 0 head 1, query ${i} puts ${self[i][i]} on itself`);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) assert.ok(Math.abs(uniform[i][j] - 1 / (i + 1)) < 1e-6, `${name}: layer 1 head 1 is uniform`);
  assert.ok(induction[n - 1][c.target] >= 0.9998, `${name}: layer 1 head 0, the last query puts ${induction[n - 1][c.target]} on key ${c.target}`);
  assert.equal(next[0].token, c.next, `${name}: the next token`);
  assert.ok(next[0].p >= 0.96, `${name}: p ${next[0].p}`);
  assert.equal(next[1].token, c.echo, `${name}: the word itself second`);
  assert.ok(next[1].p < 0.02, `${name}: p ${next[1].p}`);
}

test('the committed checkpoint is what scripts/make_induction_model.py makes, byte for byte', { skip: python ? false : 'numpy is not installed (CI installs python3-numpy)' }, () => {
  const out = tempDir('attn-induction-');
  const r = spawnSync(python!, [SCRIPT, out], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(readdirSync(out).sort(), ['config.json', 'model.safetensors', 'tokenizer.json']);
  assert.deepEqual(readdirSync(MODEL).sort(), readdirSync(out).sort());
  for (const f of readdirSync(out)) assert.ok(readFileSync(join(out, f)).equals(readFileSync(join(MODEL, f))), `${f} differs from what the script makes: run python3 scripts/make_induction_model.py`);
  assert.ok(readFileSync(join(MODEL, 'model.safetensors')).length < 400_000, 'a few hundred KB at most');
});

test('the example runs this checkpoint on the text the tests check', () => {
  const spec = JSON.parse(exampleText('induction-gpt2.attn.json')) as { model: string; text: string; description: string };
  assert.equal(spec.model, 'models/induction-gpt2');
  assert.equal(spec.text, CASES[0].text);
  // The numbers the description gives are the ones asserted below.
  for (const said of ['0.999 of its weight', '0.9999 of its weight on \\" sat\\"', 'p 0.96', '67.9', '12 after ÷ √32']) {
    assert.ok(JSON.stringify(spec.description).includes(said), said);
  }
});

test('attn run: the words are the tokens; layer 0 head 0 looks one key back (≥ 0.9998), layer 1 head 0 finds the word after the earlier one (≥ 0.9998), which comes first in the next tokens (p ≥ 0.96), on four repeats', async () => {
  for (const c of CASES) {
    const r = await runJson(c.text);
    assert.deepEqual(r.tokens, c.tokens, c.text);
    assert.deepEqual(r.pieces, c.tokens.map((t) => t.replace(' ', 'Ġ')), c.text);
    assert.equal(r.attention.length, 2);
    assert.ok(r.attention.every((layer) => layer.length === 2));
    assertCircuit(c.text, c, r.attention, r.next);
  }
  // The example's own numbers, as its description gives them.
  const r = await runJson(CASES[0].text);
  assert.ok(r.attention[1][0][8][2] >= 0.9999, `0.9999 on " sat": ${r.attention[1][0][8][2]}`);
  assert.equal(r.next[0].p.toFixed(2), '0.96');
});

test('the PyTorch reference agrees to 1e-4 and shows the same circuit', async () => {
  const probe = spawnSync(TORCH, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
  assert.equal(probe.status, 0, `this test needs PyTorch and numpy for ${TORCH} (Debian's python3-torch; scripts/setup.mjs --for test installs them): ${probe.error?.message ?? probe.stderr}`);
  const ours = await Promise.all(CASES.map((c) => runJson(c.text)));
  const request = join(tempDir('attn-induction-'), 'request.json');
  writeFileSync(request, JSON.stringify(ours.map((r) => ({ dir: MODEL, ids: r.ids }))));
  const py = spawnSync(TORCH, [REFERENCE, 'forward', request], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(py.status, 0, py.stderr);
  const theirs = JSON.parse(py.stdout) as { attention: number[][][][]; probs: number[] }[];
  CASES.forEach((c, k) => {
    const a = ours[k], t = theirs[k];
    let worst = 0;
    a.attention.forEach((layer, l) => layer.forEach((head, h) => head.forEach((row, i) => row.forEach((w, j) => {
      worst = Math.max(worst, Math.abs(w - t.attention[l][h][i][j]));
    }))));
    assert.ok(worst < 1e-4, `${c.text}: an attention weight differs from torch's by ${worst}`);
    for (const next of a.next) assert.ok(Math.abs(next.p - t.probs[next.id]) < 1e-4, `${c.text}: ${next.token} p ${next.p} vs torch ${t.probs[next.id]}`);
    const order = t.probs.map((p, id) => ({ p, id })).sort((x, y) => y.p - x.p);
    const tokenOf = (id: number) => a.next.find((x) => x.id === id)?.token ?? `id ${id}`;
    assertCircuit(`torch: ${c.text}`, c, t.attention, order.slice(0, 2).map((o) => ({ token: tokenOf(o.id), p: o.p })));
  });
});
