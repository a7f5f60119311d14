// npm run bench:web's first part (scripts/bench-web.ts --no-paint): each file of dist/web/ as the
// package builds it, raw and gzipped, beside the desktop's bundles; a figure, not a limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../../support/paths.js';

test('bench:web --no-paint prints the size of each web bundle and of the desktop\'s for the same job', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench-web.ts', '--no-paint'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  for (const name of ['extension.js', 'analysis-worker.js', 'run-worker.js', 'scan-worker.js'].flatMap((f) => [`dist/web/${f}`, `desktop: dist/${f}`])) {
    const line = r.stdout.split('\n').find((l) => l.trim().startsWith(name));
    assert.ok(line, `${name} in:\n${r.stdout}`);
    const [raw, gzip] = [...line.matchAll(/(\d+\.\d) KB/g)].map((m) => Number(m[1]));
    assert.ok(raw > 10 && gzip > 1 && gzip < raw, line);
  }
  assert.doesNotMatch(r.stdout, /first paint/, '--no-paint starts no code-server');
});
