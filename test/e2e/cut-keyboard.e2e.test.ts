// Texts cut with "…" by keyboard, in Chromium: the offline page `attn render FILE --view V --html`
// makes (the model editor's shell and views) at 430 px, for a file of long token names. Tab goes
// round the page; on every text cut with "…" (its whole text in its <title>) Enter shows the whole
// text beside it, never over it, and Escape hides it with the view kept (Escape in a view went back
// to the grid). The jsdom walk (test/unit/webview/shell/cuts-walk.test.ts) covers every spec and
// model view; this checks what jsdom cannot: focus, the tooltip's place and size. Needs
// `node scripts/build.mjs`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium, tempDir, removeTempDirs } from '../../scripts/vscode/code-server.mjs';
import { MODEL_VIEW_NAMES } from '../../src/core/vocabulary.js';
import { attn } from '../support/cli.js';
import { randomAttention, writeSafetensors } from '../support/model-fixture.js';

const ORIGIN = 'http://attention-lens.test';
const WIDTH = 430;

interface Read { shown: string; whole: string; said: string; visible: boolean; covers: boolean; folded: boolean; view: string | null }
const found = new Map<string, { cuts: number; read: Read[]; stops: number }>();
let browser: Browser | undefined;

describe('cut texts by keyboard: the model page at 430 px in Chromium', { timeout: 300_000 }, () => {
  before(async () => {
    const dir = tempDir('cut-keyboard');
    const n = 24;
    const file = path.join(dir, 'long.safetensors');
    writeSafetensors(file, randomAttention(3, 4, n, 7), 3, 4, n, Array.from({ length: n }, (_, i) => ` a-rather-long-token-name-number-${i}`));
    const pages = new Map<string, string>();
    // The next-token view needs a model run, which a file of attention has not.
    for (const view of MODEL_VIEW_NAMES.filter((v) => v !== 'next')) {
      const out = path.join(dir, `${view}.html`);
      const r = await attn('render', file, '--view', view, '--html', out);
      assert.equal(r.code, 0, `--view ${view}: ${r.err}`);
      pages.set(view, fs.readFileSync(out, 'utf8'));
    }
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 900 } });
    await page.route(`${ORIGIN}/**`, (route) => {
      const body = pages.get(decodeURIComponent(new URL(route.request().url()).pathname.slice(1)));
      return body ? route.fulfill({ status: 200, contentType: 'text/html', body }) : route.fulfill({ status: 404, body: 'not here' });
    });
    for (const view of pages.keys()) {
      await page.goto(`${ORIGIN}/${view}`);
      await page.waitForSelector(`svg[data-view="${view}"]`);
      const cuts = await page.$$eval('svg text', (texts) => texts.filter((t) => {
        const title = Array.from(t.children).find((c) => c.localName === 'title')?.textContent?.trim();
        const shown = Array.from(t.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join('');
        return title && shown.includes('…') && title !== shown.trim();
      }).length);
      const read: Read[] = [];
      let stops = 0;
      const seen = new Set<string>();
      for (let k = 0; k < 300; k++) {
        await page.keyboard.press('Tab');
        // Each element focused gets a number of its own (a property, not an attribute): round when one comes again.
        const at = await page.evaluate(() => {
          const a = document.activeElement as (Element & { walkStop?: number }) | null;
          const w = window as unknown as { walkStops?: number };
          if (!a || a === document.body) return { id: 'body', cut: false };
          a.walkStop ??= (w.walkStops = (w.walkStops ?? 0) + 1);
          return { id: String(a.walkStop), cut: a.classList.contains('al-cut') };
        });
        if (seen.has(at.id)) break;
        seen.add(at.id);
        stops++;
        if (!at.cut) continue;
        await page.keyboard.press('Enter');
        const open = await page.evaluate(() => {
          const a = document.activeElement!, tip = document.getElementById('attention-tooltip')!;
          const r = a.getBoundingClientRect(), t = tip.getBoundingClientRect();
          const shown = Array.from(a.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join('');
          return {
            shown, whole: a.getAttribute('aria-label') ?? '', said: tip.textContent ?? '', expanded: a.getAttribute('aria-expanded'),
            visible: !tip.hidden && t.width > 0 && t.top >= 0 && t.bottom <= window.innerHeight && t.right <= window.innerWidth,
            covers: t.left < r.right && r.left < t.right && t.top < r.bottom && r.top < t.bottom,
          };
        });
        assert.equal(open.expanded, 'true', `${view}: Enter on "${open.shown}"`);
        await page.keyboard.press('Escape');
        const after = await page.evaluate(() => ({
          folded: document.activeElement?.getAttribute('aria-expanded') === 'false' && document.getElementById('attention-tooltip')!.hidden,
          view: document.querySelector('svg[data-view]')?.getAttribute('data-view') ?? null,
        }));
        read.push({ ...open, ...after });
      }
      found.set(view, { cuts, read, stops });
    }
  });

  after(async () => {
    await browser?.close();
    if (!process.env.ATTN_KEEP_TEMP) removeTempDirs();
  });

  it('the rollout\'s cut caption (at least) is met: the walk proves something', () => {
    assert.ok([...found.values()].reduce((s, f) => s + f.cuts, 0) >= 1, JSON.stringify([...found].map(([v, f]) => [v, f.cuts])));
  });

  for (const view of MODEL_VIEW_NAMES.filter((v) => v !== 'next')) {
    it(`${view}: Tab reaches every cut text; Enter shows it whole beside it, in the window; Escape hides it and stays in the view`, () => {
      const f = found.get(view)!;
      assert.equal(f.read.length, f.cuts, `${f.cuts} cut texts, ${f.read.length} reached in ${f.stops} Tab stops`);
      for (const r of f.read) {
        assert.equal(r.said, r.whole, `"${r.shown}": the tooltip says the whole text`);
        assert.ok(r.whole.length > r.shown.length - 1, `"${r.shown}" is named by more than it shows`);
        assert.ok(r.visible, `"${r.shown}": the whole text is inside the window`);
        assert.ok(!r.covers, `"${r.shown}": the whole text does not cover the text it expands`);
        assert.ok(r.folded, `"${r.shown}": Escape hides it`);
        assert.equal(r.view, view, `"${r.shown}": Escape stays in the view`);
      }
    });
  }
});
