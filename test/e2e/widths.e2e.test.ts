// No text overlaps text and none leaves its picture, measured by a real layout engine: the panel's
// own bundle (dist/webview.js, media/attention.css) in Debian's Chromium, no code-server. A page
// holds the panel in frames 430, 626, 700 and 1,200 px wide, each in a light, dark and high-contrast
// body (the classes and a few of the CSS variables a VS Code theme sets); every example's 'render'
// message, as the host makes it, goes to every frame; each tab is clicked in turn (a 'need' for the
// linear-algebra numbers answered as the host answers it), and test/e2e/widths-probe.ts measures
// every piece of text in the page. One test per view (and one for the summary strip, one for the
// panel's chrome) lists every failure by example, view, width, theme and the texts concerned.
// Every view is held to it. Needs `node scripts/build.mjs`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, ROOT } from '../../scripts/vscode/code-server.mjs';
import { analyze } from '../../src/core/index.js';
import { encodeAttention } from '../../src/core/result/wire.js';
import { linalgData } from '../../src/core/result/linalg-data.js';
import { SPEC_ENTRIES } from '../../webview/views/registry.js';
import type { Case, Finding, Frame, Whole } from './widths-probe.js';

const ORIGIN = 'http://attention-lens.test';
// 626 px is where the projection's seed line was first found cut; 700 px is the middle width every view is held to.
const WIDTHS = [430, 626, 700, 1200];
const EXAMPLES = path.join(ROOT, 'examples');
/** The examples the spec views draw: every *.attn.json but those that run a real model ({ "model" }), which the model views draw. */
const specExamples = () => fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.attn.json'))
  .filter((f) => !('model' in (JSON.parse(fs.readFileSync(path.join(EXAMPLES, f), 'utf8')) as object)));

/** The variables VS Code sets for its Light Modern, Dark Modern and Dark High Contrast themes (the ones our CSS and views read). */
const THEMES: Record<string, { cls: string; vars: Record<string, string> }> = {
  light: {
    cls: 'vscode-light',
    vars: {
      'editor-foreground': '#3b3b3b', 'editor-background': '#ffffff', foreground: '#3b3b3b', descriptionForeground: '#3b3b3b',
      focusBorder: '#005fb8', 'panel-border': '#e5e5e5', 'dropdown-background': '#ffffff', 'dropdown-foreground': '#3b3b3b',
      'dropdown-border': '#cecece', 'editorHoverWidget-background': '#f8f8f8', 'editorHoverWidget-border': '#c8c8c8',
    },
  },
  dark: {
    cls: 'vscode-dark',
    vars: {
      'editor-foreground': '#cccccc', 'editor-background': '#1f1f1f', foreground: '#cccccc', descriptionForeground: '#9d9d9d',
      focusBorder: '#0078d4', 'panel-border': '#2b2b2b', 'dropdown-background': '#313131', 'dropdown-foreground': '#cccccc',
      'dropdown-border': '#3c3c3c', 'editorHoverWidget-background': '#202020', 'editorHoverWidget-border': '#454545',
    },
  },
  'high-contrast': {
    cls: 'vscode-high-contrast',
    vars: {
      'editor-foreground': '#ffffff', 'editor-background': '#000000', foreground: '#ffffff', descriptionForeground: '#ffffff',
      focusBorder: '#f38518', contrastBorder: '#6fc3df', contrastActiveBorder: '#f38518', 'panel-border': '#6fc3df',
      'dropdown-background': '#000000', 'dropdown-foreground': '#ffffff', 'dropdown-border': '#6fc3df',
      'editorHoverWidget-background': '#0c141f', 'editorHoverWidget-border': '#6fc3df',
    },
  },
};
/** VS Code's own font settings on Linux (the workbench's UI font and the editor's). */
const FONTS = {
  'font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif', 'font-size': '13px',
  'editor-font-family': '"Droid Sans Mono", "monospace", monospace',
};

function framePage(theme: string): string {
  const t = THEMES[theme];
  const vars = Object.entries({ ...t.vars, ...FONTS }).map(([k, v]) => `--vscode-${k}: ${v};`).join(' ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="stylesheet" href="/media/attention.css"></head>
<body class="${t.cls}" style='${vars}'>
<main id="attention-root" data-document-uri="" data-file-name=""></main><div id="attention-tooltip" hidden></div>
<script src="/dist/webview.js"></script></body></html>`;
}

function topPage(): string {
  const frames = WIDTHS.flatMap((w) => Object.keys(THEMES).map((t) =>
    `<iframe src="/frame.html?theme=${t}" data-width="${w}" data-theme="${t}" width="${w}" height="900" style="border:0;display:block"></iframe>`));
  return `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">${frames.join('\n')}<script src="/probe.js"></script></body></html>`;
}

async function probeBundle(): Promise<string> {
  const r = await esbuild.build({
    entryPoints: [path.join(__dirname, 'widths-probe.ts')], bundle: true, write: false, format: 'iife',
    globalName: 'widthsProbe', platform: 'browser', target: 'es2022',
  });
  return r.outputFiles[0].text;
}

async function serve(page: Page): Promise<void> {
  const probe = await probeBundle();
  const webview = fs.readFileSync(path.join(ROOT, 'dist', 'webview.js'), 'utf8');
  const css = fs.readFileSync(path.join(ROOT, 'media', 'attention.css'), 'utf8');
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    const send = (body: string, contentType: string) => route.fulfill({ status: 200, contentType, body });
    if (url.pathname === '/top.html') return send(topPage(), 'text/html');
    if (url.pathname === '/frame.html') return send(framePage(url.searchParams.get('theme') ?? 'light'), 'text/html');
    if (url.pathname === '/probe.js') return send(probe, 'text/javascript');
    if (url.pathname === '/dist/webview.js') return send(webview, 'text/javascript');
    if (url.pathname === '/media/attention.css') return send(css, 'text/css');
    return route.fulfill({ status: 404, body: 'not here' });
  });
}

interface Row extends Finding { example: string; view: string; width: number; theme: string }

const rows: Row[] = [];
/** The texts that must be read whole (WHOLE_SELECTORS), as each picture drew them. */
const wholeRows: (Whole & { example: string; view: string; width: number; theme: string })[] = [];
const drawn = new Set<string>();
let browser: Browser | undefined;
let seconds = 0;

const VIEWS = SPEC_ENTRIES.filter((e) => e.name !== 'summary').map((e) => ({ name: e.name, needs: e.needs }));

function say(r: Row): string {
  const texts = r.b === undefined ? `"${r.a}"` : `"${r.a}" and "${r.b}"`;
  return `${r.example} · ${r.view} · ${r.width} px · ${r.theme}: ${r.kind} ${texts} (${r.detail})`;
}

/** The failures of one group, each once (the same cut tab label shows under every view). */
function listed(pick: (r: Row) => boolean, withView: boolean): string[] {
  const seen = new Map<string, string>();
  for (const r of rows.filter(pick)) {
    const key = `${r.example}|${withView ? r.view : ''}|${r.width}|${r.theme}|${r.kind}|${r.a}|${r.b ?? ''}`;
    if (!seen.has(key)) seen.set(key, withView ? say(r) : say({ ...r, view: `(any view, first seen in ${r.view})` }));
  }
  return [...seen.values()];
}

describe('widths: no text overlaps text, none leaves its picture, every cut text one hover away', { timeout: 600_000 }, () => {
  before(async () => {
    const t0 = Date.now();
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.on('pageerror', (e) => rows.push({ example: '(page)', view: '-', width: 0, theme: '-', kind: 'error', where: 'chrome', a: e.message, detail: 'uncaught error' }));
    await serve(page);
    await page.goto(`${ORIGIN}/top.html`);
    await page.waitForFunction(() => Array.from(document.querySelectorAll('iframe'))
      .every((f) => f.contentDocument?.getElementById('attention-root')?.dataset.state === 'loading') && 'widthsProbe' in window);
    const files = specExamples().sort();
    let version = 0;
    for (const file of files) {
      const a = analyze(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'));
      assert.ok(a.data && a.spec, `${file} analyses`);
      const wire = encodeAttention(a.data);
      version += 1;
      const message = {
        type: 'render', documentUri: `file:///examples/${file}`, fileName: file, version, result: wire.header,
        buffer: Buffer.from(wire.buffer).toString('base64'), warnings: [],
      };
      const linalg = linalgData(a.spec, a.data);
      const cases = await page.evaluate(async ({ message, linalg, views }) => {
        const probe = (window as unknown as { widthsProbe: typeof import('./widths-probe.js') }).widthsProbe;
        const bytes = Uint8Array.from(atob(message.buffer), (c) => c.charCodeAt(0));
        const frames: Frame[] = Array.from(document.querySelectorAll('iframe'), (f) => ({
          win: f.contentWindow!, width: Number(f.dataset.width), theme: f.dataset.theme!,
        }));
        return probe.runExample(frames, { ...message, buffer: bytes.buffer }, linalg, views);
      }, { message, linalg, views: VIEWS }) as Case[];
      for (const c of cases) {
        drawn.add(`${file}|${c.view}|${c.width}|${c.theme}`);
        for (const f of c.findings) rows.push({ ...f, example: file, view: c.view, width: c.width, theme: c.theme });
        for (const w of c.wholes) wholeRows.push({ ...w, example: file, view: c.view, width: c.width, theme: c.theme });
      }
    }
    seconds = (Date.now() - t0) / 1000;
    console.log(`[widths] ${drawn.size} pictures measured in ${seconds.toFixed(1)} s; ${rows.length} findings`);
    if (process.env.ATTN_WIDTHS_REPORT) fs.writeFileSync(process.env.ATTN_WIDTHS_REPORT, JSON.stringify(rows, null, 1));
  });

  after(async () => {
    await browser?.close();
  });

  it('drew every example in every view at every width and theme, without an uncaught error', () => {
    const examples = specExamples().length;
    assert.equal(drawn.size, examples * VIEWS.length * WIDTHS.length * Object.keys(THEMES).length);
    assert.deepEqual(rows.filter((r) => r.kind === 'error').map(say), []);
  });

  for (const v of VIEWS) {
    it(`${v.name}: its texts fit`, () => {
      const failures = listed((r) => r.view === v.name && r.where === 'view' && r.kind !== 'error', true);
      assert.deepEqual(failures, [], `${failures.length} failures:\n${failures.join('\n')}`);
    });
  }

  it('projection of the 512 × 64 seeds: the full-size line, "= 3,145,728 numbers" with it, whole on screen at every width', () => {
    const seen = wholeRows.filter((r) => r.example === 'seed-projection-512-64.attn.json' && r.view === 'projection' && r.selector === 'text.full-size');
    assert.equal(seen.length, WIDTHS.length * Object.keys(THEMES).length, 'one full-size line per picture');
    const bad = seen.filter((r) => !r.text.includes('= 3,145,728 numbers') || r.cut || r.outside)
      .map((r) => `${r.width} px · ${r.theme}: "${r.text}"${r.cut ? ' cut' : ''}${r.outside ? ` (${r.outside})` : ''}`);
    assert.deepEqual(bad, []);
  });

  it('matrix of 64 tokens × 8 heads (small multiples): every head\'s name whole on screen at every width', () => {
    const seen = wholeRows.filter((r) => r.example === 'long-64-tokens-8-heads.attn.json' && r.view === 'matrix' && r.selector === 'text.head-name');
    assert.equal(seen.length, 8 * WIDTHS.length * Object.keys(THEMES).length, 'eight names per picture');
    const bad = seen.filter((r) => r.cut || r.outside || !/head \d/.test(r.text))
      .map((r) => `${r.width} px · ${r.theme}: "${r.text}"${r.cut ? ' cut' : ''}${r.outside ? ` (${r.outside})` : ''}`);
    assert.deepEqual(bad, []);
  });

  it('summary strip: its texts fit above every view', () => {
    const failures = listed((r) => r.where === 'summary', false);
    assert.deepEqual(failures, [], `${failures.length} failures:\n${failures.join('\n')}`);
  });

  it('panel chrome (title, tabs, menus): its texts fit', () => {
    const failures = listed((r) => r.where === 'chrome' && r.kind !== 'error', false);
    assert.deepEqual(failures, [], `${failures.length} failures:\n${failures.join('\n')}`);
  });
});
