// `npm start` as a newcomer runs it: the README promises that it opens VS Code with a scratch copy of the examples and the
// Apple-watch panel painted. Without a desktop `code` (here, and on CI) it starts code-server and prints a
// URL; this opens that URL in Chromium and waits for the painted panel, then ends the whole process group.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { freePort, killGroup, launchChromium, ROOT } from '../../scripts/vscode/code-server.mjs';
import { attentionFrame, drawnTexts, poll, waitForState, waitForWorkbench, RESULTS } from './workbench.js';

let child: ChildProcess | undefined;
let browser: Browser | undefined;

after(async () => {
  await browser?.close().catch(() => {});
  if (child?.pid) await killGroup(child.pid);
});

describe('npm start', { timeout: 300_000 }, () => {
  it('prints a URL where VS Code shows a scratch copy of examples/ with the Apple-watch panel painted', async () => {
    const port = await freePort();
    let output = '';
    child = spawn('npm', ['start', '--silent'], {
      cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
      // ATTN_START_WEB: code-server even where a desktop `code` is installed; BROWSER=none: open nothing ourselves.
      env: { ...process.env, PORT: String(port), ATTN_START_WEB: '1', BROWSER: 'none' },
    });
    if (process.env.ATTN_E2E_PIDS && child.pid) fs.appendFileSync(process.env.ATTN_E2E_PIDS, `${child.pid}\n`);
    child.stdout?.on('data', (d) => { output += d; });
    child.stderr?.on('data', (d) => { output += d; });
    const url = await poll('npm start to print the URL to open', async () => {
      if (child?.exitCode !== null) throw new Error(`npm start exited (${child?.exitCode}):\n${output}`);
      return new RegExp(`http://127\\.0\\.0\\.1:${port}/\\S*`).exec(output)?.[0];
    }, 180_000);
    // The scratch copy of the examples, never the tracked examples/ the extension ships.
    const folder = new URL(url).searchParams.get('folder');
    assert.equal(folder, path.join(ROOT, '.scratch', 'examples'), `the scratch copy of the examples is opened: ${url}`);

    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(url);
    await waitForWorkbench(page);
    const frame = await attentionFrame(page, 90_000, async (f) => (await drawnTexts(f)).some((t) => t.includes('I love Apple watch')));
    await waitForState(frame, 'ready', 30_000);
    assert.ok((await frame.$$eval('#attention-root svg', (svgs) => svgs.length)) > 0, 'the panel drew a picture');
    await page.locator('.tabs-container .tab', { hasText: 'apple-watch-lens.attn.json' }).first().waitFor({ timeout: 10_000 });
    fs.mkdirSync(RESULTS, { recursive: true });
    await page.screenshot({ path: path.join(RESULTS, 'e2e-npm-start.png') });
  });
});
