// `npm start`: builds, then opens VS Code with the extension loaded from this folder, a scratch copy
// of examples/ open (.scratch/examples, start-workspace.mjs: the tracked examples are never edited)
// and the Apple-watch example shown with its attention panel.
//   - the desktop `code` when it is on PATH:
//       code --extensionDevelopmentPath=. .scratch/examples .scratch/examples/apple-watch-lens.attn.json
//   - otherwise code-server on 127.0.0.1 (port: $PORT, else 8080 if free, else any free port);
//     it prints the URL to open and runs until Ctrl+C.
// ATTN_START_WEB=1 uses code-server even when `code` is installed.
// The panel opens through the extension's ATTN_SHOW_ON_START (src/host/panel/start.ts).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchWorkspace } from './start-workspace.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKSPACE = scratchWorkspace(ROOT);
const SPEC = path.join(WORKSPACE, 'apple-watch-lens.attn.json');
const env = { ...process.env, ATTN_SHOW_ON_START: SPEC };

function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

console.log('Building...');
const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

if (onPath('code') && !process.env.ATTN_START_WEB) {
  console.log('Opening VS Code with the extension from this folder...');
  const r = spawnSync('code', [`--extensionDevelopmentPath=${ROOT}`, WORKSPACE, SPEC], { stdio: 'inherit', env });
  process.exit(r.status ?? 0);
}

// No desktop VS Code: code-server, the same workbench in a browser.
const { startCodeServer, workbenchUrl } = await import('./vscode/code-server.mjs');
const wanted = Number(process.env.PORT) || undefined;
const port = wanted ?? ((await portIsFree(8080)) ? 8080 : undefined);
if (wanted && !(await portIsFree(wanted))) {
  console.error(`Port ${wanted} (from $PORT) is taken.`);
  process.exit(1);
}
const userDataDir = path.join(ROOT, '.vscode-test', 'start-user-data');
const settings = path.join(userDataDir, 'User', 'settings.json');
if (!fs.existsSync(settings)) {
  fs.mkdirSync(path.dirname(settings), { recursive: true });
  fs.writeFileSync(settings, JSON.stringify({
    'security.workspace.trust.enabled': false, 'workbench.startupEditor': 'none', 'git.openRepositoryInParentFolders': 'never',
  }, null, 2));
}
let server;
try {
  server = await startCodeServer({
    port, userDataDir, extensionsDir: path.join(ROOT, '.vscode-test', 'start-extensions'), env,
    logFile: path.join(ROOT, '.vscode-test', 'start-code-server.log'), browser: false,
  });
} catch (e) {
  console.error(`npm start: ${e.message}`);
  process.exit(1);
}
const url = workbenchUrl(server.base, { folder: WORKSPACE, extensionDevelopmentPath: ROOT });
console.log(`\nAttention Lens in code-server (VS Code 1.100.3 in the browser). Open:\n\n  ${url}\n`);
console.log(`Workspace: ${path.relative(ROOT, WORKSPACE)} (copies of examples/; your edits stay there). Log: ${path.relative(ROOT, server.logFile)}. Ctrl+C to stop.`);
if (process.env.BROWSER !== 'none' && process.env.DISPLAY && onPath('xdg-open')) {
  spawn('xdg-open', [url], { stdio: 'ignore', detached: true }).unref();
}

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  await server.stop();
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(0));
server.child.on('exit', (code) => {
  if (!stopping) {
    console.error(`code-server exited (code ${code}); see ${server.logFile}`);
    process.exit(1);
  }
});
