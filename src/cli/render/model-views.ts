// `attn render FILE.safetensors|.npy|.npz --view model|head|head-tokens|finder|rollout`: the model views drawn
// on jsdom as an SVG, a PNG of the heatmap alone (Node has no canvas to draw text: the grid of
// thumbnails, or the head's or the rollout's matrix, without labels), or with --html one offline,
// interactive page with the data inside it.
import { modelTarget, openTarget } from '../inspect.js';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { TensorFileError } from '../../core/tensors/source.js';
import { STAT_NAMES } from '../../core/tensors/head-stats.js';
import { rolloutRefusal } from '../../core/tensors/rollout.js';
import { maxOf, poolMax, SENT_PICTURE_MAX, thumbnailIndices, type ModelViewData } from '../../core/model-attention/data.js';
import { MODEL_PAGE, MODEL_SVG, modelPageBytes, modelSvgBytes, overBudget, type PageShape } from '../../core/budget.js';
import { heatmapIndices } from '../../core/tensors/heatmap.js';
import { headFloat32, headPicture, MAX_WHOLE_HEAD_CELLS, rolloutOf, scanModel, thumbOf } from '../../core/model-attention/scan.js';
import { encodePalettePng } from '../../core/image/png.js';
import { makeTheme } from '../../../webview/kit/colour.js';
import { palette, type ModelViewOptions } from '../../../webview/views/model/common.js';
import { modelEntry } from '../../../webview/views/model-registry.js';
import { MODEL_VIEW_NAMES, THEME_KINDS, type ModelViewName } from '../../core/vocabulary.js';
import { drawSvg } from './spec-views.js';
import { PICTURE_MAX } from '../../../webview/views/model/head.js';
import { modelPage } from '../../pages/model-page-html.js';
import { printable } from '../terminal.js';
import { inputReplacedBy, writeWhole } from '../outputs.js';
import { sidecarPath } from '../../core/files/open.js';
import { choiceFlag, intFlag, isBad, type Args, type Io } from '../args.js';
import { splitPageData, type ModelPageData } from '../../../webview/views/model/page-data.js';

/** The --html page embeds every head up to this many weights in all (16 MB of float32), else only the chosen one. */
export const HTML_ALL_HEADS_MAX = 4 * 1024 * 1024;

const deflate = (b: Uint8Array) => new Uint8Array(deflateSync(b));

/** A file next to this module in dist/ (the bundled CLI) or in the repository (tests run the sources). */
function asset(...candidates: string[]): string | undefined {
  return candidates.find((p) => existsSync(p));
}

/** `stdin`: standard input's bytes, already read and found to be a model's attention file. */
export function renderModelCommand(args: Args, io: Io, stdin?: Uint8Array): number {
  const { files, flags } = args;
  const usage = (message: string) => { io.err(`attn render: ${printable(message)}`); return 2; };
  if (files.length !== 1) return usage('name exactly one .safetensors, .npy or .npz file');
  const view = (flags.get('--view') ?? 'model') as ModelViewName;
  if (!MODEL_VIEW_NAMES.includes(view)) return usage(`--view must be one of ${MODEL_VIEW_NAMES.join(', ')} for a model's attention file`);
  const statFlag = choiceFlag(args, '--stat', STAT_NAMES);
  if (isBad(statFlag)) return usage(statFlag.error);
  const themeFlag = choiceFlag(args, '--theme', THEME_KINDS);
  if (isBad(themeFlag)) return usage(themeFlag.error);
  const stat = statFlag ?? 'entropy', theme = themeFlag ?? 'light';
  const numbers = [intFlag(args, '--layer', 0), intFlag(args, '--head', 0), intFlag(args, '--token', -1), intFlag(args, '--width', 900), intFlag(args, '--input', 0)];
  const bad = numbers.find(isBad);
  if (bad) return usage(bad.error);
  const [layer, head, tokenFlag, width, input] = numbers as number[];
  const out = flags.get('--out'), html = flags.get('--html');
  if (out === true || html === true) return usage('--out and --html need a file name');
  if (typeof out === 'string' && !/\.(svg|png)$/i.test(out)) return usage('--out must name a .svg or .png file');
  if (typeof out === 'string' && /\.png$/i.test(out) && view === 'finder') return usage('the finder is a table: write it as .svg or --html (a PNG from the command line is a heatmap without text)');
  const tensor = flags.get('--tensor');
  const softmax = flags.has('--softmax');
  let page: string | undefined, picture: string | Uint8Array | undefined;
  let place = (message: string) => message;
  try {
    // A spec that references the file ({ "attention": { "file" } }) opens it with its tensor and tokens;
    // a spec that computes its own attention shows one input's heads (--input, the first by default).
    const target = modelTarget(files[0], { input, ...(typeof tensor === 'string' ? { tensor } : {}) }, io);
    if (typeof target === 'number') return target;
    place = target.place;
    // Checked before the file is opened: nothing the command reads may be what it writes.
    const inputs = [files[0], target.path, sidecarPath(target.path)];
    for (const [flag, file] of [['--out', out], ['--html', html]] as const) {
      const replaced = typeof file === 'string' ? inputReplacedBy(file, inputs) : undefined;
      if (replaced !== undefined) return usage(`${flag} ${file} is ${replaced}, a file this command reads; name another file`);
    }
    const a = openTarget(target, stdin);
    try {
      if (layer >= a.layers) return usage(`--layer ${layer}, but the file has ${a.layers} layer(s), numbered from 0`);
      if (head >= a.heads) return usage(`--head ${head}, but the file has ${a.heads} head(s), numbered from 0`);
      if (tokenFlag >= a.n) return usage(`--token ${tokenFlag}, but the file has ${a.n} token(s), numbered from 0`);
      const token = tokenFlag >= 0 ? tokenFlag : a.n - 1;
      const total = a.layers * a.heads;
      const svg = view === 'model' && (typeof out === 'string' ? /\.svg$/i.test(out) : typeof html !== 'string');
      // The budgets (src/core/budget.ts), from the shapes, before anything is read: the thumbnails at
      // a side they fit (thumbOf: the header's warnings say so), an SVG grid refused when even that
      // would be too big to write or open.
      const tooBig = svg ? overBudget(MODEL_SVG, modelSvgBytes(a.layers, a.heads, thumbOf(a).thumb), `${a.layers} layers × ${a.heads} heads`, 'write the grid as --out FILE.png (the thumbnails alone) or as an --html page') : undefined;
      if (tooBig) { io.err(printable(`${files[0]}: ${tooBig}`)); return 1; }
      // A head drawn whole (an SVG or PNG of it) past the cells a whole head may have: refused from
      // the shape, before the scan reads every head of the file (minutes at 32,768 tokens).
      if ((view === 'head' || view === 'head-tokens') && (typeof out === 'string' || typeof html !== 'string') && a.n * a.n > MAX_WHOLE_HEAD_CELLS) {
        io.err(printable(`${files[0]}: a head of ${a.n.toLocaleString('en-US')} tokens is not drawn whole (${(a.n * a.n).toLocaleString('en-US')} weights, over the ${MAX_WHOLE_HEAD_CELLS.toLocaleString('en-US')} a whole head may have): write it with --html FILE.html (the head as a picture) or open it in the model editor (a map of tiles)`));
        return 1;
      }
      const leftOut: string[] = [];
      const { header, thumbnails } = scanModel(a, { softmax });
      // Only the rows' sums are the softmax's to mend (not the reader's notes or the budgets').
      for (const w of header.warnings) io.err(printable(`${files[0]}: warning: ${w}${softmax || !w.endsWith('softmax?') ? '' : ' (--softmax applies it)'}`));
      // The page carries the rollout up to 512 tokens (n³ per layer; the rollout view asks for it up to 1,024).
      const wantRollout = view === 'rollout' || (typeof html === 'string' && a.n <= 512);
      const refused = wantRollout ? rolloutRefusal(a.layers, a.n) : undefined;
      if (refused && view === 'rollout') { io.err(printable(`${files[0]}: ${refused}`)); return 1; }
      // What the page carries of the heads: every one (up to HTML_ALL_HEADS_MAX weights), the chosen one
      // whole, or, past the page's budget, the chosen one as the editor's picture of a big head.
      const pageShape: PageShape = { layers: a.layers, heads: a.heads, tokens: a.n, thumb: header.thumb, wholeHeads: 0, pictureSide: 0, rollout: wantRollout && !refused };
      const pictureSide = Math.min(a.n, SENT_PICTURE_MAX);
      let carried: 'all' | 'one' | 'picture' = 'one';
      if (typeof html === 'string') {
        if (total * a.n * a.n <= HTML_ALL_HEADS_MAX && modelPageBytes({ ...pageShape, wholeHeads: total }) <= MODEL_PAGE.max) carried = 'all';
        else if (modelPageBytes({ ...pageShape, wholeHeads: 1 }) > MODEL_PAGE.max) {
          const over = overBudget(MODEL_PAGE, modelPageBytes({ ...pageShape, pictureSide }), `${a.layers} layers × ${a.heads} heads × ${a.n} tokens`, 'render it as an SVG or PNG');
          if (over) { io.err(printable(`${files[0]}: ${over}`)); return 1; }
          carried = 'picture';
          leftOut.push(overBudget(MODEL_PAGE, modelPageBytes({ ...pageShape, wholeHeads: 1 }), `a ${a.n}×${a.n} head`, `it holds the head of --layer ${layer} --head ${head} as a ${pictureSide}×${pictureSide} picture (each pixel the strongest weight of its block; no exact weights on hover)`)!);
        }
      }
      for (const line of leftOut) io.err(printable(`${files[0]}: warning: ${line}`));
      header.warnings.push(...leftOut);
      const rollout = wantRollout && !refused ? rolloutOf(a, { softmax }) : undefined;
      // The head whole: for an SVG or PNG of the head (drawn pooled from it), and for a page that carries it.
      const wholeHead = ((view === 'head' || view === 'head-tokens') && (typeof out === 'string' || typeof html !== 'string')) || (typeof html === 'string' && carried !== 'picture');
      const weights = wholeHead ? headFloat32(a, layer, head, { softmax }) : undefined;
      const data: ModelViewData = { header, thumbnails, ...(weights ? { head: { layer, head, weights } } : {}), ...(rollout ? { rollout } : {}) };
      const options: ModelViewOptions = { theme: makeTheme(theme), width, interactive: false, layer, head, token, stat, sort: flags.has('--sort'), k: 3, deflate };
      if (typeof html === 'string') {
        const heads: Record<string, string> = {};
        const pictures: NonNullable<ModelPageData['pictures']> = {};
        if (carried === 'all') {
          for (let l = 0; l < a.layers; l++) for (let h = 0; h < a.heads; h++) heads[`${l}:${h}`] = float32Base64(l === layer && h === head && weights ? weights : headFloat32(a, l, h, { softmax }));
        } else if (carried === 'picture') {
          const p = headPicture(a, layer, head, { softmax });
          pictures[`${layer}:${head}`] = { res: p.res, indices: Buffer.from(p.indices.buffer, p.indices.byteOffset, p.indices.byteLength).toString('base64'), max: p.max };
        } else if (weights) {
          heads[`${layer}:${head}`] = float32Base64(weights);
        }
        const script = asset(join(__dirname, 'model-webview.js'), join(__dirname, '..', '..', '..', 'dist', 'model-webview.js'));
        const css = asset(join(__dirname, '..', 'media', 'model.css'), join(__dirname, '..', '..', '..', 'media', 'model.css'));
        if (!script || !css) { io.err('attn render: the model page\'s script is not built: run npm run build'); return 1; }
        const pageData: ModelPageData = {
          header, thumbnails: bytesBase64(thumbnailIndices(thumbnails, header.thumb)), heads,
          ...(carried === 'picture' ? { pictures } : {}),
          ...(rollout ? { rollout: float32Base64(rollout) } : {}),
          initial: { view, layer, head, token, stat },
        };
        // The heads and the rollout after the script: the grid is painted before the parser reads them.
        const { first, late } = splitPageData(pageData);
        page = modelPage({ title: basename(files[0]), script: readFileSync(script, 'utf8'), css: readFileSync(css, 'utf8'), data: first, late });
      }
      if (typeof out === 'string' && /\.png$/i.test(out)) picture = heatmapPng(data, view, options);
      else if (typeof out === 'string' || typeof html !== 'string') picture = svgOf(data, view, options);
    } finally {
      a.close();
    }
  } catch (e) {
    if (e instanceof TensorFileError) { io.err(printable(place(e.message))); return 1; }
    throw e;
  }
  const write = (file: string, content: string | Uint8Array) => {
    const failed = writeWhole(file, [content]);
    if (failed) {
      io.err(`attn render: cannot write ${printable(file)} (${failed})`);
      return false;
    }
    io.out(`wrote ${printable(file)}`);
    return true;
  };
  if (typeof html === 'string' && page !== undefined && !write(html, page)) return 1;
  if (picture !== undefined) {
    if (typeof out === 'string') { if (!write(out, picture)) return 1; }
    else io.out(picture as string);
  }
  return 0;
}

/** Base64 of a float32 array's bytes, by Node's encoder (the pure one built 16,384 thumbnails' string in pieces, 5 s of it collecting garbage). */
function float32Base64(a: Float32Array): string {
  return bytesBase64(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
}

function bytesBase64(a: Uint8Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

export function svgOf(data: ModelViewData, view: ModelViewName, options: ModelViewOptions): string {
  const draw = modelEntry(view)?.render;
  if (!draw) throw new Error(`unknown model view "${String(view)}"`);
  return drawSvg((container) => draw(container, data, options));
}

/** The heatmap alone as a PNG: the thumbnails' grid (1 px apart), or the head's or rollout's matrix. */
export function heatmapPng(data: ModelViewData, view: ModelViewName, options: ModelViewOptions): Uint8Array {
  const { header } = data;
  const pal = palette(options.theme);
  if (view === 'model') {
    const t = header.thumb, gap = 1;
    const w = header.heads * (t + gap) - gap, h = header.layers * (t + gap) - gap;
    const indices = new Uint8Array(w * h);
    for (let l = 0; l < header.layers; l++) {
      for (let hd = 0; hd < header.heads; hd++) {
        const offset = (l * header.heads + hd) * t * t;
        heatmapIndices(data.thumbnails, offset, t, t, t, maxOf(data.thumbnails, offset, offset + t * t), indices, l * (t + gap) * w + hd * (t + gap), w);
      }
    }
    return encodePalettePng(w, h, indices, pal, options.deflate);
  }
  const n = header.tokens;
  const matrix = view === 'head' || view === 'head-tokens' ? data.head?.weights : data.rollout;
  if (!matrix) throw new TensorFileError(`${header.file}: ${(view === 'rollout' ? rolloutRefusal(header.layers, n) : undefined) ?? `nothing to draw for the ${view} view`}`);
  const res = Math.min(n, PICTURE_MAX);
  let picture: Float32Array = matrix;
  if (res < n) { picture = new Float32Array(res * res); poolMax(matrix, n, res, picture); }
  return encodePalettePng(res, res, heatmapIndices(picture, 0, res, res, res, maxOf(matrix)), pal, options.deflate);
}
