// End to end, as a user: the packaged attention-lens.vsix installed into code-server
// (VS Code 1.100.3 web), driven in Debian's Chromium through playwright-core.
// Run by `npm run test:e2e` (scripts/vscode/run-e2e.mjs), which packages the .vsix first.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser, Dialog, Frame, Page } from 'playwright-core';
import {
  installVsix, launchChromium, makeExampleWorkspace, makeUserDataDir, removeTempDirs, ROOT, startCodeServer, tail, tempDir, workbenchUrl,
  type CodeServer,
} from '../../scripts/vscode/code-server.mjs';
import {
  attentionFrame, chooseView, drawnTexts, hoverMatrixCell, poll, problemsPanelText, quickOpen, rootState, runCommand,
  pickColorTheme, sleep, waitForState, waitForWorkbench,
} from './workbench.js';

const VSIX = process.env.ATTN_VSIX || path.join(ROOT, 'attention-lens.vsix');
const RESULTS = path.join(ROOT, 'test-results');
const SPEC = 'apple-watch-lens.attn.json';
const XSS_TOKEN = '<img src=x onerror=alert(1)>';
const XSS_SPEC = 'xss-token.attn.json';

let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;
let workspace: string;
let frame: Frame;
const dialogs: string[] = [];
const timings: Record<string, number> = {};

function specPath(name = SPEC): string {
  return path.join(workspace, name);
}

/** Edits the spec on disk, as another editor or `git checkout` would; the open editor follows. */
function editSpec(from: string, to: string, name = SPEC): void {
  const text = fs.readFileSync(specPath(name), 'utf8');
  assert.ok(text.includes(from), `"${from}" is in ${name}`);
  fs.writeFileSync(specPath(name), text.replace(from, to));
}

/** The drawn view as markup: its numbers, colours and shapes. */
async function svgMarkup(f: Frame): Promise<string> {
  return f.$$eval('#attention-root svg.attention-view, #attention-root svg[data-view]',
    (svgs) => svgs.map((svg) => new XMLSerializer().serializeToString(svg)).join('\n'));
}

async function shot(name: string): Promise<void> {
  fs.mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: path.join(RESULTS, `e2e-${name}.png`) });
}

describe('Attention Lens installed from the .vsix into code-server', { timeout: 600_000 }, () => {
  before(async () => {
    assert.ok(fs.existsSync(VSIX), `${VSIX} exists (npm run package makes it)`);
    workspace = makeExampleWorkspace();
    fs.writeFileSync(path.join(workspace, XSS_SPEC), JSON.stringify({
      title: 'A token that looks like markup',
      embeddings: { [XSS_TOKEN]: [1, 0], safe: [0, 1] },
      inputs: [{ name: 'markup', tokens: [XSS_TOKEN, 'safe'] }],
    }, null, 2));
    const extensionsDir = tempDir('e2e-extensions');
    const t0 = Date.now();
    installVsix(VSIX, extensionsDir);
    timings['install .vsix'] = Date.now() - t0;
    server = await startCodeServer({ extensionsDir, userDataDir: makeUserDataDir({ 'workbench.colorTheme': 'Default Light Modern' }), logFile: path.join(RESULTS, 'e2e-server.log') });
    if (process.env.ATTN_E2E_PIDS) fs.appendFileSync(process.env.ATTN_E2E_PIDS, `${server.pid}\n`);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
    page.on('dialog', (d: Dialog) => { dialogs.push(`${d.type()}: ${d.message()}`); void d.dismiss(); });
    const t1 = Date.now();
    await page.goto(workbenchUrl(server.base, { folder: workspace }));
    await waitForWorkbench(page);
    timings['workbench up'] = Date.now() - t1;
  });

  afterEach(async (t) => {
    // A picture of the moment a test failed, next to its message.
    const name = (t as unknown as { name: string }).name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
    if (page && !page.isClosed()) await shot(`after-${name}`).catch(() => {});
  });

  after(async () => {
    if (page && !page.isClosed()) await shot('last').catch(() => {});
    await browser?.close().catch(() => {});
    await server?.stop();
    if (!process.env.ATTN_KEEP_TEMP) removeTempDirs();
    for (const [k, v] of Object.entries(timings)) console.log(`timing: ${k}: ${v} ms`);
    if (server) console.log(`code-server log (tail):\n${tail(server.logFile, 5)}`);
  });

  it('opens the Apple-watch example through Quick Open', async () => {
    await quickOpen(page, SPEC);
    const tab = page.locator('.tabs-container .tab.active');
    assert.match(await tab.innerText(), /apple-watch-lens\.attn\.json/);
  });

  it('"Show Attention" from the command palette opens the panel, which shows every token', async () => {
    const t0 = Date.now();
    await runCommand(page, 'Show Attention');
    frame = await attentionFrame(page, 30_000);
    await waitForState(frame, 'ready', 30_000);
    await poll('a drawn view (svg) in the panel', () => frame.$('#attention-root svg'));
    timings['Show Attention -> painted panel (from outside)'] = Date.now() - t0;
    const texts = await drawnTexts(frame);
    for (const token of ['i', 'love', 'apple', 'watch']) {
      assert.ok(texts.some((t) => t.toLowerCase() === token), `the token "${token}" is drawn; texts: ${texts.slice(0, 40).join(' | ')}`);
    }
    await shot('panel');
  });

  it('the matrix view of head "tech lens" shows 136 for watch → apple on hover', async () => {
    await chooseView(frame, 'matrix');
    await poll('the matrix view', () => frame.$('#attention-root svg[data-view="matrix"], #attention-root .cell[data-query]'));
    const tip = await hoverMatrixCell(frame, 'tech lens', 3, 2); // input 0: i love apple watch; watch=3, apple=2
    assert.match(tip, /\b136\b/, `tooltip: ${tip}`);
    await shot('matrix-hover');
  });

  it('changing a number in the spec changes the picture', async () => {
    const svgBefore = await svgMarkup(frame);
    // tech lens W_Q from [[4, 3], [2, 1], [0, 1]] to [[5, 3], [2, 1], [0, 2]]:
    // q(watch) = [11, 6] and k(apple) = [10, 6] give 146; q(i) = [0, 1] moves row "i" visibly.
    editSpec('"wq": [[4, 3], [2, 1], [0, 1]]', '"wq": [[5, 3], [2, 1], [0, 2]]');
    await poll('the panel to redraw with the new numbers', async () =>
      (await rootState(frame)) === 'ready' && (await svgMarkup(frame)) !== svgBefore, 20_000);
    const tip = await hoverMatrixCell(frame, 'tech lens', 3, 2);
    assert.match(tip, /\b146\b/, `tooltip after the edit: ${tip}`);
    assert.doesNotMatch(tip, /\b136\b/);
  });

  it('a broken spec shows in Problems and puts the panel in its error state; fixing it recovers', async () => {
    editSpec('"apple", "watch"] }', '"apple", "wtch"] }');
    await waitForState(frame, 'error', 20_000);
    const listed = await poll('#attention-problems to list the problem', async () => {
      const text = await frame.$eval('#attention-problems', (el) => el.textContent ?? '').catch(() => '');
      return /wtch/.test(text) ? text : undefined;
    });
    assert.match(listed, /unknown token/);
    const problems = await poll('the Problems panel to list the unknown token', async () => {
      const text = await problemsPanelText(page);
      return /unknown token "wtch"/.test(text) ? text : undefined;
    });
    assert.match(problems, /apple-watch-lens\.attn\.json/);
    await shot('error-state');
    editSpec('"apple", "wtch"] }', '"apple", "watch"] }');
    await waitForState(frame, 'ready', 20_000);
  });

  it('a token written as markup is shown as text and runs no script', async () => {
    await quickOpen(page, XSS_SPEC);
    await runCommand(page, 'Show Attention');
    const xss = await attentionFrame(page, 30_000, async (f) => (await drawnTexts(f)).some((t) => t.includes('A token that looks like markup')));
    await waitForState(xss, 'ready', 30_000);
    await chooseView(xss, 'arcs');
    await waitForState(xss, 'ready');
    const texts = await drawnTexts(xss);
    // Drawn as its characters (a label may clip it with "…"): text starting "<img", never an element.
    const drawn = texts.filter((t) => t.startsWith('<img') && XSS_TOKEN.startsWith(t.replace(/…$/, '')));
    assert.ok(drawn.length > 0, `the token is drawn as text; texts: ${texts.join(' | ')}`);
    assert.equal(await xss.$$eval('#attention-root img', (els) => els.length), 0, 'no <img> element was made from the token');
    await sleep(1000); // give an injected handler the time it would need
    assert.deepEqual(dialogs, [], 'no dialog opened');
  });

  it('renders in light, dark and high-contrast themes (screenshots in test-results/)', async () => {
    await quickOpen(page, SPEC);
    await runCommand(page, 'Show Attention');
    frame = await attentionFrame(page, 30_000, async (f) => (await drawnTexts(f)).some((t) => t.includes('I love Apple watch')));
    await waitForState(frame, 'ready');
    const themes = [
      { name: 'light', theme: 'Light Modern', workbench: 'vs', body: 'vscode-light' },
      { name: 'dark', theme: 'Dark Modern', workbench: 'vs-dark', body: 'vscode-dark' },
      { name: 'high-contrast', theme: 'Dark High Contrast', workbench: 'hc-black', body: 'vscode-high-contrast' },
    ];
    const backgrounds: Record<string, string> = {};
    for (const t of themes) {
      await pickColorTheme(page, t.theme);
      await poll(`the workbench to switch to ${t.theme}`, async () =>
        (await page.locator('.monaco-workbench').first().getAttribute('class'))?.split(/\s+/).includes(t.workbench), 20_000);
      await poll(`the webview body to get class ${t.body}`, async () =>
        (await frame.$eval('body', (b) => b.className)).split(/\s+/).includes(t.body), 20_000);
      await waitForState(frame, 'ready');
      await sleep(500); // let the redraw settle before the picture is taken
      backgrounds[t.name] = await frame.$eval('#attention-root svg', (svg) => {
        const bg = svg.querySelector('rect.bg');
        return bg ? getComputedStyle(bg).fill : getComputedStyle(svg).backgroundColor;
      });
      await shot(`theme-${t.name}`);
      assert.ok(fs.statSync(path.join(RESULTS, `e2e-theme-${t.name}.png`)).size > 10_000, 'a real screenshot');
    }
    assert.notEqual(backgrounds.light, backgrounds.dark, `the picture follows the theme: ${JSON.stringify(backgrounds)}`);
  });
});
