// npm run test:unit: every test/unit/**/*.test.ts in node's test runner. The tests mirror the sources
// folder for folder, and node 20's --test takes no glob of its own, so the files are listed here.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path);
    return e.isFile() && e.name.endsWith('.test.ts') ? [path] : [];
  }).sort();
}

const files = testFiles('test/unit');
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', ...process.argv.slice(2), ...files], { stdio: 'inherit' });
process.exit(run.status ?? 1);
