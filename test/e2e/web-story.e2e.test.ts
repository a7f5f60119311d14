// The seeds' story on the web: the same keyboard walk as the desktop's (story-steps.ts, shared with
// story.e2e.test.ts), with the extension in code-server's web worker extension host (web-host.ts:
// `remote.extensionKind` gives it the kind `web`; Running Extensions must say "web worker"), in an
// empty folder, as a teacher's repository on vscode.dev would be. The walkthrough's first step copies
// the examples into the folder through workspace.fs; then "Next: …", by Tab and Enter, leads through
// every spec step with the same numbers as on the desktop, screenshots to test-results/web-story-*.png,
// and on to the induction head, a model spec, which runs in the browser: the model editor shows the
// desktop walk's numbers (" sat" next; the last " cat" puts at least 0.999 on " sat").
// Along the way the matrix kernels (WebAssembly SIMD) are compiled in the web worker extension host, in
// the analysis and run Web Workers it starts, and in the panel's webview, to show the CSPs there allow it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame, Page, Worker } from 'playwright-core';
import {
  ROOT, tempDir, workbenchUrl, type CodeServer,
} from '../../scripts/vscode/code-server.mjs';
import { waitForWorkbench, RESULTS } from './workbench.js';
import { assertModelRun, modelRunFrame, MODEL_STEP, STORY, panelsShown, stepShot, takeNext, walkSpecSteps } from './story-steps.js';
import { kernelCompiles, runningWhere, startWorkbenchServer, stopWorkbenchServer, webHostUserDataDir } from './web-host.js';

let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;
let workspace: string;
/** Every Web Worker the page started, by its URL: the extension host's and the ones it starts. */
const workers: Worker[] = [];
/** Whether the matrix kernel compiled in the panel's webview, probed at the last spec step. */
let panelKernel: string | undefined;

describe('the story on the web, walked with the keyboard alone', { timeout: 600_000 }, () => {
  before(async () => {
    for (const f of ['dist/web/extension.js', 'dist/web/analysis-worker.js', 'dist/webview.js']) {
      assert.ok(fs.existsSync(path.join(ROOT, f)), `${f} is built (node scripts/build.mjs)`);
    }
    fs.mkdirSync(RESULTS, { recursive: true });
    workspace = tempDir('web-story-workspace');
    fs.writeFileSync(path.join(workspace, 'README.md'), 'a workspace for the story on the web\n');
    const started = await startWorkbenchServer('web-story', webHostUserDataDir({ 'workbench.colorTheme': 'Default Dark Modern' }));
    ({ server, browser } = started);
    page = await started.browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.on('worker', (w) => { workers.push(w); });
    await page.goto(workbenchUrl(started.server.base, { folder: workspace, extensionDevelopmentPath: ROOT }));
    await waitForWorkbench(page);
    // The sidebar closed (Ctrl+B), so the editor and the panel share the window.
    await page.keyboard.press('Control+B');
  });

  after(() => stopWorkbenchServer(server, browser));

  it('the walkthrough opens the first example; Next, by Tab and Enter, reaches every spec step with the desktop\'s numbers, then the induction head', async () => {
    try {
      const { widths, last } = await walkSpecSteps(page, 'web-story');
      console.log(`panel widths along the story on the web: ${widths.join(', ')} px`);
      panelKernel = await kernelCompiles(last);
      assert.ok(fs.existsSync(path.join(workspace, 'attention-lens-examples', STORY[0].file)), 'Open Example copied the examples into the folder');
      await theModelStep(last);
      // Activated by the walkthrough's first step (the empty folder holds no spec to activate it before).
      await page.keyboard.press('Escape');
      const where = await runningWhere(page);
      assert.match(where, /web worker/, `the extension runs in the web worker extension host: ${where}`);
    } catch (e) {
      await page.screenshot({ path: path.join(RESULTS, 'web-story-failed.png') }).catch(() => {});
      throw new Error(`${(e as Error).message}; panels: ${await panelsShown(page)}`);
    }
  });

  it('the matrix kernels compile as WebAssembly in the web worker extension host, its analysis and run workers and the panel', async () => {
    // Each worker by its name: VS Code names the extension host's ExtensionHostWorker, and prefixes the
    // names of the workers started in it with that ("ExtensionHostWorker -> attention-lens-analysis").
    const found = await Promise.all(workers.map(async (w) => {
      const name = await w.evaluate(() => self.name).catch(() => undefined);
      return name === undefined ? undefined : { name, can: await kernelCompiles(w) };
    }));
    const alive = found.filter((f) => f !== undefined);
    console.log(`workers: ${alive.map((f) => `${f.name || '(no name)'} → ${f.can}`).join('; ')}`);
    const host = alive.find((f) => f.name === 'ExtensionHostWorker');
    const analysis = alive.find((f) => /^ExtensionHostWorker -> attention-lens-analysis$/.test(f.name));
    assert.equal(host?.can, 'compiles', `the kernel in the web worker extension host (${alive.map((f) => f.name).join(', ')})`);
    const run = alive.find((f) => /^ExtensionHostWorker -> attention-lens-run$/.test(f.name));
    assert.equal(analysis?.can, 'compiles', 'the kernels in the analysis worker the extension started');
    assert.equal(run?.can, 'compiles', 'the kernels in the model run\'s worker the extension started');
    assert.equal(panelKernel, 'compiles', 'the kernel in the panel\'s webview');
  });
});

/**
 * Next from the last spec step opens the induction head's spec: a model spec, whose run the model
 * editor draws beside the panel (read through workspace.fs from the models/ folder Open Example copied),
 * with the desktop walk's numbers (story-steps.ts: " sat" next, the last " cat" → " sat" ≥ 0.999).
 */
async function theModelStep(last: Frame): Promise<void> {
  await takeNext(page, last, STORY[STORY.length - 1].file);
  const run = await assertModelRun(await modelRunFrame(page), stepShot('web-story', STORY.length + 1, MODEL_STEP.file));
  console.log(`the induction head on the web: next token "${run.next}", the last " cat" → "${MODEL_STEP.next}" ${run.weight}`);
}
