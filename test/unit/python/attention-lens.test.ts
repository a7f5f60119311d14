// The Python package (python/attention_lens) from npm test: its own pytest suite with python3
// (numpy only) and, where Debian's /usr/bin/python3 has torch and mypy, again there so the torch inputs
// and the type check run; its wheel, built offline by setuptools, holds the package, py.typed and the
// page, with the version written once in the source; then across the two languages: a file save() wrote is read by our reader with the very weights and
// tokens, show()'s payload passes our check and decodes to them, and its text/html page, run on
// jsdom, draws the grid of every head from the payload inside it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { openAttention } from '../../../src/core/files/open.js';
import { readPayload } from '../../../src/protocol/attention-payload.js';
import { ROOT } from '../../support/paths.js';
import { gridThumbnails } from '../../support/grid-thumbnails.js';

const PYTHON = join(ROOT, 'python');
const works = (p: string, code: string) => spawnSync(p, ['-c', code], { encoding: 'utf8' }).status === 0;
const python = ['python3', '/usr/bin/python3'].find((p) => works(p, 'import numpy, pytest'));
const torchPython = ['/usr/bin/python3', 'python3'].find((p) => works(p, 'import numpy, pytest, torch, mypy'));
const buildPython = ['/usr/bin/python3', 'python3'].find((p) => works(p, 'import setuptools, wheel, pip'));
const skip = python ? false : 'numpy or pytest is not installed (CI installs python3-numpy and python3-pytest)';
const dir = mkdtempSync(join(tmpdir(), 'attn-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function pytest(interpreter: string) {
  return spawnSync(interpreter, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], { cwd: PYTHON, encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
}

function py(code: string): string {
  const r = spawnSync(python!, ['-c', `import sys; sys.path.insert(0, ${JSON.stringify(PYTHON)})\nimport numpy as np, json, attention_lens\n${code}`], { cwd: dir, encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('python3 -m pytest: the package\'s suite passes', { skip }, () => {
  const r = pytest(python!);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /\b\d+ passed\b/);
  assert.doesNotMatch(r.stdout, /\bfailed\b|\berror/);
});

test('the suite again with torch and mypy, where an interpreter has them', { skip: torchPython ? false : 'no interpreter here has pytest, torch and mypy (Debian: python3-pytest python3-torch python3-mypy)' }, () => {
  const r = pytest(torchPython!);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /\b\d+ passed\b/);
  assert.doesNotMatch(r.stdout, /skipped/, 'no test skipped: torch and mypy are there');
});

test('setuptools builds the wheel offline: the package, py.typed, the page, the version from the source', { skip: buildPython ? false : 'no interpreter here has setuptools, wheel and pip (Debian: python3-setuptools python3-wheel python3-pip)' }, () => {
  const build = join(dir, 'build');
  cpSync(PYTHON, join(build, 'src'), { recursive: true, filter: (p) => !/__pycache__|\.egg-info|[\\/]build$/.test(p) });
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INDEX: '1' };
  const made = spawnSync(buildPython!, ['-m', 'pip', 'wheel', '--no-build-isolation', '--no-deps', '-w', join(build, 'out'), join(build, 'src')], { encoding: 'utf8', env });
  assert.equal(made.status, 0, made.stdout + made.stderr);
  const version = /^__version__ = '([^']+)'$/m.exec(readFileSync(join(PYTHON, 'attention_lens', '__init__.py'), 'utf8'))![1];
  assert.doesNotMatch(readFileSync(join(PYTHON, 'pyproject.toml'), 'utf8'), new RegExp(`version = "${version.replace(/\./g, '\\.')}"`), 'the version is written once');
  const wheel = join(build, 'out', `attention_lens-${version}-py3-none-any.whl`);
  const listed = spawnSync(buildPython!, ['-c', `import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print('\\n'.join(z.namelist())); print(z.read('attention_lens-${version}.dist-info/METADATA').decode())`, wheel], { encoding: 'utf8' });
  assert.equal(listed.status, 0, listed.stderr);
  const modules = readdirSync(join(PYTHON, 'attention_lens')).filter((f) => f.endsWith('.py')).map((f) => `attention_lens/${f}`);
  for (const name of [...modules, 'attention_lens/py.typed', 'attention_lens/assets/model-page.html']) assert.match(listed.stdout, new RegExp(`^${name.replace(/\./g, '\\.')}$`, 'm'), name);
  assert.doesNotMatch(listed.stdout, /^tests\//m, 'the tests stay out of the wheel');
  assert.match(listed.stdout, new RegExp(`^Name: attention-lens$[\\s\\S]*^Version: ${version.replace(/\./g, '\\.')}$`, 'm'));
  assert.match(listed.stdout, /^Requires-Dist: numpy ?\(?>=1\.21\)?$/m, 'setuptools 66 writes numpy (>=1.21), later ones numpy>=1.21');
  const target = join(build, 'site');
  const installed = spawnSync(buildPython!, ['-m', 'pip', 'install', '--no-deps', '--target', target, wheel], { encoding: 'utf8', env });
  assert.equal(installed.status, 0, installed.stdout + installed.stderr);
  const used = spawnSync(buildPython!, ['-c', 'import sys; sys.path.insert(0, sys.argv[1]); import numpy as np, attention_lens as a; v = a.show(np.eye(2), ["x", "y"]); print(a.__file__, a.__version__, len(v.html()) > 100000)', target], { cwd: build, encoding: 'utf8', env });
  assert.equal(used.status, 0, used.stderr);
  assert.equal(used.stdout.trim(), `${join(target, 'attention_lens', '__init__.py')} ${version} True`);
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
