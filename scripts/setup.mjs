// The one setup step behind `npm start`, `npm test` and `.ci/run`, so that both README commands work
// straight after `git clone` on a fresh Debian machine. It imports nothing outside Node itself: it runs
// before the project's npm dependencies exist.
//
//   node scripts/setup.mjs --for start   npm deps; code-server and what it needs (unless the desktop `code` is here)
//   node scripts/setup.mjs --for test    npm deps; Debian packages for the browser tests; code-server
//   node scripts/setup.mjs --for unit    npm deps only
//
// Each step only checks when its work is already done, so a second run costs well under a second.
// Debian packages are installed when it runs as root; otherwise it prints the one `sudo apt-get install`
// line to run and exits 1 (it never asks for a password itself).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// What code-server's install builds against (a native module needs the Kerberos headers; its
// postinstall wants ripgrep, which we seed from Debian's; node-gyp needs a C++ toolchain).
const CODE_SERVER_PACKAGES = ['ripgrep', 'libkrb5-dev', 'libx11-dev', 'libxkbfile-dev', 'libsecret-1-dev', 'g++', 'make', 'python3'];
// The tests also drive Chromium, take readable screenshots, and compare our numbers with numpy's.
// The tests also compare the model runner with a PyTorch forward (python3-torch) and the tokenizer with a Python reading (python3-regex),
// and run the Python package's pytest suite, its mypy check and its wheel build with Debian's interpreter.
const TEST_PACKAGES = [...CODE_SERVER_PACKAGES, 'chromium', 'fonts-dejavu-core', 'python3-numpy', 'python3-regex', 'python3-torch',
  'python3-pytest', 'python3-mypy', 'python3-setuptools', 'python3-wheel', 'python3-pip'];

class SetupError extends Error {}

function log(message) {
  console.log(`[setup] ${message}`);
}

function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;
}

/** The npm dependencies: `npm ci` when node_modules is missing or lacks a package that package.json names. */
export function ensureNpmDependencies() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
  const missing = names.filter((name) => !fs.existsSync(path.join(ROOT, 'node_modules', name, 'package.json')));
  if (missing.length === 0) return false;
  const lock = fs.existsSync(path.join(ROOT, 'package-lock.json'));
  log(`npm ${lock ? 'ci' : 'install'} (${missing.length} of ${names.length} packages missing, e.g. ${missing.slice(0, 3).join(', ')})`);
  const r = spawnSync('npm', [lock ? 'ci' : 'install', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new SetupError(`npm ${lock ? 'ci' : 'install'} failed (exit ${r.status}); see its output above.`);
  return true;
}

/** Debian packages from `wanted` that dpkg does not report as installed; [] where there is no dpkg. */
export function missingDebianPackages(wanted) {
  if (!onPath('dpkg-query')) return [];
  return wanted.filter((p) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' });
    return !(r.status === 0 && r.stdout.includes('install ok installed'));
  });
}

export function ensureDebianPackages(wanted) {
  const missing = missingDebianPackages(wanted);
  if (missing.length === 0) return false;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new SetupError(`These Debian packages are missing. Install them, then run the command again:\n\n  ` +
      `sudo apt-get install -y --no-install-recommends ${missing.join(' ')}\n`);
  }
  log(`apt-get install ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-q'], { stdio: ['ignore', 'inherit', 'inherit'], env });
  if (update.status !== 0) throw new SetupError(`apt-get update failed (exit ${update.status}).`);
  const install = spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], { stdio: ['ignore', 'inherit', 'inherit'], env });
  if (install.status !== 0) throw new SetupError(`apt-get install ${missing.join(' ')} failed (exit ${install.status}).`);
  return true;
}

async function ensureCodeServerInstalled(browser) {
  const { ensureCodeServer } = await import('./vscode/install-code-server.mjs');
  return ensureCodeServer({ browser });
}

/** Everything `purpose` needs; returns what it did, for the caller's log. */
export async function setup(purpose) {
  const started = Date.now();
  const did = [];
  if (purpose === 'test') {
    if (ensureDebianPackages(TEST_PACKAGES)) did.push('Debian packages');
  } else if (purpose === 'start' && (!onPath('code') || process.env.ATTN_START_WEB)) {
    if (ensureDebianPackages(CODE_SERVER_PACKAGES)) did.push('Debian packages');
  }
  if (ensureNpmDependencies()) did.push('npm dependencies');
  if (purpose === 'test' || (purpose === 'start' && (!onPath('code') || process.env.ATTN_START_WEB))) {
    const { isInstalled } = await import('./vscode/install-code-server.mjs');
    if (!isInstalled()) did.push('code-server');
    await ensureCodeServerInstalled(purpose === 'test');
  }
  fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
  if (did.length) log(`${did.join(', ')} installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return did;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const i = process.argv.indexOf('--for');
  const purpose = i > 0 ? process.argv[i + 1] : 'test';
  if (!['start', 'test', 'unit'].includes(purpose)) {
    console.error('usage: node scripts/setup.mjs --for start|test|unit');
    process.exit(2);
  }
  setup(purpose).catch((e) => {
    console.error(`setup: ${e.message}`);
    process.exit(1);
  });
}
