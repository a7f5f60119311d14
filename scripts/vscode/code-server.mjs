// Starting and stopping code-server, and opening its workbench in Debian's Chromium:
// shared by the integration runner, the end-to-end tests and `npm start`.
/* global fetch, URLSearchParams */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromiumPath, ensureCodeServer, ROOT } from './install-code-server.mjs';

export { ROOT };

/** A TCP port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const madeDirs = [];
export function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `attn-${prefix}-`));
  madeDirs.push(dir);
  return dir;
}

/** Removes every temp dir tempDir() made in this process (after the processes using them ended). */
export function removeTempDirs() {
  for (const dir of madeDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** A user-data-dir whose settings keep the trust dialog and welcome page out of the way. */
export function makeUserDataDir(extraSettings = {}) {
  const dir = tempDir('user');
  fs.mkdirSync(path.join(dir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'User', 'settings.json'), JSON.stringify({
    'security.workspace.trust.enabled': false,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'git.openRepositoryInParentFolders': 'never',
    ...extraSettings,
  }, null, 2));
  return dir;
}

/** A throwaway workspace holding copies of examples/ (tests edit and break specs there, not in the repo). */
export function makeExampleWorkspace() {
  const dir = tempDir('workspace');
  const examples = path.join(ROOT, 'examples');
  // Folders too (models/ holds the checkpoints the model examples run).
  for (const name of fs.readdirSync(examples)) fs.cpSync(path.join(examples, name), path.join(dir, name), { recursive: true });
  return dir;
}

/** Ends a whole process group, politely then firmly. Never throws. */
export async function killGroup(pid, graceMs = 3000) {
  if (!pid) return;
  const alive = () => { try { process.kill(-pid, 0); return true; } catch { return false; } };
  try { process.kill(-pid, 'SIGTERM'); } catch { return; }
  const deadline = Date.now() + graceMs;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive()) { try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ } }
}

async function waitForHttp(url, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) throw new Error(`code-server did not answer ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/**
 * Starts code-server on 127.0.0.1 in its own process group.
 * Returns { base, port, pid, logFile, stop() }; stop() ends the whole group (file watcher, extension host too).
 */
export async function startCodeServer({ port, userDataDir, extensionsDir, env = {}, logFile, folder, browser = true } = {}) {
  const bin = ensureCodeServer({ browser });
  port = port ?? await freePort();
  userDataDir = userDataDir ?? makeUserDataDir();
  extensionsDir = extensionsDir ?? tempDir('extensions');
  logFile = logFile ?? path.join(userDataDir, 'code-server.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true }); // a fresh clone has no test-results/ yet
  const out = fs.openSync(logFile, 'a');
  const args = [bin,
    '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
    ...(folder ? [folder] : [])];
  const child = spawn(process.execPath, args, {
    detached: true, // own process group: killGroup(pid) ends it and everything it spawned
    stdio: ['ignore', out, out],
    env: { ...process.env, ...env },
  });
  fs.closeSync(out);
  const base = `http://127.0.0.1:${port}`;
  // Last resort: whatever way this process ends (process.exit included), the group goes with it.
  const onExit = () => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ } };
  process.once('exit', onExit);
  const stop = async () => {
    await killGroup(child.pid);
    process.removeListener('exit', onExit);
  };
  try {
    await waitForHttp(`${base}/healthz`, 60_000, child);
  } catch (e) {
    await stop();
    throw new Error(`${e.message}\n--- ${logFile} ---\n${tail(logFile)}`);
  }
  return { base, port, pid: child.pid, child, logFile, userDataDir, extensionsDir, stop };
}

export function tail(file, lines = 40) {
  try { return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n'); } catch { return '(no log)'; }
}

/**
 * The workbench URL that opens `folder` and, through the payload, loads the extension under
 * development from `extensionDevelopmentPath` and runs `extensionTestsPath`'s run() if given.
 */
export function workbenchUrl(base, { folder, extensionDevelopmentPath, extensionTestsPath } = {}) {
  const host = new URL(base).host;
  const remote = (p) => `vscode-remote://${host}${p}`;
  const payload = [];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  const params = new URLSearchParams();
  if (folder) params.set('folder', folder);
  if (payload.length) params.set('payload', JSON.stringify(payload));
  return `${base}/?${params.toString()}`;
}

/** Debian's Chromium, headless, through playwright-core (no browser download). */
export async function launchChromium({ headless = true } = {}) {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: chromiumPath(),
    headless,
    // The runners handle signals themselves (ending code-server's group too), so Playwright must not exit first.
    handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Installs a packaged extension the way a user does: `code-server --install-extension x.vsix`. */
export function installVsix(vsix, extensionsDir) {
  const bin = ensureCodeServer();
  const r = spawnSync(process.execPath, [bin, '--extensions-dir', extensionsDir, '--install-extension', vsix], { encoding: 'utf8' });
  if (r.status !== 0 || !/successfully installed/i.test(r.stdout + r.stderr)) {
    throw new Error(`code-server --install-extension ${vsix} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  }
}
