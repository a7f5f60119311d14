// Screenshots of the model editor's analyses in a real VS Code (code-server + Chromium), as a user
// sees them: the logit lens, attribution and patching of examples/induction-attribution.attn.json,
// its grid with the norms on and with head 2.1 ablated, the next tokens after that ablation, a step
// of a generating run, induction-gpt2's grid and head with the norms on, and the spec panel's matrix
// in norms mode; in light, dark and high contrast, with the view about 430, 700 and 1,300 px wide.
// `npm run screenshots:analyses` writes test-results/analyses-<theme>-<width>-<what>.png; look at
// them. ATTN_SHOTS_THEMES=dark,hc and ATTN_SHOTS_WIDTHS=430 pick some.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import {
  installVsix, launchChromium, makeExampleWorkspace, makeUserDataDir, ROOT, startCodeServer, tempDir, workbenchUrl,
} from './vscode/code-server.mjs';
import { endShots, runShots } from './shots-session.js';
import { attentionFrame, chooseView, pickColorTheme, poll, quickOpen, runCommand, waitForState, waitForWorkbench } from '../test/e2e/workbench.js';

const RESULTS = path.join(ROOT, 'test-results');
const VSIX = process.env.ATTN_VSIX || path.join(ROOT, 'attention-lens.vsix');
const THEMES = [
  { name: 'light', theme: 'Light Modern' },
  { name: 'dark', theme: 'Dark Modern' },
  { name: 'hc', theme: 'Dark High Contrast' },
].filter((t) => !process.env.ATTN_SHOTS_THEMES || process.env.ATTN_SHOTS_THEMES.split(',').includes(t.name));
/** The webview's width (px), not the window's: the window is sized until the view has it. */
const WIDTHS = [430, 700, 1300].filter((w) => !process.env.ATTN_SHOTS_WIDTHS || process.env.ATTN_SHOTS_WIDTHS.split(',').includes(String(w)));
const HEIGHT = 900;

/** A generating run of the induction model (generation does not go with patching). */
const GENERATE_SPEC = {
  title: 'The induction model writes on',
  model: 'models/induction-gpt2',
  text: 'The cat sat on the mat. The cat',
  target: ' sat',
  contrast: ' mat',
  generate: 4,
};

/** The frame holding the model page's #model-root, optionally the one that `accept`s. */
async function modelFrame(page: Page, accept?: (f: Frame) => Promise<boolean>): Promise<Frame> {
  return poll('the model page (a frame with #model-root)', async () => {
    for (const f of page.frames()) {
      if (!(await f.$('#model-root').catch(() => null))) continue;
      if (accept && !(await accept(f).catch(() => false))) continue;
      return f;
    }
    return undefined;
  }, 90_000);
}

async function settle(frame: Frame): Promise<void> {
  await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Waits for the model page to show `view`, drawn (not a 'computing…' line), then two frames more. */
async function modelView(frame: Frame, view: string, also?: (f: Frame) => Promise<boolean>): Promise<void> {
  const current = await frame.$eval('#model-root', (el) => (el as HTMLElement).dataset.view);
  if (current !== view) await frame.selectOption('select[data-control="view"]', view);
  await poll(`the model page drawing ${view}`, async () => {
    const ok = await frame.$eval('#model-root', (el) => {
      const r = el as HTMLElement;
      const stage = r.querySelector('.model-stage')?.textContent ?? '';
      return r.dataset.state === 'ready' && !/computing|loading…|running/i.test(stage) ? r.dataset.view : undefined;
    });
    return ok === view && (!also || await also(frame));
  }, 90_000);
  await settle(frame);
}

/** The webview's iframe as the page lays it out. */
async function webviewWidth(page: Page): Promise<number> {
  return poll('the webview iframe', async () => {
    const boxes = await page.$$eval('iframe.webview', (els) => els.map((e) => e.getBoundingClientRect()).filter((b) => b.width > 0).map((b) => b.width));
    return boxes.length ? Math.max(...boxes) : undefined;
  }, 20_000);
}

/** Sizes the window until the webview beside the spec is `width` px wide (give or take a few). */
async function fitWebview(page: Page, width: number): Promise<number> {
  let shown = await webviewWidth(page);
  for (let i = 0; i < 4 && Math.abs(shown - width) > 6; i++) {
    const now = page.viewportSize()!;
    await page.setViewportSize({ width: Math.max(360, Math.round(now.width + (width - shown) * 2)), height: HEIGHT });
    await page.waitForTimeout(400); // the workbench lays out again on the window's resize event
    shown = await webviewWidth(page);
  }
  return shown;
}

async function main(): Promise<string[]> {
  fs.mkdirSync(RESULTS, { recursive: true });
  const extensionsDir = tempDir('shots-extensions');
  installVsix(VSIX, extensionsDir);
  const server = await startCodeServer({ extensionsDir, userDataDir: makeUserDataDir({ 'workbench.colorTheme': 'Dark Modern' }), logFile: path.join(RESULTS, 'shots-analyses-server.log') });
  const browser = await launchChromium();
  const made: string[] = [];
  try {
    for (const t of THEMES) {
      for (const width of WIDTHS) {
        const page = await browser.newPage({ viewport: { width: 2 * width + 400, height: HEIGHT } });
        const folder = makeExampleWorkspace();
        fs.writeFileSync(path.join(folder, 'induction-generate.attn.json'), JSON.stringify(GENERATE_SPEC, null, 2));
        await page.goto(workbenchUrl(server.base, { folder }));
        await waitForWorkbench(page);
        // The theme list is slow to fill on a busy machine: a second try rather than no pictures.
        await pickColorTheme(page, t.theme).catch(async () => { await page.keyboard.press('Escape'); await pickColorTheme(page, t.theme); });
        let shownWidth = width;
        const shoot = async (what: string) => {
          const file = path.join(RESULTS, `analyses-${t.name}-${width}-${what}.png`);
          await page.screenshot({ path: file });
          made.push(file);
          console.log(`${file} (view ${Math.round(shownWidth)} px)`);
        };
        const open = async (spec: string): Promise<Frame> => {
          await quickOpen(page, spec);
          await runCommand(page, 'Show Attention');
          const frame = await modelFrame(page, async (f) => (await f.$eval('#model-root', (el) => (el as HTMLElement).dataset.state)) === 'ready');
          shownWidth = await fitWebview(page, width);
          return frame;
        };
        const closeAll = async () => {
          await runCommand(page, 'View: Close All Editors');
          await poll('editors closed', async () => (await page.locator('.tabs-container .tab').count()) === 0 || undefined, 10_000).catch(() => {});
        };

        // The attribution example: lens, attribution, patching; the grid with norms, then with 2.1 ablated; next.
        let frame = await open('induction-attribution.attn.json');
        await modelView(frame, 'logit-lens');
        await shoot('attribution-logit-lens');
        await modelView(frame, 'attribution');
        await shoot('attribution-attribution');
        await modelView(frame, 'patching');
        await shoot('attribution-patching');
        await modelView(frame, 'model');
        await frame.click('button[data-control="norms"]');
        await modelView(frame, 'model', async (f) => (await f.getAttribute('button[data-control="norms"]', 'aria-pressed')) === 'true');
        await shoot('attribution-grid-norms');
        await frame.click('button[data-control="norms"]');
        await modelView(frame, 'model', async (f) => (await f.getAttribute('button[data-control="norms"]', 'aria-pressed')) === 'false');
        await frame.click('g.head-cell[data-layer="1"][data-head="0"]', { button: 'right', force: true });
        const ablated = async (f: Frame) => /Restore all \(1\)/.test(await f.locator('button[data-control="restore-all"]').innerText());
        await modelView(frame, 'model', ablated);
        await shoot('attribution-grid-ablated-2.1');
        await modelView(frame, 'next', ablated);
        await shoot('attribution-next-ablated-2.1');
        await closeAll();

        // A generating run: the slider one step back from the end.
        frame = await open('induction-generate.attn.json');
        await modelView(frame, 'next', async (f) => (await f.locator('input[data-control="step"]').count()) > 0);
        await shoot('generate-next-last');
        await frame.focus('input[data-control="step"]');
        await frame.press('input[data-control="step"]', 'ArrowLeft');
        await modelView(frame, 'next', async (f) => /^3 of 4/.test(await f.locator('.step-says').innerText()));
        await shoot('generate-next-step-3');
        await modelView(frame, 'model');
        await shoot('generate-grid-step-3');
        await closeAll();

        // The induction example: its grid and head 2.1 with the norms on.
        frame = await open('induction-gpt2.attn.json');
        await modelView(frame, 'model');
        await frame.click('button[data-control="norms"]');
        await modelView(frame, 'model', async (f) => (await f.getAttribute('button[data-control="norms"]', 'aria-pressed')) === 'true');
        await shoot('induction-grid-norms');
        await frame.$eval('input[data-control="layer"]', (el) => { (el as HTMLInputElement).value = '2'; el.dispatchEvent(new Event('change')); });
        await modelView(frame, 'head', async (f) => (await f.$eval('#model-root', (el) => (el as HTMLElement).querySelector('svg, canvas') !== null)));
        await shoot('induction-head-2.1-norms');
        await closeAll();

        // The spec panel's matrix in norms mode (a spec with W_O).
        await quickOpen(page, 'multi-head-causal.attn.json');
        await runCommand(page, 'Show Attention');
        const panel = await attentionFrame(page, 60_000);
        shownWidth = await fitWebview(page, width);
        await waitForState(panel, 'ready', 60_000); // its tabs are drawn with the spec, not before
        await chooseView(panel, 'matrix');
        await waitForState(panel, 'ready');
        await panel.selectOption('select[data-control="mode"]', 'norms');
        await waitForState(panel, 'ready');
        await settle(panel);
        await shoot('spec-matrix-norms');
        await closeAll();
        await page.close();
      }
    }
  } finally {
    await endShots(browser, server);
  }
  return made;
}

runShots(main, RESULTS);
