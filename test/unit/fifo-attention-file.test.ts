// Found by the attack review: fileSource opened the named file blocking, and a FIFO's open waits for
// a writer, so `attn inspect pipe.npy` (and the model editor's worker on such a file) hung for good.
// It opens with O_RDONLY | O_NONBLOCK now, and the fstat check that follows refuses the FIFO.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('attn inspect on a FIFO named like a tensor file is refused at once, not waited on', () => {
  const dir = mkdtempSync(join(tmpdir(), 'attn-fifo-'));
  execFileSync('mkfifo', [join(dir, 'pipe.npy')]);
  // In a child: a blocking open would stop this process for good.
  const script = `const { fileSource } = require('./src/core/tensors/source.ts');
    try { fileSource(process.argv[1]); console.log('opened'); } catch (e) { console.log(e.message); }`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script, join(dir, 'pipe.npy')], { cwd: join(__dirname, '..', '..'), timeout: 20_000, encoding: 'utf8' });
  assert.equal(child.signal, null, 'the child was killed after 20 s: opening the FIFO blocked');
  assert.match(child.stdout, /pipe\.npy: not a regular file/);
});
