// scripts/setup.mjs: the one setup step behind `npm start`, `npm test` and `.ci/run`.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
// @ts-expect-error: a plain .mjs script without type declarations
import { missingDebianPackages } from '../../../scripts/setup.mjs';

const SETUP = path.resolve('scripts/setup.mjs');
const hasDpkg = spawnSync('sh', ['-c', 'command -v dpkg-query']).status === 0;
const isRoot = process.getuid?.() === 0;
const hasSetpriv = spawnSync('sh', ['-c', 'command -v setpriv']).status === 0;

describe('setup', () => {
  it('refuses an unknown purpose with its usage', () => {
    const r = spawnSync(process.execPath, [SETUP, '--for', 'everything'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /usage: node scripts\/setup\.mjs --for start\|test\|unit/);
  });

  it('finds the npm dependencies already there and does nothing (a second run only checks)', () => {
    const r = spawnSync(process.execPath, [SETUP, '--for', 'unit'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /npm ci|npm install/);
  });

  it('reports a Debian package that is not installed, and not one that is', { skip: !hasDpkg && 'no dpkg here' }, () => {
    assert.deepEqual(missingDebianPackages(['attn-no-such-package', 'dpkg']), ['attn-no-such-package']);
  });

  it('as a user who is not root, prints the one sudo apt-get line and fails instead of asking for a password',
    { skip: !(hasDpkg && isRoot && hasSetpriv) && 'needs dpkg, root and setpriv to become another user' }, () => {
      // The other user cannot read a checkout in a private folder (a fresh clone in `mktemp -d` is 0700:
      // "Cannot find module …/scripts/setup.mjs"), so it runs a copy of the script from a folder it may
      // read. setup.mjs imports only Node's own modules, so the copy is the whole of it.
      const shared = fs.mkdtempSync(path.join(fs.existsSync('/tmp') ? '/tmp' : os.tmpdir(), 'attn-setup-'));
      try {
        fs.chmodSync(shared, 0o755);
        const copy = path.join(shared, 'setup.mjs');
        fs.copyFileSync(SETUP, copy);
        fs.chmodSync(copy, 0o644);
        const code = `import(${JSON.stringify(copy)}).then((m) => m.ensureDebianPackages(['attn-no-such-package']))` +
          `.then(() => process.exit(0), (e) => { console.error(e.message); process.exit(1); })`;
        const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', code],
          { encoding: 'utf8', cwd: '/' });
        assert.equal(r.status, 1, r.stderr);
        assert.match(r.stderr, /^ {2}sudo apt-get install -y --no-install-recommends attn-no-such-package$/m);
      } finally {
        fs.rmSync(shared, { recursive: true, force: true });
      }
    });
});
