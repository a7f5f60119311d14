// A notebook in code-server, as a user opens it: examples/attention-in-a-notebook.ipynb, whose output
// cell holds what attention_lens.show() returned (saved in the file: no kernel runs), is drawn by the
// extension's notebook renderer: the grid of its 2 × 4 heads is painted in the output, hovering a cell
// of a head gives its exact weight (the payload's float32, as the file holds it), and Open in
// Attention Lens opens the full model editor on the cell's data beside the notebook.
// Run by `npm run test:e2e` (scripts/vscode/run-e2e.mjs), which packages the .vsix first.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser, Frame, Page } from 'playwright-core';
import {
  installVsix, launchChromium, makeExampleWorkspace, makeUserDataDir, removeTempDirs, ROOT, startCodeServer, tail, tempDir, workbenchUrl,
  type CodeServer,
} from '../../scripts/vscode/code-server.mjs';
import { poll, quickOpen, waitForWorkbench, RESULTS, VSIX } from './workbench.js';
import { exactWeight } from '../../webview/views/model/head.js';

const NOTEBOOK = 'attention-in-a-notebook.ipynb';
const MIME = 'application/vnd.attention-lens.v1+json';

let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;
let output: Frame;

/** The payload saved in the notebook's output cell, and weight (layer, head, query, key) of it. */
function saved() {
  const nb = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', NOTEBOOK), 'utf8')) as { cells: { outputs?: { data: Record<string, unknown> }[] }[] };
  const payload = nb.cells.flatMap((c) => c.outputs ?? []).map((o) => o.data[MIME]).find(Boolean) as { shape: number[]; data: string };
  const bytes = Buffer.from(payload.data, 'base64');
  const values = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const [, heads, n] = payload.shape;
  return { shape: payload.shape, weight: (l: number, h: number, i: number, j: number) => values[((l * heads + h) * n + i) * n + j] };
}

/** The frame of the notebook's webview that holds our output, drawn (its app's root ready). */
async function outputFrame(timeoutMs = 60_000): Promise<Frame> {
  return poll('the notebook output drawn by Attention Lens (a frame with .al-notebook-root[data-state=ready])', async () => {
    for (const f of page.frames()) {
      const root = await f.$('.al-notebook-root[data-state="ready"]').catch(() => null);
      if (root) return f;
    }
    return undefined;
  }, timeoutMs);
}

async function shot(name: string): Promise<void> {
  fs.mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: path.join(RESULTS, `e2e-notebook-${name}.png`) });
}

describe('a notebook output drawn by the Attention Lens renderer in code-server', { timeout: 600_000 }, () => {
  before(async () => {
    assert.ok(fs.existsSync(VSIX), `${VSIX} exists (npm run package makes it)`);
    const workspace = makeExampleWorkspace();
    const extensionsDir = tempDir('e2e-notebook-extensions');
    installVsix(VSIX, extensionsDir);
    server = await startCodeServer({ extensionsDir, userDataDir: makeUserDataDir({ 'workbench.colorTheme': 'Default Light Modern', 'files.autoSave': 'off' }), logFile: path.join(RESULTS, 'e2e-notebook-server.log') });
    if (process.env.ATTN_E2E_PIDS) fs.appendFileSync(process.env.ATTN_E2E_PIDS, `${server.pid}\n`);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
    await page.goto(workbenchUrl(server.base, { folder: workspace }));
    await waitForWorkbench(page);
  });

  afterEach(async (t) => {
    const name = (t as unknown as { name: string }).name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
    if (page && !page.isClosed()) await shot(`after-${name}`).catch(() => {});
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    if (!process.env.ATTN_KEEP_TEMP) removeTempDirs();
    if (server) console.log(`code-server log (tail):\n${tail(server.logFile, 5)}`);
  });

  it('opens the notebook and paints the grid of every head in the output cell', async () => {
    await quickOpen(page, NOTEBOOK);
    output = await outputFrame();
    const [layers, heads] = saved().shape;
    const painted = await poll('one painted thumbnail per head', async () => {
      // A painted cell's viewport points at its layer's picture, a PNG defined in the same SVG.
      const count = await output.$$eval('.al-notebook-root g.head-cell', (cells) => cells.filter((c) => {
        const ref = c.querySelector('svg.thumbnail use')?.getAttribute('href');
        const picture = ref ? c.closest('svg')?.querySelector(`defs image[id="${ref.slice(1)}"]`) : undefined;
        return !!picture?.getAttribute('href')?.startsWith('data:image/png;base64,');
      }).length);
      return count === layers * heads ? count : undefined;
    }, 20_000);
    assert.equal(painted, 8);
    assert.equal(await output.$eval('.al-notebook-root', (el) => el.getAttribute('data-view')), 'model');
  });

  it('hovering a cell of a head gives its exact weight', async () => {
    const view = output.locator('.al-notebook-root select[data-control="view"]');
    await view.selectOption('head');
    // Layer 1 head 1 (counted from 1 on screen): the previous-token head; query 8 ("The") on key 7 (".").
    const cell = '.al-notebook-root rect.cell[data-i="7"][data-j="6"]';
    await poll('the head view drawn cell by cell', () => output.$(cell), 15_000);
    await output.hover(cell, { force: true });
    const want = `weight ${exactWeight(saved().weight(0, 0, 7, 6))}`;
    const text = await poll(`the tooltip to say "${want}"`, async () => {
      const t = await output.$eval('.al-notebook-tip', (el) => (el.hasAttribute('hidden') ? '' : (el.textContent ?? '')));
      if (t.includes(want)) return t;
      // The view may have been drawn again under a still pointer (its new cell got no mouseover): point again.
      await output.hover('.al-notebook-root', { position: { x: 1, y: 1 }, force: true });
      await output.hover(cell, { force: true });
      return undefined;
    }, 30_000);
    assert.ok(text.includes(want), text);
  });

  it('Open in Attention Lens shows the cell\'s data in the model views beside the notebook', async () => {
    await output.click('.al-notebook button.al-notebook-open');
    const status = await poll('the cell to say the editor opened', async () => {
      const t = await output.$eval('.al-notebook-status', (el) => el.textContent ?? '');
      return /^(Opened|Not opened)/.test(t) ? t : undefined;
    }, 30_000);
    assert.equal(status, 'Opened in Attention Lens, beside the notebook');
    const editor = await poll('the model editor\'s webview, every head drawn', async () => {
      for (const f of page.frames()) {
        const root = await f.$('#model-root[data-state="ready"][data-view="model"]').catch(() => null);
        if (!root) continue;
        const heads = await f.$$eval('#model-root g.head-cell', (els) => els.length);
        if (heads === 8) return f;
      }
      return undefined;
    }, 60_000);
    assert.ok(editor);
  });
});
