// The Python package (python/attention_lens) from npm test: its own unittest suite with python3
// (numpy only) and, where Debian's /usr/bin/python3 has torch, again there so the torch inputs run;
// then across the two languages: a file save() wrote is read by our reader with the very weights and
// tokens, show()'s payload passes our check and decodes to them, and its text/html page, run on
// jsdom, draws the grid of every head from the payload inside it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { openAttention } from '../../../src/core/files/open.js';
import { readPayload } from '../../../src/protocol/attention-payload.js';
import { ROOT } from '../../support/paths.js';
import { gridThumbnails } from '../../support/grid-thumbnails.js';

const PYTHON = join(ROOT, 'python');
const works = (p: string, code: string) => spawnSync(p, ['-c', code], { encoding: 'utf8' }).status === 0;
const python = ['python3', '/usr/bin/python3'].find((p) => works(p, 'import numpy'));
const torchPython = ['/usr/bin/python3', 'python3'].find((p) => works(p, 'import numpy, torch'));
const skip = python ? false : 'numpy is not installed (CI installs python3-numpy)';
const dir = mkdtempSync(join(tmpdir(), 'attn-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function unittest(interpreter: string) {
  return spawnSync(interpreter, ['-m', 'unittest', 'discover', '-s', 'tests', '-t', 'tests'], { cwd: PYTHON, encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
}

function py(code: string): string {
  const r = spawnSync(python!, ['-c', `import sys; sys.path.insert(0, ${JSON.stringify(PYTHON)})\nimport numpy as np, json, attention_lens\n${code}`], { cwd: dir, encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('python3 -m unittest: the package\'s suite passes', { skip }, () => {
  const r = unittest(python!);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /^OK/m);
});

test('the suite again with torch, where an interpreter has it', { skip: torchPython ? false : 'no interpreter here has torch (Debian: python3-torch)' }, () => {
  const r = unittest(torchPython!);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /^OK$/m, 'no test skipped: torch is there');
});

test('save() writes what our reader reads; show()\'s payload passes our check with the same weights', { skip }, () => {
  py(`rng = np.random.default_rng(3); a = rng.random((2, 3, 5, 5)).astype(np.float32); a /= a.sum(-1, keepdims=True)
np.save('a.npy', a)
attention_lens.save('a.safetensors', [a[0][None], a[1][None]], ['The', 'cat', '"sat"', '<on>', 'mat'])
json.dump(attention_lens.show(a, ['The', 'cat', '"sat"', '<on>', 'mat'], title='run')._repr_mimebundle_(), open('bundle.json', 'w'))`);
  const want = openAttention(join(dir, 'a.npy'));
  const got = openAttention(join(dir, 'a.safetensors'));
  assert.deepEqual([got.layers, got.heads, got.n, got.dtype], [2, 3, 5, 'F32']);
  assert.deepEqual(got.tokens, ['The', 'cat', '"sat"', '<on>', 'mat']);
  for (let l = 0; l < 2; l++) for (let h = 0; h < 3; h++) assert.deepEqual(Array.from(got.head(l, h)), Array.from(want.head(l, h)));
  const bundle = JSON.parse(readFileSync(join(dir, 'bundle.json'), 'utf8')) as Record<string, unknown>;
  const read = readPayload(bundle['application/vnd.attention-lens.v1+json']);
  assert.ok(!('problem' in read), 'problem' in read ? read.problem : '');
  assert.equal(read.payload.title, 'run');
  for (let l = 0; l < 2; l++) for (let h = 0; h < 3; h++) assert.deepEqual(Array.from(read.attention.head(l, h)), Array.from(want.head(l, h)));
  want.close();
  got.close();
});

test('show()\'s text/html page draws the grid of every head from the payload inside it', { skip }, async () => {
  py(`a = np.random.default_rng(1).random((3, 4, 6, 6)); a /= a.sum(-1, keepdims=True)
open('page.html', 'w').write(attention_lens.show(a, [f't{i}' for i in range(6)])._repr_mimebundle_()['text/html'])`);
  const dom = new JSDOM(readFileSync(join(dir, 'page.html'), 'utf8'), { runScripts: 'dangerously', pretendToBeVisual: true });
  const root = dom.window.document.getElementById('model-root')!;
  for (let i = 0; i < 100 && root.dataset.state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(root.dataset.state, 'ready');
  assert.equal(gridThumbnails(root).length, 12, 'every head painted: its cell shows its part of its layer\'s picture');
  dom.window.close();
});
