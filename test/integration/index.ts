// Entry point VS Code loads as `extensionTestsPath`: runs the mocha suite inside the real
// extension host (code-server's or a desktop VS Code's) and writes a result file, because the
// runner outside cannot see this process's exit code when VS Code runs in a browser.
//
// Bundled by scripts/vscode/build-tests.mjs into out/integration/index.js, mocha included.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { timingsSeen } from './helpers';

export interface TestOutcome {
  title: string;
  state: 'passed' | 'failed';
  durationMs: number;
  error?: string;
}

export interface SuiteResult {
  passed: number;
  failed: number;
  tests: TestOutcome[];
  vscodeVersion: string;
  timings: Record<string, number | undefined>;
  durationMs: number;
}

/** Where the runner waits for the result: $ATTN_TEST_RESULT, else next to this bundle. */
export function resultPath(): string {
  return process.env.ATTN_TEST_RESULT || path.join(__dirname, 'result.json');
}

export function run(): Promise<void> {
  return runMocha(resultPath(), () => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    require('./extension.test');
    require('./diagnostics.test');
    require('./panel.test');
    require('./hover.test');
    require('./lock-export.test');
    require('./reveal.test');
    require('./train.test');
    require('./model-editor.test');
    require('./model-run.test');
    require('./notebook.test');
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
}

/** Runs the test files `load` registers (with require(), after mocha's globals exist) and writes the result to `file`. */
export function runMocha(file: string, load: () => void): Promise<void> {
  const started = Date.now();
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 30_000, reporter: 'spec' });
  // Register the test files with mocha's globals in place (suite, test, setup...): require() runs
  // each file now, after pre-require, where an import would have run it before mocha existed.
  mocha.suite.emit('pre-require', globalThis, '', mocha);
  load();

  const tests: TestOutcome[] = [];
  return new Promise<void>((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const result: SuiteResult = {
        passed: tests.filter((t) => t.state === 'passed').length,
        failed: tests.filter((t) => t.state === 'failed').length,
        tests,
        vscodeVersion: vscode.version,
        timings: timingsSeen(),
        durationMs: Date.now() - started,
      };
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file + '.tmp', JSON.stringify(result, null, 2));
      fs.renameSync(file + '.tmp', file); // the runner never reads half a file
      if (failures > 0) reject(new Error(`${failures} test(s) failed`));
      else resolve();
    });
    runner.on('pass', (t) => tests.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration ?? 0 }));
    runner.on('fail', (t, err: Error) => tests.push({
      title: t.fullTitle(), state: 'failed', durationMs: t.duration ?? 0,
      error: err && (err.stack || err.message) ? String(err.stack || err.message) : String(err),
    }));
  });
}
