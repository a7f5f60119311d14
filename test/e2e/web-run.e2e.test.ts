// A model spec's run on the web: examples/induction-gpt2.attn.json (a 2-layer GPT-2 built by hand,
// its folder beside the spec) opened in code-server's workbench with this extension in VS Code's web
// worker extension host (as web.e2e.test.ts sets it up: `remote.extensionKind` web), Show Attention
// runs the model from files read through workspace.fs, in a nested Web Worker, and the model views
// show the run. Then the same workbench runs the desktop entry in the Node extension host, and the
// views must show the same numbers: the next-token list text for text (" sat" first), and layer 2
// head 1's last " cat" → " sat" tooltip (≥ 0.9999), and the same head opened in the lens (written as
// a spec with its tensor file through workspace.fs on the web) draws the same texts. The time from Show Attention to the run's first
// paint is printed for both, measured in the same run.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame, Page } from 'playwright-core';
import {
  makeExampleWorkspace, makeUserDataDir, ROOT, type CodeServer,
} from '../../scripts/vscode/code-server.mjs';
import { poll, quickOpen, runCommand, RESULTS } from './workbench.js';
import { openInHost, outputChannel as channelText, startWorkbenchServer, stopWorkbenchServer, type HostKind } from './web-host.js';

const SPEC = 'induction-gpt2.attn.json';
type Kind = HostKind;

/** The model views' frame (the one holding #model-root), once it shows a run (data-state ready or error). */
async function modelFrame(page: Page): Promise<Frame> {
  return poll('the model views (a frame with #model-root, drawn)', async () => {
    for (const f of page.frames()) {
      const state = await f.$eval('#model-root', (el) => el.getAttribute('data-state')).catch(() => null);
      if (state === 'ready' || state === 'error') return f;
    }
    return undefined;
  }, 120_000);
}

/** Every text drawn in the model views' stage now (leaves only, trimmed). */
async function texts(frame: Frame): Promise<string[]> {
  return frame.$$eval('#model-root svg *', (els) => els.filter((e) => e.children.length === 0).map((e) => (e.textContent ?? '').trim()).filter((t) => t.length > 0));
}

interface Shown { next: string[]; tip: string; paintMs: number; lens: string[] }

let server: CodeServer | undefined;
let browser: Browser | undefined;

const openIn = (kind: Kind, workspace: string): Promise<Page> => openInHost(server!, browser!, kind, workspace);
/** The extension's log, once it has a line of its own. */
const outputChannel = (page: Page, name: string): Promise<string> => channelText(page, name, /\d{4}-\d\d-\d\d\s.*model run:/);
const shown: Partial<Record<Kind, Shown>> = {};

/** Show Attention on the induction spec: its run's next-token list and the induction head's last " cat" → " sat" tooltip. */
async function showRun(page: Page, kind: Kind): Promise<Shown> {
  await quickOpen(page, SPEC);
  const t0 = Date.now();
  await runCommand(page, 'Show Attention');
  const frame = await modelFrame(page);
  const paintMs = Date.now() - t0;
  const error = await frame.$eval('#model-root', (el) => (el.getAttribute('data-state') === 'error' ? el.textContent : null));
  assert.equal(error, null, `the run failed: ${error}`);
  await frame.locator('select[data-control="view"]').selectOption('next');
  await poll('the next-token view', () => frame.$('#model-root svg[data-view="next"]'), 30_000);
  const next = await poll('the next tokens drawn', async () => { const t = await texts(frame); return t.some((s) => s.includes('sat')) ? t : undefined; }, 30_000);
  await page.screenshot({ path: path.join(RESULTS, `web-run-${kind}-next.png`) });
  // The toolbar is drawn anew with each view: each control is set until the view shows what it says.
  const cell = '#model-root svg[data-view="head"] rect.cell[data-i="8"][data-j="2"]';
  await poll('layer 2 head 1 drawn', async () => {
    const value = (control: string) => frame.$eval(`[data-control="${control}"]`, (el) => (el as HTMLInputElement).value).catch(() => '');
    if (await value('view') !== 'head') { await frame.locator('select[data-control="view"]').selectOption('head'); return undefined; }
    for (const [control, want] of [['layer', '2'], ['head', '1']] as const) {
      if (await value(control) === want) continue;
      const input = frame.locator(`input[data-control="${control}"]`);
      await input.fill(want);
      await input.dispatchEvent('change');
      return undefined;
    }
    // The text has 9 tokens: the last " cat" is query 8 (from 0), " sat" is key 2.
    return frame.$(cell);
  }, 30_000);
  await frame.hover(cell, { force: true });
  const tip = await poll('the cell\'s tooltip', async () => {
    const text = await frame.$eval('#attention-tooltip', (el) => (el.hasAttribute('hidden') ? '' : (el.textContent ?? '').trim()));
    return text || undefined;
  }, 10_000);
  await page.screenshot({ path: path.join(RESULTS, `web-run-${kind}-head.png`) });
  // "Open in the lens": the head written as a spec with its tensor file (workspace.fs on the web) and shown in the spec panel.
  await frame.getByRole('button', { name: 'Open in the lens' }).click();
  const lensFrame = await poll('the lens spec\'s panel, drawn', async () => {
    for (const f of page.frames()) {
      const root = await f.$('#attention-root').catch(() => null);
      if (!root) continue;
      const state = await f.$eval('#attention-root', (el) => `${el.getAttribute('data-state')} ${el.getAttribute('data-file-name')}`).catch(() => '');
      if (/^ready .*layer2-head1/.test(state)) return f;
      if (/^error/.test(state)) throw new Error(`the lens panel failed: ${await f.$eval('#attention-root', (el) => el.textContent)}`);
    }
    return undefined;
  }, 60_000);
  const lens = await lensFrame.$$eval('#attention-root svg *', (els) => els.filter((e) => e.children.length === 0).map((e) => (e.textContent ?? '').trim()).filter((t) => t.length > 0));
  await page.screenshot({ path: path.join(RESULTS, `web-run-${kind}-lens.png`) });
  return { next, tip, paintMs, lens };
}

describe('a model spec\'s run in VS Code\'s web worker extension host', { timeout: 900_000 }, () => {
  let workspace: string;
  before(async () => {
    for (const f of ['dist/web/extension.js', 'dist/web/run-worker.js', 'dist/extension.js', 'dist/run-worker.js']) assert.ok(fs.existsSync(path.join(ROOT, f)), `${f} is built (node scripts/build.mjs)`);
    fs.mkdirSync(RESULTS, { recursive: true });
    workspace = makeExampleWorkspace();
    ({ server, browser } = await startWorkbenchServer('web-run', makeUserDataDir()));
  });

  after(() => stopWorkbenchServer(server, browser));

  it('runs the induction example from its folder beside the spec: " sat" first, the induction head on " sat"', async () => {
    const page = await openIn('web', workspace);
    try {
      shown.web = await showRun(page, 'web');
      assert.ok(shown.web.next.some((t) => /^\s*sat\b|" sat"|·sat| sat/.test(t)), `next tokens: ${shown.web.next.join(' | ')}`);
      const weight = Number(/weight ([\d.]+)/.exec(shown.web.tip)?.[1]);
      assert.ok(weight >= 0.9999, `the last " cat" on " sat": ${shown.web.tip}`);
      assert.match(shown.web.tip, /" cat".*" sat"/);
      // Run in the nested Web Worker: the log would say so had it run on the host's thread instead.
      const log = await outputChannel(page, 'Attention Lens');
      assert.match(log, /activated \(web\)/);
      assert.match(log, /model run: models\/induction-gpt2, 9 tokens/);
      assert.doesNotMatch(log, /could not start|host's thread instead/, log);
    } catch (e) {
      await page.screenshot({ path: path.join(RESULTS, 'web-run-failed.png') }).catch(() => {});
      throw e;
    } finally {
      await page.close();
    }
  });

  it('shows the same numbers, text for text, as the desktop entry in the Node extension host', async () => {
    assert.ok(shown.web, 'the web host ran first');
    const page = await openIn('workspace', workspace);
    try {
      shown.workspace = await showRun(page, 'workspace');
      // The forward pass's time is said in the view: the host's own, not a number of the model.
      const numbers = (t: string[]) => t.map((s) => s.replace(/\b\d+ ms\b/, '… ms'));
      assert.deepEqual(numbers(shown.web.next), numbers(shown.workspace.next));
      assert.equal(shown.web.tip, shown.workspace.tip);
      assert.ok(shown.web.lens.length > 0, 'the lens drew');
      assert.deepEqual(shown.web.lens, shown.workspace.lens, 'the lens spec written on the web draws as the desktop\'s');
      console.log(`timing: Show Attention -> painted induction run: web worker host ${shown.web.paintMs} ms, Node host ${shown.workspace.paintMs} ms`);
    } finally {
      await page.close();
    }
  });
});
