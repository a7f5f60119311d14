// The web extension (package.json "browser", dist/web/extension.js) in VS Code's web worker extension
// host, in a real browser: code-server's workbench loads this folder as the extension under
// development, and the user setting `remote.extensionKind` gives it the kind `web`, so VS Code runs the
// browser entry in its web worker extension host (no Node there), as vscode.dev would; Running
// Extensions must say "web worker". (The payload's `extensionDevelopmentKind`, which @vscode/test-web
// uses, is not read by this VS Code's web workbench; test-web itself downloads VS Code, which cannot
// happen here.) Then, with the setting gone, the same workbench runs the desktop's `main` entry in
// code-server's Node extension host, and the apple-watch lens panel must draw the same arcs and matrix,
// text for text, in both, with 136 for watch → apple as the desktop test has it. The time from Show
// Attention to the panel's first paint is printed for both, measured in the same run. And a spec that
// names an attention file opens the model editor on it in both hosts (on the web, read through
// workspace.fs and scanned in a nested Web Worker): the grid's statistic of every head, a head's
// tooltip, the head view's cells and an exact weight must be the same, number for number.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame, Page } from 'playwright-core';
import {
  makeExampleWorkspace, makeUserDataDir, ROOT, type CodeServer,
} from '../../scripts/vscode/code-server.mjs';
import { randomAttention, writeSafetensors } from '../support/model-fixture.js';
import { exactWeight } from '../../webview/views/model/head.js';
import {
  attentionFrame, chooseView, drawnTexts, hoverMatrixCell, poll, quickOpen, runCommand, waitForState, RESULTS,
} from './workbench.js';
import { openInHost, outputChannel as channelText, startWorkbenchServer, stopWorkbenchServer, type HostKind } from './web-host.js';

const SPEC = 'apple-watch-lens.attn.json';
type Kind = HostKind;

interface Drawn { arcs: string[]; matrix: string[]; tip: string; paintMs: number }

/** What the model editor shows of the small file: the grid, a head cell's tooltip, the head view's cells and a weight's tooltip. */
interface ModelShown { grid: string[]; gridTip: string; cells: string[]; weightTip: string; texts: string[]; paintMs: number }

/** The small attention file (2 layers × 3 heads × 6 tokens) and the spec that names it, in the workspace. */
const MODEL_SPEC = 'small-model-ref.attn.json';
const MODEL_TOKENS = ['the', 'cat', 'sat', 'on', 'the', 'mat'];
const MODEL_VALUES = randomAttention(2, 3, 6, 11);
/** The weight of query 4 on key 2 in layer 1 head 2 (0-based), as the file holds it. */
const SHOWN_WEIGHT = MODEL_VALUES[((1 * 3 + 2) * 6 + 4) * 6 + 2];

function writeModelFiles(workspace: string): void {
  const folder = path.join(workspace, 'web-model');
  fs.mkdirSync(folder, { recursive: true });
  writeSafetensors(path.join(folder, 'small.safetensors'), MODEL_VALUES, 2, 3, 6, MODEL_TOKENS);
  fs.writeFileSync(path.join(folder, MODEL_SPEC), `${JSON.stringify({ attention: { file: 'small.safetensors' } }, null, 2)}\n`);
}

let server: CodeServer | undefined;
let browser: Browser | undefined;

const openIn = (kind: Kind, workspace: string): Promise<Page> => openInHost(server!, browser!, kind, workspace);
/** The extension's log, once it has a line of its own. */
const outputChannel = (page: Page, name: string): Promise<string> => channelText(page, name, /\d{4}-\d\d-\d\d\s.*\[info\]/);
const drawn: Partial<Record<Kind, Drawn>> = {};
const models: Partial<Record<Kind, ModelShown>> = {};

/** The notification toasts' text now. */
async function toasts(page: Page): Promise<string> {
  return (await page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts()).join('\n');
}

/** Show Attention on the apple-watch lens: the time to its first paint, its arcs' and matrix's texts, the watch → apple tooltip. */
async function drawApple(page: Page, kind: Kind): Promise<Drawn> {
  await quickOpen(page, SPEC);
  const t0 = Date.now();
  await runCommand(page, 'Show Attention');
  const frame: Frame = await attentionFrame(page, 60_000);
  await waitForState(frame, 'ready', 60_000);
  await poll('a drawn view (svg) in the panel', () => frame.$('#attention-root svg'), 30_000);
  const paintMs = Date.now() - t0;
  await chooseView(frame, 'arcs');
  const arcs = await poll('the arcs view', async () => (await frame.$('#attention-root [data-view="arcs"], #attention-root svg path')) && drawnTexts(frame));
  await page.screenshot({ path: path.join(RESULTS, `web-${kind}-arcs.png`) });
  await chooseView(frame, 'matrix');
  await poll('the matrix view', () => frame.$('#attention-root svg[data-view="matrix"], #attention-root .cell[data-query]'));
  const matrix = await drawnTexts(frame);
  const tip = await hoverMatrixCell(frame, 'tech lens', 3, 2); // input 0: i love apple watch; watch=3, apple=2
  return { arcs, matrix, tip, paintMs };
}

/** The model page's tooltip text, once it shows. */
async function modelTip(frame: Frame): Promise<string> {
  return poll('#attention-tooltip to show text', async () => {
    const text = await frame.$eval('#attention-tooltip', (el) => (el.hasAttribute('hidden') ? '' : (el.textContent ?? '').trim()));
    return text || undefined;
  }, 10_000);
}

/** Show Attention on the spec naming small.safetensors: the model editor opens on it; what it shows. */
async function showModel(page: Page, kind: Kind): Promise<ModelShown> {
  await quickOpen(page, MODEL_SPEC);
  const t0 = Date.now();
  await runCommand(page, 'Show Attention');
  const frame = await poll('the model editor, its 6 heads drawn', async () => {
    for (const f of page.frames()) {
      const root = await f.$('#model-root[data-state="ready"][data-view="model"]').catch(() => null);
      if (root && (await f.$$eval('#model-root g.head-cell', (els) => els.length)) === 6) return f;
    }
    return undefined;
  }, 90_000);
  const paintMs = Date.now() - t0;
  await page.screenshot({ path: path.join(RESULTS, `web-${kind}-model-grid.png`) });
  const grid = await frame.$$eval('#model-root g.head-cell', (els) => els.map((e) => `L${e.getAttribute('data-layer')} h${e.getAttribute('data-head')} ${e.getAttribute('data-stat')}`));
  const texts = await frame.$$eval('#model-root svg text', (els) => els.map((e) => (e.textContent ?? '').trim()).filter((t) => t.length > 0));
  // Its frame, not the cell's group: the group's box holds its layer's whole picture (the thumbnail is a viewport on it).
  const cell = '#model-root g.head-cell[data-layer="1"][data-head="2"] rect.frame';
  // The grid's focused head may show its own tooltip first: point at layer 2 head 3 until its tooltip is the one shown.
  const gridTip = await poll('the tooltip of layer 2 head 3', async () => {
    await frame.hover(cell, { force: true });
    const t = await modelTip(frame);
    return t.startsWith('layer 2 head 3') ? t : undefined;
  }, 20_000);
  await frame.click(cell, { force: true });
  await poll('the head view of layer 1 head 2', async () => (await frame.$$('#model-root rect.cell[data-i][data-j]')).length === 36, 30_000);
  const cells = await frame.$$eval('#model-root rect.cell[data-i][data-j]', (els) => els.map((e) => `${e.getAttribute('data-i')},${e.getAttribute('data-j')} ${e.getAttribute('fill')}`));
  await frame.hover('#model-root rect.cell[data-i="4"][data-j="2"]', { force: true });
  const weightTip = await poll('the tooltip of query 4, key 2', async () => {
    const t = await modelTip(frame);
    return /weight/i.test(t) ? t : undefined;
  }, 10_000);
  await page.screenshot({ path: path.join(RESULTS, `web-${kind}-model-head.png`) });
  return { grid, gridTip, cells, weightTip, texts, paintMs };
}

describe('the web extension in VS Code\'s web worker extension host', { timeout: 600_000 }, () => {
  let workspace: string;
  before(async () => {
    for (const f of ['dist/web/extension.js', 'dist/web/analysis-worker.js', 'dist/web/scan-worker.js']) assert.ok(fs.existsSync(path.join(ROOT, f)), `${f} is built (node scripts/build.mjs)`);
    fs.mkdirSync(RESULTS, { recursive: true });
    workspace = makeExampleWorkspace();
    writeModelFiles(workspace);
    ({ server, browser } = await startWorkbenchServer('web', makeUserDataDir()));
  });

  after(() => stopWorkbenchServer(server, browser));

  it('runs the browser entry in the web worker host: Run a Model… says in one line that the cache needs the desktop', async () => {
    const page = await openIn('web', workspace);
    try {
      await runCommand(page, 'Run a Model…');
      const text = await poll('the one-line notice', async () => {
        const t = await toasts(page);
        return /not available in VS Code for the Web/.test(t) ? t : undefined;
      }, 30_000);
      assert.match(text, /Attention Lens: Run a Model… lists the models of a Hugging Face cache on a disk .*, which is not available in VS Code for the Web yet/);
    } finally {
      await page.close();
    }
  });

  it('draws the apple-watch lens: arcs, matrix and 136 for watch → apple', async () => {
    const page = await openIn('web', workspace);
    try {
      drawn.web = await drawApple(page, 'web');
      for (const token of ['i', 'love', 'apple', 'watch']) assert.ok(drawn.web.arcs.some((t) => t.toLowerCase() === token), `"${token}" is drawn`);
      assert.match(drawn.web.tip, /\b136\b/, `tooltip: ${drawn.web.tip}`);
      // Computed in the nested Web Worker: the log would say "computing on the host" had it not started.
      const log = await outputChannel(page, 'Attention Lens').catch(async (e: unknown) => {
        await page.screenshot({ path: path.join(RESULTS, 'web-output-failed.png') });
        throw e;
      });
      assert.match(log, /activated \(web\)/);
      assert.doesNotMatch(log, /could not start|computing on the host/, log);
    } finally {
      await page.close();
    }
  });

  it('the walkthrough\'s first step opens its example through Open Example, copied by workspace.fs, with its panel', async () => {
    const page = await openIn('web', workspace);
    try {
      await runCommand(page, 'Welcome: Open Walkthrough...');
      const input = page.locator('.quick-input-widget input[type="text"], .quick-input-widget .quick-input-box input').first();
      await input.fill('Attention Lens');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Attention Lens' }).first().waitFor({ timeout: 15_000 });
      await page.keyboard.press('Enter');
      // The step's own button (the step is a button too, and the step's media says the words in bold).
      const button = page.locator('.getting-started-step.expanded').getByText('Open the example', { exact: true }).first();
      await button.waitFor({ timeout: 20_000 });
      await button.click();
      const frame = await attentionFrame(page, 60_000, async (f) =>
        (await f.$eval('#attention-root', (r) => r.getAttribute('data-file-name'))) === 'apple-watch-raw.attn.json');
      await waitForState(frame, 'ready', 60_000);
      await poll('watch giving 0.999 of its attention to itself', async () => (await drawnTexts(frame)).some((t) => /0\.999/.test(t)), 30_000);
      await page.screenshot({ path: path.join(RESULTS, 'web-walkthrough-raw.png') });
      assert.ok(fs.existsSync(path.join(workspace, 'attention-lens-examples', 'apple-watch-raw.attn.json')), 'the examples were copied into the workspace');
    } catch (e) {
      await page.screenshot({ path: path.join(RESULTS, 'web-walkthrough-failed.png') }).catch(() => {});
      throw e;
    } finally {
      await page.close();
    }
  });

  it('opens the attention file a spec names in the model editor, read through workspace.fs in a Web Worker', async () => {
    const page = await openIn('web', workspace);
    try {
      const shown = models.web = await showModel(page, 'web');
      assert.equal(shown.grid.length, 6);
      assert.match(shown.gridTip, /^layer 2 head 3entropy \d/);
      assert.equal(shown.cells.length, 36);
      assert.ok(shown.weightTip.includes(`weight ${exactWeight(SHOWN_WEIGHT)}`), `the file's weight ${SHOWN_WEIGHT}: ${shown.weightTip}`);
      const log = await outputChannel(page, 'Attention Lens');
      assert.match(log, /model editor: attention files are read through workspace\.fs and scanned in a Web Worker/, log);
      assert.doesNotMatch(log, /could not start/, log);
    } catch (e) {
      await page.screenshot({ path: path.join(RESULTS, 'web-model-failed.png') }).catch(() => {});
      throw e;
    } finally {
      await page.close();
    }
  });

  it('draws the same texts, number for number, as the desktop entry in the Node extension host', async () => {
    assert.ok(drawn.web, 'the web host drew first');
    const page = await openIn('workspace', workspace);
    try {
      drawn.workspace = await drawApple(page, 'workspace');
      assert.deepEqual(drawn.web.arcs, drawn.workspace.arcs);
      assert.deepEqual(drawn.web.matrix, drawn.workspace.matrix);
      assert.equal(drawn.web.tip, drawn.workspace.tip);
      console.log(`timing: Show Attention -> painted apple-watch panel: web worker host ${drawn.web.paintMs} ms, Node host ${drawn.workspace.paintMs} ms`);
    } finally {
      await page.close();
    }
  });

  it('the model editor shows the same grid, head and weights as the desktop entry\'s', async () => {
    assert.ok(models.web, 'the web host showed the file first');
    const page = await openIn('workspace', workspace);
    try {
      const { paintMs: webMs, ...web } = models.web;
      const { paintMs: nodeMs, ...desktop } = models.workspace = await showModel(page, 'workspace');
      assert.deepEqual(web, desktop);
      console.log(`timing: Show Attention on the spec -> model editor's grid of 6 heads: web worker host ${webMs} ms, Node host ${nodeMs} ms`);
    } finally {
      await page.close();
    }
  });
});
