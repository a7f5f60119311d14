// `npm run test:electron`: the same integration suite as test:vscode, in desktop VS Code (Electron)
// through @vscode/test-electron. For machines that can download VS Code (it caches it in
// .vscode-test/), or that name a local VS Code binary in VSCODE_EXECUTABLE.
// On Linux without a display it needs one: run it under xvfb-run.
//
// Env: VSCODE_EXECUTABLE (path of a `code` binary; otherwise VS Code 1.100.3 is downloaded),
//      ATTN_SKIP_BUILD=1 to reuse dist/ and out/.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { buildIntegrationSuite } from './build-tests.mjs';
import { makeExampleWorkspace, makeUserDataDir, removeTempDirs, ROOT, tempDir } from './code-server.mjs';
import { report } from './report.mjs';

const VSCODE_VERSION = '1.100.3';
const started = Date.now();

async function main() {
  if (!process.env.ATTN_SKIP_BUILD) {
    const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  const suite = await buildIntegrationSuite();
  const resultFile = path.join(tempDir('electron'), 'result.json');
  const executable = process.env.VSCODE_EXECUTABLE;
  if (executable && !fs.existsSync(executable)) throw new Error(`VSCODE_EXECUTABLE=${executable} does not exist`);
  console.log(executable ? `Using VS Code at ${executable}` : `Downloading VS Code ${VSCODE_VERSION} (cached in .vscode-test/)...`);
  try {
    await runTests({
      ...(executable ? { vscodeExecutablePath: executable } : { version: VSCODE_VERSION }),
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: suite,
      extensionTestsEnv: { ATTN_TEST_RESULT: resultFile },
      launchArgs: [makeExampleWorkspace(), '--user-data-dir', makeUserDataDir(), '--extensions-dir', tempDir('extensions'),
        '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes', '--disable-gpu'],
    });
  } catch (e) {
    // runTests rejects when run() rejects (a failed test); the result file tells which.
    if (!fs.existsSync(resultFile)) throw new Error(`VS Code ended without a result: ${e?.message ?? e}`);
  }
  if (!fs.existsSync(resultFile)) throw new Error('VS Code ended without writing a result');
  const result = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  return report(result, { label: 'desktop, @vscode/test-electron', extra: { 'whole run': Date.now() - started } });
}

let code = 1;
try {
  code = await main();
  if (!process.env.ATTN_KEEP_TEMP) removeTempDirs();
} catch (e) {
  console.error(`\ntest:electron: the run did not complete: ${e.message}\n` +
    'It needs VS Code: network access to download it, or VSCODE_EXECUTABLE=/path/to/code. ' +
    'Without network, npm run test:vscode runs the same suite in code-server.');
}
process.exit(code);
