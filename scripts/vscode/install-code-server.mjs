// Installs code-server (VS Code's own web workbench, server and extension host) into the ignored
// cache folder .vscode-test/code-server/, on demand. It is how the integration and end-to-end tests
// get a real VS Code on machines that cannot download one. Idempotent: a second run only checks.
//
//   node scripts/vscode/install-code-server.mjs          install if needed, print the binary's path
//
// Imported by the runners as `ensureCodeServer()`.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE_DIR = path.join(ROOT, '.vscode-test', 'code-server');
const PACKAGE_DIR = path.join(CACHE_DIR, 'node_modules', 'code-server');
const MARKER = path.join(CACHE_DIR, `installed-${CODE_SERVER_VERSION}`);
// code-server's postinstall pulls in @vscode/ripgrep, which downloads rg from GitHub unless it finds
// the archive in this cache. We put Debian's rg there instead.
const RIPGREP_PACKAGE_VERSION = '1.15.11';
const RIPGREP_RELEASE = 'v13.0.0-10';

/** Where the code-server launcher is once installed. */
export const CODE_SERVER_BIN = path.join(PACKAGE_DIR, 'out', 'node', 'entry.js');

class MissingPrerequisite extends Error {}

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** The Chromium the tests drive: $CHROMIUM_PATH, else Debian's. */
export function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', which('chromium'), which('chromium-browser')];
  const found = candidates.find((p) => p && fs.existsSync(p));
  if (!found) {
    throw new MissingPrerequisite(
      'Chromium is not installed. On Debian: sudo apt-get install -y chromium ' +
      '(or set CHROMIUM_PATH to a Chromium/Chrome binary).');
  }
  return found;
}

function checkPrerequisites({ forInstall, browser }) {
  const problems = [];
  const [major] = process.versions.node.split('.').map(Number);
  if (major !== 20 && major !== 22) {
    problems.push(`code-server ${CODE_SERVER_VERSION} needs Node 20 (found ${process.versions.node}).`);
  }
  if (browser) {
    try { chromiumPath(); } catch (e) { problems.push(e.message); }
  }
  if (forInstall) {
    if (!which('rg')) problems.push('ripgrep is not installed. On Debian: sudo apt-get install -y ripgrep');
    const krb = ['/usr/include/gssapi/gssapi.h', '/usr/include/krb5.h'].some((p) => fs.existsSync(p)) || which('krb5-config');
    if (!krb) {
      problems.push('The Kerberos headers are missing (a native module of code-server builds against them). ' +
        'On Debian: sudo apt-get install -y libkrb5-dev');
    }
    if (!which('make') || !(which('g++') || which('c++'))) {
      problems.push('A C++ toolchain is missing (node-gyp builds native modules). On Debian: sudo apt-get install -y build-essential python3');
    }
  }
  if (problems.length) {
    throw new MissingPrerequisite(
      `Cannot run code-server ${CODE_SERVER_VERSION} here:\n  - ${problems.join('\n  - ')}\n` +
      'All at once on Debian: sudo apt-get install -y chromium ripgrep libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev');
  }
}

function seedRipgrepCache() {
  const arch = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' }[process.arch];
  if (process.platform !== 'linux' || !arch) return; // elsewhere the normal download may work
  const dir = path.join(os.tmpdir(), `vscode-ripgrep-cache-${RIPGREP_PACKAGE_VERSION}`);
  const archive = path.join(dir, `ripgrep-${RIPGREP_RELEASE}-${arch}.tar.gz`);
  if (fs.existsSync(archive)) return;
  fs.mkdirSync(dir, { recursive: true });
  const rg = fs.realpathSync(which('rg'));
  const r = spawnSync('tar', ['-czf', archive, '-C', path.dirname(rg), path.basename(rg)], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`could not write ${archive}`);
}

export function isInstalled() {
  return fs.existsSync(MARKER) && fs.existsSync(CODE_SERVER_BIN);
}

/** Installs code-server if it is not there yet; returns the path of its launcher (run it with node). */
/** `browser: false` for `npm start`, where the user opens the URL in a browser of their own. */
export function ensureCodeServer({ quiet = false, browser = true } = {}) {
  if (isInstalled()) {
    checkPrerequisites({ forInstall: false, browser });
    return CODE_SERVER_BIN;
  }
  checkPrerequisites({ forInstall: true, browser });
  seedRipgrepCache();
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  // Its own package.json so npm does not walk up into the project's.
  const pkg = path.join(CACHE_DIR, 'package.json');
  if (!fs.existsSync(pkg)) fs.writeFileSync(pkg, JSON.stringify({ name: 'code-server-cache', private: true }, null, 2) + '\n');
  if (!quiet) console.log(`Installing code-server@${CODE_SERVER_VERSION} into ${path.relative(ROOT, CACHE_DIR)}/ (about a minute, ~300 MB)...`);
  const started = Date.now();
  const r = spawnSync('npm', [
    'install', '--prefix', CACHE_DIR, '--no-audit', '--no-fund', '--no-save', '--loglevel=error',
    `code-server@${CODE_SERVER_VERSION}`,
  ], {
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    env: { ...process.env, npm_config_yes: 'true', npm_config_unsafe_perm: 'true' },
  });
  if (r.status !== 0 || !fs.existsSync(CODE_SERVER_BIN)) {
    throw new Error(`npm install code-server@${CODE_SERVER_VERSION} failed (exit ${r.status}). ` +
      'Check the output above; a native module build needs libkrb5-dev, and the ripgrep download needs ' +
      `the archive seeded in ${path.join(os.tmpdir(), `vscode-ripgrep-cache-${RIPGREP_PACKAGE_VERSION}`)}.`);
  }
  fs.writeFileSync(MARKER, new Date().toISOString() + '\n');
  if (!quiet) console.log(`code-server installed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  return CODE_SERVER_BIN;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    console.log(ensureCodeServer());
  } catch (e) {
    console.error(`install-code-server: ${e.message}`);
    process.exit(1);
  }
}
