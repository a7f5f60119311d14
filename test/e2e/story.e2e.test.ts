// The seeds' story, walked with the keyboard alone in code-server, as a learner would: the
// walkthrough (Welcome: Open Walkthrough…) opens its first step's example, then the panel's
// "Next: …" link, reached by Tab and taken with Enter, leads through every example of the story in
// order, each opening on the view its "open" names. At each step the panel is about 626 px wide
// (the default beside the editor); a screenshot is written to test-results/story-NN-<example>.png
// and the step's own numbers (136 and 64, 3,145,728, step 0, …) are asserted on the picture.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame, Page } from 'playwright-core';
import {
  installVsix, launchChromium, makeUserDataDir, removeTempDirs, startCodeServer, tempDir, workbenchUrl, type CodeServer,
} from '../../scripts/vscode/code-server.mjs';
import { attentionFrame, drawnTexts, poll, runCommand, sleep, waitForState, waitForWorkbench, RESULTS, VSIX } from './workbench.js';


/** The story in order: each example, the view it opens on, and what its picture must show. */
const STORY: { file: string; view: string; shows: RegExp[] }[] = [
  { file: 'apple-watch-raw.attn.json', view: 'matrix', shows: [/0\.999/] },
  { file: 'apple-watch-lens.attn.json', view: 'matrix', shows: [/^136$/, /^64$/] },
  { file: 'seed-projection-512-64.attn.json', view: 'projection', shows: [/512/, /64/] },
  { file: 'apple-watch-geometry.attn.json', view: 'geometry', shows: [/θ/, /136/] },
  { file: 'mouse-two-contexts.attn.json', view: 'compare', shows: [/mouse/] },
  { file: 'learn-apple-watch.attn.json', view: 'training', shows: [/step 0\b/] },
  { file: 'learn-value.attn.json', view: 'training', shows: [/step 0\b/] },
  { file: 'spectrum-stretch-shear-rotate.attn.json', view: 'spectrum', shows: [/W_Q/] },
  { file: 'heads-same-and-different-subspaces.attn.json', view: 'heads', shows: [/subspace/] },
  { file: 'covariance-redundant-features.attn.json', view: 'covariance', shows: [/is_fruit/] },
  { file: 'init-four-rules.attn.json', view: 'init', shows: [/LeCun|Xavier|He/] },
];

let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;

/** The spec the panel shows and its selected view, as its root and tab say. */
async function panelShows(f: Frame): Promise<{ file: string | null; view: string | null }> {
  return f.$eval('#attention-root', (root) => ({
    file: root.getAttribute('data-file-name'),
    view: root.querySelector('.al-tab[aria-selected="true"]')?.getAttribute('data-view') ?? null,
  }));
}

/** Presses `key` (Tab, or Shift+Tab to go back) until `accept` holds for the text of the element focused in `where`; fails after `max` presses. */
async function tabTo(where: Page | Frame, what: string, accept: (text: string) => boolean, max = 80, key = 'Tab'): Promise<void> {
  for (let i = 0; i < max; i++) {
    const text = await where.evaluate(() => (document.activeElement?.textContent ?? '').trim());
    if (accept(text)) return;
    await page.keyboard.press(key);
    await sleep(40);
  }
  throw new Error(`Tab never reached ${what} in ${max} presses`);
}

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
    try {
      await walk();
    } catch (e) {
      // What was on screen, and what each panel showed, beside the failure.
      await page.screenshot({ path: path.join(RESULTS, 'story-failed.png') }).catch(() => {});
      const shown = await Promise.all(page.frames().map((f) => f.$eval('#attention-root', (r) => `${r.getAttribute('data-file-name')} (${r.getAttribute('data-state')})`).catch(() => undefined)));
      throw new Error(`${(e as Error).message}; panels: ${shown.filter(Boolean).join(', ') || 'none'}`);
    }
  });
});

async function walk(): Promise<void> {
  {
    await runCommand(page, 'Welcome: Open Walkthrough...');
    const input = page.locator('.quick-input-widget input[type="text"], .quick-input-widget .quick-input-box input').first();
    await input.fill('Attention Lens');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Attention Lens' }).first().waitFor({ timeout: 15_000 });
    await sleep(300);
    await page.keyboard.press('Enter');
    await page.locator('.gettingStartedContainer').first().waitFor({ timeout: 20_000 });
    await tabTo(page, 'the first step\'s "Open the example"', (t) => t === 'Open the example');
    await page.keyboard.press('Enter');
    let widths: number[] = [];
    for (const [k, step] of STORY.entries()) {
      const frame = await attentionFrame(page, 60_000, async (f) => (await panelShows(f)).file === step.file);
      await waitForState(frame, 'ready', 30_000);
      await poll(`${step.file} on its ${step.view} view`, async () => (await panelShows(frame)).view === step.view || undefined, 20_000);
      const texts = await poll(`${step.file}'s picture showing ${step.shows.join(', ')}`, async () => {
        const t = await drawnTexts(frame);
        return step.shows.every((re) => t.some((x) => re.test(x))) ? t : undefined;
      }, 20_000);
      assert.ok(texts.length > 0);
      widths.push(await frame.evaluate(() => window.innerWidth));
      await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: path.join(RESULTS, `story-${String(k + 1).padStart(2, '0')}-${step.file.replace('.attn.json', '')}.png`) });
      if (k === STORY.length - 1) break;
      // Into the panel (the second editor group: the focus lands in its view), then back with
      // Shift+Tab over the view's controls to the Next button above them, and Enter.
      await page.keyboard.press('Control+2');
      await sleep(300);
      await tabTo(frame, `"Next:" in ${step.file}`, (t) => /^Next\b/.test(t), 80, 'Shift+Tab');
      await page.keyboard.press('Enter');
    }
    console.log(`panel widths along the story: ${widths.join(', ')} px`);
    widths = widths.filter((w) => w > 0);
    assert.ok(widths.every((w) => w >= 560 && w <= 700), `the panel is about 626 px wide at every step (${widths.join(', ')})`);
  }
}
