// The seeds' story on the web: the same keyboard walk as the desktop's (story-steps.ts, shared with
// story.e2e.test.ts), with the extension in code-server's web worker extension host (web-host.ts:
// `remote.extensionKind` gives it the kind `web`; Running Extensions must say "web worker"), in an
// empty folder, as a teacher's repository on vscode.dev would be. The walkthrough's first step copies
// the examples into the folder through workspace.fs; then "Next: …", by Tab and Enter, leads through
// every spec step with the same numbers as on the desktop, screenshots to test-results/web-story-*.png,
// and on to the induction head, a model spec, whose run the web does not make yet: its panel says
// where the model is drawn, and the model editor's button says in one line that it needs the desktop.
// Along the way the matrix kernel (WebAssembly SIMD) is compiled in the web worker extension host, in
// the analysis Web Worker it starts, and in the panel's webview, to show the CSPs there allow it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame, Page, Worker } from 'playwright-core';
import {
  launchChromium, removeTempDirs, ROOT, startCodeServer, tail, tempDir, workbenchUrl, type CodeServer,
} from '../../scripts/vscode/code-server.mjs';
import { attentionFrame, poll, sleep, waitForState, waitForWorkbench, RESULTS } from './workbench.js';
import { MODEL_STEP, STORY, panelShows, panelsShown, stepShot, tabTo, takeNext, walkSpecSteps } from './story-steps.js';
import { kernelCompiles, runningWhere, toasts, webHostUserDataDir } from './web-host.js';

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
    server = await startCodeServer({ userDataDir: webHostUserDataDir({ 'workbench.colorTheme': 'Default Dark Modern' }), logFile: path.join(RESULTS, 'web-story-server.log') });
    if (process.env.ATTN_E2E_PIDS) fs.appendFileSync(process.env.ATTN_E2E_PIDS, `${server.pid}\n`);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.on('worker', (w) => { workers.push(w); });
    await page.goto(workbenchUrl(server.base, { folder: workspace, extensionDevelopmentPath: ROOT }));
    await waitForWorkbench(page);
    // The sidebar closed (Ctrl+B), so the editor and the panel share the window.
    await page.keyboard.press('Control+B');
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    if (!process.env.ATTN_KEEP_TEMP) removeTempDirs();
    if (server) console.log(`code-server log (tail):\n${tail(server.logFile, 5)}`);
  });

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

  it('the matrix kernel compiles as WebAssembly in the web worker extension host, its analysis worker and the panel', async () => {
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
    assert.equal(analysis?.can, 'compiles', 'the kernel in the analysis worker the extension started');
    assert.equal(panelKernel, 'compiles', 'the kernel in the panel\'s webview');
  });
});

/**
 * Next from the last spec step opens the induction head's spec: a model spec, drawn by the model
 * editor on its run. The web has no model run yet, so the panel says where the model is drawn, and
 * its button says, in one line, that the run needs the desktop.
 */
async function theModelStep(last: Frame): Promise<void> {
  await takeNext(page, last, STORY[STORY.length - 1].file);
  const frame = await attentionFrame(page, 60_000, async (f) => (await panelShows(f)).file === MODEL_STEP.file);
  await waitForState(frame, 'error', 30_000);
  const status = await poll('the panel saying where the model is drawn', async () => {
    const t = await frame.$eval('#attention-root', (r) => r.textContent ?? '');
    return /This is a model spec/.test(t) ? t : undefined;
  }, 20_000);
  assert.match(status, /it runs models\/induction-gpt2 \(line \d+, column \d+\) on its text/);
  await page.screenshot({ path: stepShot('web-story', STORY.length + 1, MODEL_STEP.file) });
  await page.keyboard.press('Control+2');
  await sleep(300);
  await tabTo(page, frame, '"Open the model editor"', (t) => t === 'Open the model editor');
  await page.keyboard.press('Enter');
  const said = await poll('the one line the web says for a model run', async () => {
    const t = await toasts(page);
    return /not available in VS Code for the Web/.test(t) ? t : undefined;
  }, 30_000);
  assert.match(said, /Attention Lens: a model spec runs a checkpoint, which is not available in VS Code for the Web yet: open this folder in VS Code on the desktop for it\./);
  await page.screenshot({ path: path.join(RESULTS, 'web-story-model-on-the-web.png') });
}
