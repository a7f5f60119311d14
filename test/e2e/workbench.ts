// Driving VS Code's web workbench (code-server) like a person: Quick Open, the command palette,
// the Problems panel, and the Attention Lens webview inside its nested iframes.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { ROOT } from '../../scripts/vscode/code-server.mjs';

/** The packaged extension the suites install (npm run package writes it; ATTN_VSIX names another). */
export const VSIX = process.env.ATTN_VSIX || path.join(ROOT, 'attention-lens.vsix');
/** Where the suites leave their screenshots and timings. */
export const RESULTS = path.join(ROOT, 'test-results');

export async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

export async function poll<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) { lastError = e; }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
    }
    await sleep(100);
  }
}

/** Waits for the workbench and its explorer to be up. */
export async function waitForWorkbench(page: Page): Promise<void> {
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60_000 });
}

async function focusWorkbench(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  const statusbar = page.locator('.part.statusbar');
  if (await statusbar.count()) await statusbar.click({ position: { x: 5, y: 5 } }).catch(() => {});
}

/** Picks the row `label` in a quick pick: Enter when the list has filtered down to it, else a click on it. */
async function pressEnterOn(page: Page, label: string, timeoutMs: number): Promise<void> {
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ timeout: timeoutMs });
  await sleep(300); // the list filters as it is typed into
  const focused = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: label });
  if (await focused.count()) await page.keyboard.press('Enter');
  else await row.click();
}

/** Ctrl+P, the file's name, Enter: the file opens in an editor. */
export async function quickOpen(page: Page, fileName: string): Promise<void> {
  await focusWorkbench(page);
  await page.keyboard.press('Control+1'); // into the first editor group, not the panel's group beside it
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input[type="text"], .quick-input-widget .quick-input-box input').first();
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(fileName);
  await pressEnterOn(page, fileName, 20_000);
  await page.locator(`.tabs-container .tab.active[data-resource-name="${fileName}"]`).first().waitFor({ timeout: 20_000 });
}

/** Ctrl+Shift+P, the command's title, Enter. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('Control+Shift+P');
  const input = page.locator('.quick-input-widget input[type="text"], .quick-input-widget .quick-input-box input').first();
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${title}`);
  await pressEnterOn(page, title, 15_000);
}

/** The webview frame holding #attention-root (VS Code nests it two iframes deep), optionally the one that `accept`s. */
export async function attentionFrame(page: Page, timeoutMs = 30_000, accept?: (f: Frame) => Promise<boolean>): Promise<Frame> {
  return poll(`the Attention Lens webview (a frame with #attention-root${accept ? ' showing the expected spec' : ''})`, async () => {
    for (const f of page.frames()) {
      const root = await f.$('#attention-root').catch(() => null);
      if (!root) continue;
      if (accept && !(await accept(f).catch(() => false))) continue;
      return f;
    }
    return undefined;
  }, timeoutMs);
}

export async function rootState(frame: Frame): Promise<string | null> {
  return frame.$eval('#attention-root', (el) => el.getAttribute('data-state'));
}

export async function waitForState(frame: Frame, state: string, timeoutMs = 20_000): Promise<void> {
  await poll(`#attention-root[data-state=${state}] (now ${await rootState(frame).catch(() => '?')})`,
    async () => (await rootState(frame)) === state, timeoutMs);
}

/** Every piece of text drawn under #attention-root (SVG <text>, HTML), trimmed, in order. */
export async function drawnTexts(frame: Frame): Promise<string[]> {
  return frame.$$eval('#attention-root *', (els) => els
    .filter((e) => e.children.length === 0)
    .map((e) => (e.textContent ?? '').trim())
    .filter((t) => t.length > 0));
}

/**
 * Switches the panel to a view by its control: a tab, button, radio or <select> option named like the view.
 * Fails with what controls there are when none matches.
 */
export async function chooseView(frame: Frame, view: string): Promise<void> {
  const name = new RegExp(`^\\s*${view}\\b`, 'i');
  for (const role of ['tab', 'button', 'radio', 'menuitemradio', 'option'] as const) {
    const c = frame.getByRole(role, { name });
    if (await c.count()) {
      await c.first().click();
      return;
    }
  }
  const dataView = frame.locator(`[data-view-choice="${view}"], button[data-view="${view}"], [role=tab][data-view="${view}"]`);
  if (await dataView.count()) { await dataView.first().click(); return; }
  const selects = frame.locator('#attention-root select');
  for (let i = 0; i < await selects.count(); i++) {
    const s = selects.nth(i);
    const values = await s.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    if (values.includes(view)) { await s.selectOption(view); return; }
  }
  const controls = await frame.$$eval('#attention-root button, #attention-root [role], #attention-root select',
    (els) => els.slice(0, 30).map((e) => `${e.tagName.toLowerCase()}[role=${e.getAttribute('role')}] "${(e.textContent ?? '').trim().slice(0, 30)}"`));
  assert.fail(`no control in the panel switches to the "${view}" view; controls seen: ${controls.join(', ') || 'none'}`);
}

/** Hovers the matrix cell query→key of the head named `headName`; returns the tooltip's text. */
export async function hoverMatrixCell(frame: Frame, headName: string, query: number, key: number): Promise<string> {
  const selector = await poll(`a matrix cell [data-query=${query}][data-key=${key}] for head "${headName}"`, async () => {
    return frame.$$eval('#attention-root [data-query][data-key]', (cells, args) => {
      const [name, q, k] = args as [string, number, number];
      for (const cell of cells) {
        if (cell.getAttribute('data-query') !== String(q) || cell.getAttribute('data-key') !== String(k)) continue;
        if (!cell.classList.contains('cell')) continue; // matrix cells, not arcs
        const block = cell.closest('.head-matrix');
        const label = block?.querySelector('.head-name')?.textContent ?? document.querySelector('#attention-root')?.textContent ?? '';
        if (!label.includes(name)) continue;
        const h = cell.getAttribute('data-head');
        return `#attention-root .cell[data-query="${q}"][data-key="${k}"]${h !== null ? `[data-head="${h}"]` : ''}`;
      }
      return undefined;
    }, [headName, query, key]);
  }, 15_000);
  await frame.hover(selector, { force: true });
  return poll('#attention-tooltip to show text', async () => {
    const text = await frame.$eval('#attention-tooltip', (el) => {
      const visible = getComputedStyle(el).display !== 'none' && getComputedStyle(el).visibility !== 'hidden' && !el.hasAttribute('hidden');
      return visible ? (el.textContent ?? '').trim() : '';
    });
    return text || undefined;
  }, 5_000);
}

/** "Preferences: Color Theme" from the command palette, then the theme by name. */
export async function pickColorTheme(page: Page, theme: string): Promise<void> {
  await runCommand(page, 'Preferences: Color Theme');
  const input = page.locator('.quick-input-widget input[type="text"], .quick-input-widget .quick-input-box input').first();
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(theme);
  await pressEnterOn(page, theme, 10_000);
}

/**
 * The error count of the status bar's Problems item. VS Code updates that item on every marker change,
 * while the Problems panel repaints its rows lazily (a hidden or unfocused panel can show rows that are
 * already gone), so a test waiting for problems to clear reads this, not the panel.
 */
export async function statusBarErrorCount(page: Page): Promise<number> {
  const item = page.locator('[id="status.problems"]').first();
  await item.waitFor({ state: 'attached', timeout: 10_000 });
  const label = await item.evaluate((el) =>
    el.getAttribute('aria-label') || el.querySelector('[aria-label]')?.getAttribute('aria-label') || '');
  if (/no problems/i.test(label)) return 0;
  const m = /errors?\D{0,3}(\d+)|(\d+)\D{0,3}errors?/i.exec(label);
  if (!m) throw new Error(`cannot read the error count from the status bar's Problems item: "${label}"`);
  return Number(m[1] ?? m[2]);
}

/** Opens the Problems panel and returns its rows' text. */
export async function problemsPanelText(page: Page): Promise<string> {
  await page.keyboard.press('Control+Shift+M');
  const panel = page.locator('.markers-panel');
  await panel.waitFor({ state: 'visible', timeout: 10_000 });
  return (await panel.innerText()).replace(/\s+/g, ' ');
}
