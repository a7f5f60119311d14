// The seeds' story, walked with the keyboard alone in code-server, as a learner would: the
// walkthrough (Welcome: Open Walkthrough…) opens its first step's example, then the panel's
// "Next: …" link, reached by Tab and taken with Enter, leads through every example of the story in
// order, each opening on the view its "open" names. At each step the panel is about 626 px wide
// (the default beside the editor); a screenshot is written to test-results/story-NN-<example>.png
// and the step's own numbers (136 and 64, 3,145,728, step 0, …) are asserted on the picture; the last
// Next opens the induction head's model spec, whose run (" sat" next, the last " cat" → " sat" ≥ 0.999)
// the model editor draws. The steps and the walk are story-steps.ts, shared with the web walk
// (web-story.e2e.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  installVsix, launchChromium, makeUserDataDir, removeTempDirs, startCodeServer, tempDir, workbenchUrl, type CodeServer,
} from '../../scripts/vscode/code-server.mjs';
import { waitForWorkbench, RESULTS, VSIX } from './workbench.js';
import { assertModelRun, modelRunFrame, MODEL_STEP, panelsShown, STORY, stepShot, takeNext, walkSpecSteps } from './story-steps.js';

let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;

describe('the story, walked with the keyboard alone', { timeout: 600_000 }, () => {
  before(async () => {
    assert.ok(fs.existsSync(VSIX), `${VSIX} exists (npm run package makes it)`);
    const workspace = tempDir('story-workspace');
    fs.writeFileSync(path.join(workspace, 'README.md'), 'a workspace for the story\n');
    const extensionsDir = tempDir('story-extensions');
    installVsix(VSIX, extensionsDir);
    server = await startCodeServer({ extensionsDir, userDataDir: makeUserDataDir({ 'workbench.colorTheme': 'Default Dark Modern', 'files.autoSave': 'off' }), logFile: path.join(RESULTS, 'story-server.log') });
    if (process.env.ATTN_E2E_PIDS) fs.appendFileSync(process.env.ATTN_E2E_PIDS, `${server.pid}\n`);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    await page.goto(workbenchUrl(server.base, { folder: workspace }));
    await waitForWorkbench(page);
    // The sidebar closed (Ctrl+B), so the editor and the panel share the window.
    await page.keyboard.press('Control+B');
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    if (!process.env.ATTN_KEEP_TEMP) removeTempDirs();
  });

  it('the walkthrough opens the first example; Next, by Tab and Enter, reaches every step of the story in order', async () => {
    fs.mkdirSync(RESULTS, { recursive: true });
    let widths: number[];
    try {
      let last;
      ({ widths, last } = await walkSpecSteps(page, 'story'));
      // The induction head: Next opens its model spec, which runs beside the panel in the model editor.
      await takeNext(page, last, STORY[STORY.length - 1].file);
      const run = await assertModelRun(await modelRunFrame(page), stepShot('story', STORY.length + 1, MODEL_STEP.file));
      console.log(`the induction head: next token "${run.next}", the last " cat" → "${MODEL_STEP.next}" ${run.weight}`);
    } catch (e) {
      // What was on screen, and what each panel showed, beside the failure.
      await page.screenshot({ path: path.join(RESULTS, 'story-failed.png') }).catch(() => {});
      throw new Error(`${(e as Error).message}; panels: ${await panelsShown(page)}`);
    }
    console.log(`panel widths along the story: ${widths.join(', ')} px`);
    widths = widths.filter((w) => w > 0);
    assert.ok(widths.every((w) => w >= 560 && w <= 700), `the panel is about 626 px wide at every step (${widths.join(', ')})`);
  });
});
