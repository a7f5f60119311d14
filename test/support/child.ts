// Runs a few lines of TypeScript from this repository in a child Node (tsx), with a time limit: a
// read that would block for good (a FIFO opened for reading waits for a writer) must not stop the
// test process itself. The caller asserts `signal` is null (not killed) and reads stdout.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { join } from 'node:path';

export function runInChild(script: string, arg: string, timeoutMs = 30_000): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['--import', 'tsx', '-e', script, arg], { cwd: join(__dirname, '..', '..'), timeout: timeoutMs, encoding: 'utf8' });
}
