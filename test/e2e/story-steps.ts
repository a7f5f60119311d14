// The seeds' story as a learner walks it with the keyboard alone, shared by the desktop walk
// (story.e2e.test.ts, code-server's Node extension host) and the web walk (web-story.e2e.test.ts, its
// web worker extension host), so both assert the same numbers at each step: the walkthrough (Welcome:
// Open Walkthrough…) opens its first step's example, then the panel's "Next: …" link, reached by Tab
// and taken with Enter, leads through every example in order, each opening on the view its "open"
// names; a screenshot of each step goes to test-results/<prefix>-NN-<example>.png.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { attentionFrame, drawnTexts, poll, runCommand, sleep, waitForState, RESULTS } from './workbench.js';

export interface StoryStep {
  readonly file: string;
  readonly view: string;
  /** What the step's picture must show, each matched against one drawn text. */
  readonly shows: readonly RegExp[];
}

/** The story's spec steps in order: each example, the view it opens on, and what its picture must show. */
export const STORY: readonly StoryStep[] = [
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

/**
 * The step after the last spec: a model spec, whose run the model editor draws. Its numbers: the
 * model predicts " sat" after the last " cat", and the induction head (layer 2, head 1) puts at least
 * `minWeight` of the last " cat"'s attention on the " sat" that followed the first one.
 */
export const MODEL_STEP = { file: 'induction-gpt2.attn.json', next: ' sat', layer: 2, head: 1, key: 3, minWeight: 0.999 } as const;

/** The spec the panel shows and its selected view, as its root and tab say. */
export async function panelShows(f: Frame): Promise<{ file: string | null; view: string | null }> {
  return f.$eval('#attention-root', (root) => ({
    file: root.getAttribute('data-file-name'),
    view: root.querySelector('.al-tab[aria-selected="true"]')?.getAttribute('data-view') ?? null,
  }));
}

/**
 * Presses `key` (Tab, or Shift+Tab to go back) until `accept` holds for the text of the element
 * focused in `where`; fails after `max` presses.
 */
export async function tabTo(page: Page, where: Page | Frame, what: string, accept: (text: string) => boolean, max = 80, key = 'Tab'): Promise<void> {
  for (let i = 0; i < max; i++) {
    const text = await where.evaluate(() => (document.activeElement?.textContent ?? '').trim());
    if (accept(text)) return;
    await page.keyboard.press(key);
    await sleep(40);
  }
  throw new Error(`Tab never reached ${what} in ${max} presses`);
}

/** Welcome: Open Walkthrough…, Attention Lens, then Tab to the first step's "Open the example" and Enter. */
export async function openStoryWalkthrough(page: Page): Promise<void> {
  await runCommand(page, 'Welcome: Open Walkthrough...');
  const input = page.locator('.quick-input-widget input[type="text"], .quick-input-widget .quick-input-box input').first();
  await input.fill('Attention Lens');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Attention Lens' }).first().waitFor({ timeout: 15_000 });
  await sleep(300);
  await page.keyboard.press('Enter');
  await page.locator('.gettingStartedContainer').first().waitFor({ timeout: 20_000 });
  await tabTo(page, page, 'the first step\'s "Open the example"', (t) => t === 'Open the example');
  await page.keyboard.press('Enter');
}

/**
 * Into the panel (the second editor group: the focus lands in its view), then back with Shift+Tab
 * over the view's controls to the Next button above them, and Enter.
 */
export async function takeNext(page: Page, frame: Frame, from: string): Promise<void> {
  await page.keyboard.press('Control+2');
  await sleep(300);
  await tabTo(page, frame, `"Next:" in ${from}`, (t) => /^Next\b/.test(t), 80, 'Shift+Tab');
  await page.keyboard.press('Enter');
}

/**
 * From the walkthrough's first example to the last spec step: at each, the panel shows the step's
 * spec on its view with its numbers drawn, and a screenshot is taken. Returns the panel's width at
 * each step and the frame of the last one (Next there leads to MODEL_STEP).
 */
export async function walkSpecSteps(page: Page, shotPrefix: string): Promise<{ widths: number[]; last: Frame }> {
  await openStoryWalkthrough(page);
  const widths: number[] = [];
  let frame: Frame | undefined;
  for (const [k, step] of STORY.entries()) {
    if (frame) await takeNext(page, frame, STORY[k - 1].file);
    frame = await attentionFrame(page, 60_000, async (f) => (await panelShows(f)).file === step.file);
    await waitForState(frame, 'ready', 30_000);
    const shown = frame;
    await poll(`${step.file} on its ${step.view} view`, async () => (await panelShows(shown)).view === step.view || undefined, 20_000);
    const texts = await poll(`${step.file}'s picture showing ${step.shows.join(', ')}`, async () => {
      const t = await drawnTexts(shown);
      return step.shows.every((re) => t.some((x) => re.test(x))) ? t : undefined;
    }, 20_000);
    assert.ok(texts.length > 0);
    widths.push(await frame.evaluate(() => window.innerWidth));
    await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: stepShot(shotPrefix, k + 1, step.file) });
  }
  return { widths, last: frame! };
}

/** test-results/<prefix>-NN-<example>.png. */
export function stepShot(prefix: string, n: number, file: string): string {
  return path.join(RESULTS, `${prefix}-${String(n).padStart(2, '0')}-${file.replace('.attn.json', '')}.png`);
}

/** What every panel on screen shows (its spec and state), for a failure's message. */
export async function panelsShown(page: Page): Promise<string> {
  const shown = await Promise.all(page.frames().map((f) => f.$eval('#attention-root', (r) => `${r.getAttribute('data-file-name')} (${r.getAttribute('data-state')})`).catch(() => undefined)));
  return shown.filter(Boolean).join(', ') || 'none';
}

/** The model editor's frame showing a finished run (#model-root ready). */
export async function modelRunFrame(page: Page, timeoutMs = 120_000): Promise<Frame> {
  return poll('the model editor with the run drawn', async () => {
    for (const f of page.frames()) {
      if ((await f.$eval('#model-root', (r) => r.getAttribute('data-state')).catch(() => null)) === 'ready') return f;
    }
    return undefined;
  }, timeoutMs);
}

/**
 * The run's numbers as its views draw them: the next-token view's first token, and in the head-tokens
 * view of the induction head, the weight of the last query on MODEL_STEP.key. Asserts both.
 */
export async function assertModelRun(frame: Frame, shot: string): Promise<{ next: string; weight: number }> {
  const texts = async () => (await drawnModelTexts(frame)).join('\n');
  const next = await poll('the next-token view', async () => {
    if (!(await showsModelView(frame, 'next'))) return undefined;
    const t = await texts();
    return /what comes next/.test(t) && /^p = [\d.]+$/m.test(t) ? /^"(.*)"$/m.exec(t)?.[1] : undefined;
  }, 30_000);
  assert.equal(next, MODEL_STEP.next, `the next token after the last " cat" (${await texts()})`);
  const title = `layer ${MODEL_STEP.layer} head ${MODEL_STEP.head}:`;
  const keyLine = new RegExp(`^key #${MODEL_STEP.key} "${MODEL_STEP.next}"; weight ([\\d.e-]+)$`, 'm');
  const weight = Number(await poll(`${title} its weight on key #${MODEL_STEP.key}`, async () => {
    if (!(await showsModelView(frame, 'head-tokens'))) return undefined;
    const t = await texts();
    if (t.includes(title)) return keyLine.exec(t)?.[1];
    // The bar is drawn again as the view changes: a number typed into the old one is set again.
    for (const [control, value] of [['layer', MODEL_STEP.layer], ['head', MODEL_STEP.head]] as const) {
      const input = frame.locator(`#model-root input[data-control="${control}"]`);
      if ((await input.inputValue()) !== String(value)) {
        await input.fill(String(value));
        await input.press('Enter');
      }
    }
    return undefined;
  }, 30_000));
  assert.ok(weight >= MODEL_STEP.minWeight, `the last " cat" puts ${weight} on "${MODEL_STEP.next}" (at least ${MODEL_STEP.minWeight})`);
  await frame.page().screenshot({ path: shot });
  return { next, weight };
}

/** Whether the model editor's view menu says `view`; chooses it when it does not. */
async function showsModelView(frame: Frame, view: string): Promise<boolean> {
  const select = frame.locator('#model-root select[data-control="view"]');
  if ((await select.inputValue()) === view) return true;
  await select.selectOption(view);
  return false;
}

async function drawnModelTexts(frame: Frame): Promise<string[]> {
  return frame.$$eval('#model-root *', (els) => els.filter((e) => e.children.length === 0).map((e) => (e.textContent ?? '').trim()).filter(Boolean));
}
