// Screenshots of the views in a real VS Code (code-server + Chromium), as a user sees them: every
// example's views in light, dark and high contrast, with the panel narrow (about 700 px) and wide.
// `npm run screenshots` writes test-results/shot-<theme>-<width>-<spec>-<view>.png; look at them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  installVsix, launchChromium, makeExampleWorkspace, makeUserDataDir, removeTempDirs, ROOT, startCodeServer, tempDir, workbenchUrl, killGroup,
} from './vscode/code-server.mjs';
import { attentionFrame, chooseView, drawnTexts, pickColorTheme, poll, quickOpen, runCommand, waitForState, waitForWorkbench } from '../test/e2e/workbench.js';

const RESULTS = path.join(ROOT, 'test-results');
const VSIX = process.env.ATTN_VSIX || path.join(ROOT, 'attention-lens.vsix');
const SHOTS: { spec: string; words: string; views: string[] }[] = [
  { spec: 'apple-watch-lens.attn.json', words: 'I love Apple watch', views: ['arcs', 'matrix', 'steps', 'quadrant', 'projection', 'compare'] },
  { spec: 'mouse-two-contexts.attn.json', words: 'mouse', views: ['quadrant', 'compare'] },
  { spec: 'long-64-tokens-8-heads.attn.json', words: '64', views: ['matrix', 'steps', 'arcs'] },
  { spec: 'learn-apple-watch.attn.json', words: 'Learning the lens', views: ['training'] },
  { spec: 'spectrum-stretch-shear-rotate.attn.json', words: 'What a matrix does', views: ['spectrum', 'geometry'] },
  { spec: 'heads-same-and-different-subspaces.attn.json', words: 'heads', views: ['heads'] },
  { spec: 'covariance-redundant-features.attn.json', words: 'fruit', views: ['covariance', 'init'] },
];
const THEMES = [
  { name: 'dark', theme: 'Dark Modern', widths: [1400, 2400] },
  { name: 'light', theme: 'Light Modern', widths: [1400] },
  { name: 'hc', theme: 'Dark High Contrast', widths: [1400] },
];

async function main(): Promise<void> {
  fs.mkdirSync(RESULTS, { recursive: true });
  const extensionsDir = tempDir('shots-extensions');
  installVsix(VSIX, extensionsDir);
  const server = await startCodeServer({ extensionsDir, userDataDir: makeUserDataDir({ 'workbench.colorTheme': 'Dark Modern' }), logFile: path.join(RESULTS, 'shots-server.log') });
  const browser = await launchChromium();
  try {
    for (const t of THEMES) {
      for (const width of t.widths) {
        const page = await browser.newPage({ viewport: { width, height: 1000 } });
        await page.goto(workbenchUrl(server.base, { folder: makeExampleWorkspace() }));
        await waitForWorkbench(page);
        await pickColorTheme(page, t.theme);
        for (const s of SHOTS) {
          await quickOpen(page, s.spec);
          await runCommand(page, 'Show Attention');
          const frame = await attentionFrame(page, 30_000, async (f) => (await drawnTexts(f)).some((x) => x.includes(s.words)));
          for (const view of s.views) {
            await chooseView(frame, view);
            await waitForState(frame, 'ready');
            await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
            const file = path.join(RESULTS, `shot-${t.name}-${width}-${s.spec.replace('.attn.json', '')}-${view}.png`);
            await page.screenshot({ path: file });
            console.log(file);
          }
          await runCommand(page, 'View: Close All Editors');
          await poll('editors closed', async () => (await page.locator('.tabs-container .tab').count()) === 0 || undefined, 10_000).catch(() => {});
        }
        await page.close();
      }
    }
  } finally {
    await browser.close();
    await killGroup(server.pid);
    removeTempDirs();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
