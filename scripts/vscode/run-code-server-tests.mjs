// `npm run test:vscode`: runs the integration suite (test/integration/) inside a real VS Code
// extension host, that of code-server 4.100.3 (VS Code 1.100.3), opened in headless Chromium.
//
// 1. builds the extension (scripts/build.mjs) and the suite (out/integration/index.js);
// 2. starts code-server on 127.0.0.1, a free port, in its own process group, with a temp
//    user-data-dir and a temp workspace holding copies of examples/;
// 3. opens the workbench with the payload extensionDevelopmentPath=<repo>, extensionTestsPath=<suite>,
//    so VS Code loads the extension from this folder and calls the suite's run();
// 4. waits for the result file run() writes;
// 5. opens a second window on an empty workspace with test/integration/activation/ as the suite, to see
//    that opening a spec is what activates the extension (ATTN_SKIP_ACTIVATION=1 skips it);
// 6. prints every test and `N passed, M failed`, and the timings; ends every process group it started, on failure and on Ctrl+C too.
//
// Env: ATTN_TEST_TIMEOUT (seconds, default 240), ATTN_SKIP_BUILD=1 to reuse dist/ and out/,
// ATTN_EXTENSION_DEV_PATH to load another extension folder (for checking the harness itself).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildActivationSuite, buildIntegrationSuite } from './build-tests.mjs';
import { report } from './report.mjs';
import {
  killGroup, launchChromium, makeExampleWorkspace, makeUserDataDir, removeTempDirs, ROOT, startCodeServer, tail, tempDir, workbenchUrl,
} from './code-server.mjs';

const started = Date.now();
const timeoutMs = Number(process.env.ATTN_TEST_TIMEOUT || 240) * 1000;
const resultsDir = path.join(ROOT, 'test-results');
const consoleLog = path.join(resultsDir, 'vscode-console.log');

let server;
let browser;
let cleaning;
async function cleanUp() {
  cleaning ??= (async () => {
    if (browser) await browser.close().catch(() => {});
    if (server) await killGroup(server.pid);
    if (!process.env.ATTN_KEEP_TEMP) removeTempDirs();
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => { cleanUp().finally(() => process.exit(130)); });
}

function step(message) {
  console.log(`[test:vscode ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${message}`);
}

async function main() {
  fs.mkdirSync(resultsDir, { recursive: true });
  if (!process.env.ATTN_SKIP_BUILD) {
    step('building the extension and the integration suite');
    const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  const extensionPath = path.resolve(process.env.ATTN_EXTENSION_DEV_PATH || ROOT);
  if (extensionPath === ROOT && !fs.existsSync(path.join(ROOT, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: the build did not produce the extension');
  const suite = await buildIntegrationSuite();

  const scratch = tempDir('run');
  const resultFile = path.join(scratch, 'result.json');
  const workspace = makeExampleWorkspace();
  step('starting code-server');
  server = await startCodeServer({
    userDataDir: makeUserDataDir(),
    env: { ATTN_TEST_RESULT: resultFile },
    logFile: path.join(resultsDir, 'vscode-server.log'),
  });
  step(`code-server ${server.base} (process group ${server.pid}); opening the workbench in Chromium`);

  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const lines = [];
  page.on('console', (m) => lines.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => lines.push(`[pageerror] ${e.message}`));
  const url = workbenchUrl(server.base, { folder: workspace, extensionDevelopmentPath: extensionPath, extensionTestsPath: suite });
  const opened = Date.now();
  await page.goto(url);
  await waitForResult(page, resultFile, lines);
  const suiteWallMs = Date.now() - opened;
  fs.writeFileSync(consoleLog, lines.join('\n'));
  const result = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  fs.copyFileSync(resultFile, path.join(resultsDir, 'vscode-result.json'));

  if (!process.env.ATTN_SKIP_ACTIVATION) {
    // A new window on a workspace without specs: the extension host starts again, the extension idle.
    step('second window: a workspace without specs (activation)');
    const activationResult = path.join(scratch, 'activation-result.json');
    const emptyWorkspace = tempDir('empty-workspace');
    await page.goto(workbenchUrl(server.base, { folder: emptyWorkspace, extensionDevelopmentPath: extensionPath, extensionTestsPath: await buildActivationSuite() }));
    await waitForResult(page, activationResult, lines);
    const more = JSON.parse(fs.readFileSync(activationResult, 'utf8'));
    result.tests.push(...more.tests);
    result.passed += more.passed;
    result.failed += more.failed;
    result.timings = { ...result.timings, ...more.timings };
  }

  // The extension host's own errors reach the page console, not the suite: show ours.
  const ours = lines.filter((l) => /^\[(error|pageerror)\]/.test(l) && /attention-lens|attentionLens/i.test(l));
  if (ours.length) console.log(`\nErrors the workbench logged about the extension:\n${ours.slice(0, 10).map((l) => `  ${l}`).join('\n')}`);
  return report(result, {
    label: 'code-server',
    extra: { 'workbench opened -> suite done': suiteWallMs, 'whole run (build, start, suite)': Date.now() - started },
  });
}

/** run() writes the result file; the page must stay open until then. */
async function waitForResult(page, resultFile, lines) {
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(resultFile)) {
    if (Date.now() > deadline) {
      fs.writeFileSync(consoleLog, lines.join('\n'));
      await page.screenshot({ path: path.join(resultsDir, 'vscode-timeout.png') }).catch(() => {});
      throw new Error(`no result from the suite within ${timeoutMs / 1000} s. Workbench console: ${consoleLog}; ` +
        `last lines:\n${lines.slice(-25).join('\n')}\n--- server log ---\n${tail(server.logFile, 15)}`);
    }
    if (page.isClosed()) throw new Error('the workbench page closed before the suite finished');
    await new Promise((r) => setTimeout(r, 200));
  }
}

let code = 1;
try {
  code = await main();
} catch (e) {
  console.error(`\ntest:vscode: the run did not complete: ${e.message}`);
  code = 1;
} finally {
  await cleanUp();
}
process.exit(code);
