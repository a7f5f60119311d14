// The model views' text, measured by Chromium as the panel's is (widths.e2e.test.ts): the offline
// page `attn render FILE --view V --html` makes (the model editor's shell and views, with the data
// inside it) in frames 430, 626 and 1,200 px wide, in the light, dark and high-contrast classes, for
// a small file with a repeated and a long token, a long head (200 tokens: labels that must be
// thinned) and a grid of 144 heads. No text overlaps text, none leaves its picture, and a cut text
// has the rest one hover away (test/e2e/widths-probe.ts). Needs `node scripts/build.mjs`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, tempDir, removeTempDirs } from '../../scripts/vscode/code-server.mjs';
import { MODEL_VIEW_NAMES } from '../../src/core/vocabulary.js';
import { attn } from '../support/cli.js';
import { randomAttention, writeSafetensors } from '../support/model-fixture.js';
import type { Finding } from './widths-probe.js';

const ORIGIN = 'http://attention-lens.test';
const WIDTHS = [430, 626, 1200];
const THEMES = ['vscode-light', 'vscode-dark', 'vscode-high-contrast'];

interface Row extends Finding { file: string; view: string; width: number; theme: string }
const rows: Row[] = [];
let measured = 0;
let browser: Browser | undefined;

function files(dir: string): { name: string; path: string }[] {
  const made: { name: string; path: string }[] = [];
  const put = (name: string, layers: number, heads: number, n: number, tokens: string[]) => {
    const file = path.join(dir, name);
    writeSafetensors(file, randomAttention(layers, heads, n, 3), layers, heads, n, tokens);
    made.push({ name, path: file });
  };
  put('small.safetensors', 2, 4, 8, ['The', 'watch', 'on', 'my', 'wrist', 'watch', 'supercalifragilistic', '.']);
  put('long.safetensors', 1, 2, 200, Array.from({ length: 200 }, (_, i) => (i % 7 === 0 ? 'watch' : `tok${i}`)));
  put('grid.safetensors', 12, 12, 32, Array.from({ length: 32 }, (_, i) => `w${i}`));
  return made;
}

async function probeBundle(): Promise<string> {
  const r = await esbuild.build({
    entryPoints: [path.join(__dirname, 'widths-probe.ts')], bundle: true, write: false, format: 'iife',
    globalName: 'widthsProbe', platform: 'browser', target: 'es2022',
  });
  return r.outputFiles[0].text;
}

function say(r: Row): string {
  return `${r.file} · ${r.view} · ${r.width} px · ${r.theme}: ${r.kind} "${r.a}"${r.b === undefined ? '' : ` and "${r.b}"`} (${r.detail})`;
}

describe('model widths: the model views\' text fits at 430, 626 and 1,200 px in every theme', { timeout: 600_000 }, () => {
  before(async () => {
    const dir = tempDir('model-widths');
    const pages = new Map<string, string>();
    for (const f of files(dir)) {
      for (const view of MODEL_VIEW_NAMES) {
        const out = path.join(dir, `${f.name}.${view}.html`);
        const r = await attn('render', f.path, '--view', view, '--html', out);
        assert.equal(r.code, 0, `${f.name} --view ${view}: ${r.err}`);
        pages.set(`${f.name}|${view}`, fs.readFileSync(out, 'utf8'));
      }
    }
    const probe = await probeBundle();
    browser = await launchChromium();
    const page: Page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.on('pageerror', (e) => rows.push({ file: '(page)', view: '-', width: 0, theme: '-', kind: 'error', where: 'chrome', a: e.message, detail: 'uncaught error' }));
    await page.route(`${ORIGIN}/**`, (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/probe.js') return route.fulfill({ status: 200, contentType: 'text/javascript', body: probe });
      const key = decodeURIComponent(url.pathname.slice(1));
      const body = key === 'top.html' ? `<!doctype html><body style="margin:0"><script src="/probe.js"></script></body>` : pages.get(key);
      return body ? route.fulfill({ status: 200, contentType: 'text/html', body }) : route.fulfill({ status: 404, body: 'not here' });
    });
    await page.goto(`${ORIGIN}/top.html`);
    await page.waitForFunction(() => 'widthsProbe' in window);
    for (const key of pages.keys()) {
      const [file, view] = key.split('|');
      const found = await page.evaluate(({ url, widths, themes }) =>
        (window as unknown as { widthsProbe: typeof import('./widths-probe.js') }).widthsProbe.runModelPage(url, widths, themes),
      { url: `/${encodeURIComponent(key)}`, widths: WIDTHS, themes: THEMES });
      for (const c of found) {
        measured++;
        for (const f of c.findings) rows.push({ ...f, file, view, width: c.width, theme: c.theme });
      }
    }
    console.log(`[model widths] ${measured} pictures measured; ${rows.length} findings`);
    if (process.env.ATTN_WIDTHS_REPORT) fs.writeFileSync(process.env.ATTN_WIDTHS_REPORT, JSON.stringify(rows, null, 1));
  });

  after(async () => {
    await browser?.close();
    if (!process.env.ATTN_KEEP_TEMP) removeTempDirs();
  });

  it('measured every file in every model view at every width and theme, without an uncaught error', () => {
    assert.equal(measured, 3 * MODEL_VIEW_NAMES.length * WIDTHS.length * THEMES.length);
    assert.deepEqual(rows.filter((r) => r.kind === 'error').map(say), []);
  });

  for (const view of MODEL_VIEW_NAMES) {
    it(`${view}: its texts fit`, () => {
      const failures = [...new Set(rows.filter((r) => r.view === view && r.kind !== 'error').map(say))];
      assert.deepEqual(failures, [], `${failures.length} failures:\n${failures.slice(0, 40).join('\n')}`);
    });
  }
});
