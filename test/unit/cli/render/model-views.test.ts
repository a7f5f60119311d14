// `attn render` on model attention files: each view as SVG, the heatmap as PNG, refusals with their
// messages, and the --html page, loaded in jsdom with its scripts running: it paints the grid from
// the data inside it, opens a head from its own data, follows a new width and a theme class (the
// shell base of the editor), and a token holding "</script>" stays text. The SVGs are the view
// registry's pictures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { run } from '../../../../src/cli/run.js';
import { scriptJson, scriptSource } from '../../../../src/pages/model-page-html.js';
import { memoryAttention, randomAttention, writeSafetensors } from '../../../support/model-fixture.js';
import { svgOf } from '../../../../src/cli/render/model-views.js';
import { modelEntry } from '../../../../webview/views/registry.js';
import { makeTheme } from '../../../../webview/kit/colour.js';
import { headPicture, scanModel } from '../../../../src/core/model-attention/scan.js';
import { openAttention } from '../../../../src/core/files/open.js';
import { fromBase64 } from '../../../../src/core/image/png.js';
import { MODEL_SVG, modelSvgBytes } from '../../../../src/core/budget.js';
import { joinPageLate, type ModelPageData, type ModelPageLate } from '../../../../webview/views/model/page-data.js';
import { exactWeight } from '../../../../webview/views/model/head.js';
import { npyBytes, npyDict, zipOf } from '../../../support/tensor-files.js';
import { tempDir } from '../../../support/temp-dir.js';

/** A page's data: its first part (before the script) and its large part (after it, a head an element) put together. */
function pageData(text: string): ModelPageData {
  const first = JSON.parse(/<script type="application\/json" id="model-data">([^<]*)<\/script>/.exec(text)![1]) as ModelPageData;
  const late = [...text.matchAll(/<script type="application\/json" class="model-late">([^<]*)<\/script>/g)].map((m) => JSON.parse(m[1]) as ModelPageLate);
  const script = text.indexOf('<script nonce=');
  assert.ok(text.indexOf('id="model-data"') < script && [...text.matchAll(/class="model-late"/g)].every((m) => m.index > script), 'the first part before the script, the large part after it');
  return { ...first, ...joinPageLate(late) };
}

const dir = tempDir('attn-model-');
const L = 2, H = 3, N = 8;
const EVIL = '</script><script>window.pwned = 1</script><!--';
const TOKENS = Array.from({ length: N }, (_, i) => (i === 2 ? EVIL : `w${i % 3}`));
const file = join(dir, 'run.safetensors');
writeSafetensors(file, randomAttention(L, H, N, 3), L, H, N, TOKENS);

/**
 * Resolves once `ready` holds for the page in `dom`: checked now and at every change of its document
 * (the page's drawings), so a loaded machine waits as long as the drawing takes; fails naming `what`
 * only past `limitMs`, a bound on a broken page, not a wait.
 */
function untilPage(dom: JSDOM, what: string, ready: (doc: Document) => boolean, limitMs = 20_000): Promise<void> {
  const doc = dom.window.document;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!ready(doc)) return false;
      observer.disconnect();
      clearTimeout(timer);
      resolve();
      return true;
    };
    const observer = new dom.window.MutationObserver(() => { check(); });
    const timer = setTimeout(() => { observer.disconnect(); reject(new Error(`the page never ${what}`)); }, limitMs);
    observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
    check();
  });
}

/** The page's root's state once drawn ('ready' or 'error'). */
const drawn = (doc: Document) => ['ready', 'error'].includes(doc.getElementById('model-root')?.dataset.state ?? '');

async function attn(...argv: string[]) {
  let out = '', err = '';
  const code = await run(argv, { out: (t) => { out += t; }, err: (t) => { err += t; } });
  return { code, out, err };
}

test('attn render draws each model view as an SVG with the file\'s numbers', async () => {
  for (const view of ['model', 'head', 'head-tokens', 'finder', 'rollout']) {
    const out = join(dir, `${view}.svg`);
    const r = await attn('render', file, '--view', view, '--layer', '1', '--head', '2', '--out', out);
    assert.equal(r.code, 0, r.err);
    const svg = readFileSync(out, 'utf8');
    assert.match(svg, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg /);
    assert.doesNotMatch(svg, /NaN|Infinity|undefined|<script/);
    new JSDOM(svg, { contentType: 'image/svg+xml' }).window.close();
  }
  // The head as tokens: both sides of the chosen head, the chosen token's lines.
  assert.equal(readFileSync(join(dir, 'head-tokens.svg'), 'utf8').match(/class="token"/g)?.length, 2 * N);
  const grid = readFileSync(join(dir, 'model.svg'), 'utf8');
  assert.equal(grid.match(/class="head-cell"/g)?.length, L * H);
  // The flags are 0-based indices (as the spec's --input and --head are); the picture counts from 1, as the panel does.
  assert.match(readFileSync(join(dir, 'head.svg'), 'utf8'), /layer 2 head 3: 8 × 8 weights/);
});

test('attn render --out x.png writes the heatmap as a real PNG; the finder and bad flags are refused', async () => {
  const png = join(dir, 'grid.png');
  assert.equal((await attn('render', file, '--view', 'model', '--out', png)).code, 0);
  const bytes = readFileSync(png);
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(bytes.readUInt32BE(16), H * (N + 1) - 1, 'width: the heads\' thumbnails 1 px apart');
  assert.equal(bytes.readUInt32BE(20), L * (N + 1) - 1);
  const finder = await attn('render', file, '--view', 'finder', '--out', join(dir, 'f.png'));
  assert.equal(finder.code, 2);
  assert.match(finder.err, /the finder is a table/);
  assert.match((await attn('render', file, '--view', 'head', '--layer', '2')).err, /--layer 2, but the file has 2 layer\(s\)/);
  assert.match((await attn('render', file, '--view', 'arcs')).err, /--view must be one of model, head, head-tokens, finder, rollout/);
  const cut = join(dir, 'cut.safetensors');
  const whole = readFileSync(file);
  writeFileSync(cut, whole.subarray(0, whole.length - 10));
  const r = await attn('render', cut, '--view', 'model');
  assert.equal(r.code, 1);
  assert.match(r.err, /cut\.safetensors: .*(truncated|outside)/);
});

test('scores saved before the softmax: a warning, and --softmax applies it', async () => {
  const scores = join(dir, 'scores.safetensors');
  writeSafetensors(scores, new Float32Array([0, 2, 2, 3]), 1, 1, 2);
  const plain = await attn('render', scores, '--view', 'head', '--out', join(dir, 's.svg'));
  assert.equal(plain.code, 0);
  assert.match(plain.err, /warning: 2 row\(s\) do not sum to 1.*--softmax applies it/);
  const fixed = await attn('render', scores, '--view', 'head', '--softmax', '--out', join(dir, 's2.svg'));
  assert.equal(fixed.err, '');
  // The softmax's 1/(1+e) as float32, written in the fewest digits that read back as it (0.26894143).
  const softmaxed = Math.fround(1 / (1 + Math.E));
  const shown = exactWeight(softmaxed);
  assert.equal(shown, '0.26894143');
  assert.equal(Math.fround(Number(shown)), softmaxed);
  assert.match(readFileSync(join(dir, 's2.svg'), 'utf8'), new RegExp(`weight ${shown.replace('.', '\\.')}\n`));
});

test('script-safe embedding: no "<" in the JSON, no "</script" or "<!--" in the source', () => {
  const json = scriptJson({ t: EVIL });
  assert.ok(!json.includes('<'));
  assert.deepEqual(JSON.parse(json), { t: EVIL });
  const src = scriptSource('const a = "</script>", b = "<!--", c = "</SCRIPT>";');
  assert.doesNotMatch(src, /<\/script|<!--/i);
  assert.deepEqual(new Function(`${src}; return [a, b, c];`)(), ['</script>', '<!--', '</SCRIPT>']);
});

test('attn render --html: one offline page that paints the grid and opens a head from its own data', async () => {
  const html = join(dir, 'page.html');
  const r = await attn('render', file, '--view', 'model', '--html', html);
  assert.equal(r.code, 0, r.err);
  const page = readFileSync(html, 'utf8');
  const late = page.match(/<script type="application\/json" class="model-late">/g)?.length ?? 0;
  assert.equal(late, L * H + 1, 'each head\'s weights, and the rollout, in its own element after the script');
  assert.equal(page.match(/<\/script/gi)?.length, 2 + late, 'only the data\'s, the bundle\'s and the heads\' script elements close');
  const markup = page.replace(/<script nonce[^>]*>[\s\S]*?<\/script>/, '');
  assert.doesNotMatch(markup, /<script[^>]*\ssrc=|<link|<img|<iframe|url\(|https?:/i, 'nothing is loaded from outside');
  assert.match(page, /Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;nonce-[0-9a-f]{32}&#39;/);
  const dom = new JSDOM(page, { runScripts: 'dangerously', pretendToBeVisual: true });
  const win = dom.window as unknown as Window & { pwned?: number };
  await untilPage(dom, 'drew its first view', drawn);
  const root = win.document.getElementById('model-root')!;
  assert.equal(root.dataset.state, 'ready');
  assert.equal(win.document.querySelectorAll('g.head-cell').length, L * H);
  assert.equal(win.pwned, undefined, 'the token did not run as a script');
  const cell = win.document.querySelector('g.head-cell[data-layer="1"][data-head="2"]')!;
  cell.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  await untilPage(dom, 'drew the head', (d) => d.querySelectorAll('rect.cell').length > 0);
  assert.equal(root.dataset.view, 'head');
  assert.equal(win.document.querySelectorAll('rect.cell').length, N * N, 'the head came from the page\'s data');
  assert.ok([...win.document.querySelectorAll('text.row-label')].some((t) => t.textContent!.startsWith('"</script>')), 'the token is drawn as text');
  dom.window.close();
});

test('attn render --html: the offline page follows a new width and a theme class, as the editor does', async () => {
  const html = join(dir, 'page-redraw.html');
  assert.equal((await attn('render', file, '--view', 'model', '--html', html)).code, 0);
  const dom = new JSDOM(readFileSync(html, 'utf8'), { runScripts: 'dangerously', pretendToBeVisual: true });
  const doc = dom.window.document;
  await untilPage(dom, 'drew its first view', drawn);
  const root = doc.getElementById('model-root')!;
  assert.equal(root.dataset.state, 'ready');
  const svg = () => doc.querySelector('#model-root svg')!;
  assert.equal(svg().querySelector('rect.bg')!.getAttribute('fill'), '#ffffff', 'no VS Code class: the light theme');
  const wide = Number(svg().getAttribute('width'));
  Object.defineProperty(root, 'clientWidth', { value: 360, configurable: true });
  dom.window.dispatchEvent(new dom.window.Event('resize'));
  await untilPage(dom, 'drew at the new width', () => Number(svg().getAttribute('width')) !== wide);
  assert.ok(Number(svg().getAttribute('width')) < wide, `${svg().getAttribute('width')} < ${wide}`);
  doc.body.className = 'vscode-dark';
  await untilPage(dom, 'drew in the new theme', () => svg().querySelector('rect.bg')?.getAttribute('fill') !== '#ffffff');
  assert.equal(svg().querySelector('rect.bg')!.getAttribute('fill'), '#1e1e1e');
  dom.window.close();
});

test('the model views are drawn through the one view registry: svgOf is the registry entry\'s picture, and refuses a spec view', () => {
  const data = scanModel(memoryAttention(randomAttention(1, 2, 4), 1, 2, 4));
  const options = { theme: makeTheme('light'), width: 600, interactive: false, layer: 0, head: 0, token: 3, stat: 'entropy' as const, sort: false, k: 3 };
  const svg = svgOf(data, 'model', options);
  const dom = new JSDOM('<!doctype html><div id="r"></div>');
  const handle = modelEntry('model')!.render(dom.window.document.getElementById('r') as unknown as HTMLElement, data, options);
  assert.equal(svg, `<?xml version="1.0" encoding="UTF-8"?>\n${new dom.window.XMLSerializer().serializeToString(handle.svg)}\n`);
  dom.window.close();
  assert.throws(() => svgOf(data, 'arcs' as never, options), /unknown model view "arcs"/);
});

/** A stored .npz of one float32 tensor [layers, heads, n, n], every head `values` repeated (a model far bigger than its pattern). */
function repeatedNpz(path: string, layers: number, heads: number, n: number, head: Float32Array): void {
  const all = new Float32Array(layers * heads * n * n);
  for (let k = 0; k < layers * heads; k++) all.set(head, k * n * n);
  writeFileSync(path, zipOf([{ name: 'attention.npy', data: npyBytes(npyDict('<f4', [layers, heads, n, n]), Buffer.from(all.buffer)), deflate: true }]));
}

test('the model grid of more heads than the thumbnails\' budget is drawn at a smaller side, and says so; the SVG stays within its estimate', async () => {
  // 2,048 heads at 64² are 8.4 million pixels, over THUMBNAILS: 32² fits (2.1 million).
  const path = join(dir, 'many.npz');
  repeatedNpz(path, 32, 64, 64, randomAttention(1, 1, 64, 11));
  const out = join(dir, 'many.svg');
  const r = await attn('render', path, '--view', 'model', '--out', out);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /warning: the grid of thumbnails of 32 layers × 64 heads at 64×64 needs 8\.4 million pixels, over the budget of 4\.2 million: they are drawn at 32×32/);
  const svg = readFileSync(out, 'utf8');
  assert.match(svg, /max-pooled to 32×32/, 'the grid\'s note gives the side drawn');
  assert.match(svg, /warning: the grid of thumbnails of 32 layers × 64 heads/, 'the picture says what it left out');
  assert.equal(svg.match(/class="head-cell"/g)?.length, 2048);
  assert.ok(svg.length <= modelSvgBytes(32, 64, 32), `the estimate (${modelSvgBytes(32, 64, 32)}) bounds the SVG (${svg.length})`);
  const html = join(dir, 'many.html');
  const page = await attn('render', path, '--view', 'model', '--html', html);
  assert.equal(page.code, 0, page.err);
  const data = pageData(readFileSync(html, 'utf8'));
  assert.equal(data.header.thumb, 32);
  assert.equal(fromBase64(data.thumbnails).length, 2048 * 32 * 32, 'a colour index a thumbnail pixel');
  assert.deepEqual(Object.keys(data.heads), ['0:0'], 'one head: all 2,048 would be 8.4 million weights');
});

test('a model SVG over its budget even at the smaller side is refused with one sentence, before the file is scanned; the PNG of it is written', async () => {
  // 10,000 heads of 16 tokens: 2.6 million thumbnail pixels (within THUMBNAILS), an SVG of at most 21.2 MB.
  const path = join(dir, 'wide.npz');
  repeatedNpz(path, 100, 100, 16, randomAttention(1, 1, 16, 12));
  assert.ok(modelSvgBytes(100, 100, 16) > MODEL_SVG.max);
  const t0 = performance.now();
  const r = await attn('render', path, '--view', 'model', '--out', join(dir, 'wide.svg'));
  assert.equal(r.code, 1);
  assert.ok(performance.now() - t0 < 2000, 'refused from the shapes');
  assert.equal(r.out, '');
  assert.match(r.err, /^[^\n]*wide\.npz: the model SVG of 100 layers × 100 heads needs 21\.2 million bytes, over the budget of 16\.8 million: write the grid as --out FILE\.png \(the thumbnails alone\) or as an --html page$/);
  const png = await attn('render', path, '--view', 'model', '--out', join(dir, 'wide.png'));
  assert.equal(png.code, 0, png.err);
  assert.deepEqual([...readFileSync(join(dir, 'wide.png')).subarray(1, 4)], [0x50, 0x4e, 0x47]);
});

test('a head too big for the page is carried as the editor\'s picture of it (512², its strongest weight), said on stderr and in the page; the page draws it', async () => {
  const n = 4096;
  const path = join(dir, 'long.safetensors');
  const values = new Float32Array(n * n).fill(1 / n);
  for (let i = 0; i < n; i++) { values[i * n + i] += 0.5; values[i * n + ((i + 1) % n)] -= 0.5 - 1 / n; }
  writeSafetensors(path, values, 1, 1, n);
  const html = join(dir, 'long.html');
  const r = await attn('render', path, '--view', 'head', '--html', html);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /warning: the model page of a 4096×4096 head needs 89\.5 million bytes, over the budget of 50\.3 million: it holds the head of --layer 0 --head 0 as a 512×512 picture/);
  const text = readFileSync(html, 'utf8');
  assert.ok(text.length < 2_000_000, `the page is ${text.length} characters (90 MB with the head whole)`);
  const data = pageData(text);
  assert.deepEqual(data.heads, {});
  const a = openAttention(path);
  const expected = headPicture(a, 0, 0);
  a.close();
  const picture = data.pictures?.['0:0'];
  assert.equal(picture?.res, 512);
  assert.equal(picture?.max, expected.max);
  assert.deepEqual(fromBase64(picture!.indices), expected.indices, 'the editor\'s very picture');
  assert.ok(data.header.warnings.some((w) => w.startsWith('the model page of a 4096×4096 head')), 'the page says it too');
  const dom = new JSDOM(text, { runScripts: 'dangerously', pretendToBeVisual: true });
  await untilPage(dom, 'drew the head', (d) => drawn(d) && d.getElementById('model-root')!.dataset.view === 'head' && /layer 1 head 1/.test(d.getElementById('model-root')!.textContent ?? '') && !/loading/.test(d.getElementById('model-root')!.textContent ?? ''));
  const root = dom.window.document.getElementById('model-root')!;
  assert.equal(root.dataset.state, 'ready');
  assert.equal(root.dataset.view, 'head');
  assert.match(root.textContent ?? '', /layer 1 head 1/, 'the head view drew the picture');
  dom.window.close();
});

test('a head over the cells a whole head may have is refused from its shape, before any head is read', async () => {
  // 4,097 tokens of zeros: a scan would first warn of its rows of zeros; the refusal comes alone.
  const n = 4097, big = join(dir, 'big-head.safetensors');
  writeSafetensors(big, new Float32Array(n * n), 1, 1, n);
  for (const view of ['head', 'head-tokens']) {
    for (const extra of [['--out', join(dir, 'big.svg')], ['--out', join(dir, 'big.png')], []]) {
      const r = await attn('render', big, '--view', view, ...extra);
      assert.equal(r.code, 1, `${view} ${extra.join(' ')}`);
      assert.equal(r.err, `${big}: a head of 4,097 tokens is not drawn whole (16,785,409 weights, over the 16,777,216 a whole head may have): write it with --html FILE.html (the head as a picture) or open it in the model editor (a map of tiles)`);
      assert.equal(r.out, '');
    }
  }
});
