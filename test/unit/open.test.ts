// Opening an attention file (src/core/tensors/open.ts) beside things a hostile folder may hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('a FIFO as the tokens file beside an attention file (X.tokens.json) is refused at once, not waited on', () => {
  const dir = mkdtempSync(join(tmpdir(), 'attn-open-'));
  execFileSync('mkfifo', [join(dir, 'run.tokens.json')]);
  // In a child: a blocking open would stop this process for good.
  const script = `const { sidecarTokens } = require('./src/core/tensors/open.ts');
    try { sidecarTokens(process.argv[1]); console.log('read'); } catch (e) { console.log(e.message); }`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script, join(dir, 'run.npy')], { cwd: join(__dirname, '..', '..'), timeout: 30_000, encoding: 'utf8' });
  assert.equal(child.signal, null, 'the child was killed: opening the FIFO blocked');
  assert.match(child.stdout, /run\.tokens\.json: not a regular file/);
});
