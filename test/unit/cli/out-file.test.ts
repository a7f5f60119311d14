// A command's --out is written whole or not at all, and never opened when it is a pipe, a device or
// a folder: `attn run --out` onto a FIFO is refused before the run (its open would wait for a reader
// for good), a write that fails part-way leaves the file that was there and no half file beside it;
// a symbolic link is written through, and a read-only file is refused. And --text-file is read as a
// text file, not a spec.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { buildSync } from 'esbuild';
import { writeWhole } from '../../../src/cli/outputs.js';
import { attn } from '../../support/cli.js';
import { runInChild } from '../../support/child.js';
import { tempDir } from '../../support/temp-dir.js';
import { writeTinyGpt2 } from '../../support/tiny-folder.js';
import { ROOT } from '../../support/paths.js';

const posix = process.platform !== 'win32';

test('attn run --out onto a FIFO or a folder: usage, exit 2, at once (no run, no wait for a reader)', { skip: !posix }, async () => {
  const dir = tempDir();
  const model = writeTinyGpt2(join(dir, 'model'));
  const fifo = join(dir, 'out.fifo');
  execFileSync('mkfifo', [fifo]);
  // Before: openSync(fifo, 'w') blocked the thread until a reader came, for ever in a script.
  const child = runInChild(`const { run } = require('./src/cli/run.ts');
    const [model, out] = JSON.parse(process.argv[1]);
    run(['run', model, '--text', 'The cat', '--out', out], { out: () => {}, err: (t) => console.log(t) }).then((code) => console.log('exit', code));`,
  JSON.stringify([model, fifo]), 20_000);
  assert.equal(child.signal, null, 'the child was killed after 20 s: opening the FIFO blocked');
  assert.equal(child.stdout.trim(), `attn run: --out ${fifo} cannot be written (not a regular file: a pipe, device or socket); name a file\nexit 2`);
  const folder = join(dir, 'folder');
  mkdirSync(folder);
  const r = await attn('run', model, '--text', 'The cat', '--out', folder);
  assert.deepEqual([r.code, r.err], [2, `attn run: --out ${folder} cannot be written (EISDIR); name a file`]);
});

test('writeWhole: a write that fails part-way leaves the old file and no part file; a symbolic link is written through', { skip: !posix }, () => {
  const dir = tempDir();
  const file = join(dir, 'run.safetensors');
  writeFileSync(file, 'the old file');
  function* failing(): Generator<Uint8Array> {
    yield new Uint8Array(1 << 20);
    throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
  }
  // Before: the file was opened with 'w' (emptied) and written in place: a full disk left a half file.
  assert.equal(writeWhole(file, failing()), 'ENOSPC');
  assert.equal(readFileSync(file, 'utf8'), 'the old file');
  assert.deepEqual(readdirSync(dir), ['run.safetensors']);

  const link = join(dir, 'link.safetensors');
  symlinkSync(file, link);
  assert.equal(writeWhole(link, [new Uint8Array([1, 2]), 'three']), undefined);
  assert.ok(lstatSync(link).isSymbolicLink());
  assert.deepEqual([...readFileSync(file)], [1, 2, ...Buffer.from('three')]);
  assert.deepEqual(readdirSync(dir).sort(), ['link.safetensors', 'run.safetensors']);
  assert.equal(writeWhole(join(dir, 'none', 'x'), ['x']), 'ENOENT');
  assert.equal(statSync(file).size, 7);
});

test('attn run --text-file naming a folder says a text file was expected, not a spec', async () => {
  const dir = tempDir();
  const model = writeTinyGpt2(join(dir, 'model'));
  // Before: "is a directory, expected a .attn.json file", for a file that holds the text to run.
  const r = await attn('run', model, '--text-file', dir);
  assert.deepEqual([r.code, r.err], [1, `${dir}: is a directory, expected a text file`]);
});

/**
 * A new folder another user can reach: under the first of /tmp and the temp folder whose every
 * ancestor others may pass through (a private temp folder, as CI's may be, is one they cannot).
 */
function sharedTempDir(): string {
  const reachable = (path: string) => {
    for (let p = resolve(path); ; p = dirname(p)) {
      if ((statSync(p).mode & 0o001) === 0) return false;
      if (dirname(p) === p) return true;
    }
  };
  const base = ['/tmp', tmpdir()].find((b) => existsSync(b) && reachable(b));
  assert.ok(base, 'a folder another user can reach (/tmp or the temp folder)');
  const dir = mkdtempSync(join(base, 'attn-shared-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  chmodSync(dir, 0o777);
  return dir;
}

test('writeWhole refuses a file its owner made read-only, as opening it for writing would', { skip: !posix || process.getuid?.() !== 0 && 'run as root only: it runs the write as another user' }, () => {
  const dir = sharedTempDir();
  const file = join(dir, 'kept.svg');
  writeFileSync(file, 'read-only');
  chownSync(file, 65534, 65534);
  chmodSync(file, 0o444);
  // The other user cannot read this checkout (CI's may sit in a private folder), so writeWhole is
  // bundled into a script of its own, in a folder that user can reach, which it runs.
  const tool = join(sharedTempDir(), 'write-whole.cjs');
  buildSync({
    stdin: { contents: `const { writeWhole } = require('./src/cli/outputs.ts'); console.log(writeWhole(process.argv[2], ['replaced']) ?? 'written');`, resolveDir: ROOT, loader: 'ts' },
    bundle: true, platform: 'node', format: 'cjs', outfile: tool, logLevel: 'silent',
  });
  chmodSync(tool, 0o644);
  // A rename over it needs only the folder's write permission: the file's own is checked first.
  const child = spawnSync(process.execPath, [tool, file], { cwd: dir, uid: 65534, gid: 65534, encoding: 'utf8', timeout: 30_000 });
  assert.equal(child.stdout.trim(), 'EACCES', child.stderr);
  assert.equal(readFileSync(file, 'utf8'), 'read-only');
  assert.deepEqual(readdirSync(dir), ['kept.svg']);
});
