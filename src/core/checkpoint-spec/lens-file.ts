// A real head's lens as the files that hold it: the spec's text (one row of numbers a line) and its
// tensor file's bytes, named as the desktop and the web both name them. Pure: the desktop writes them
// with node:fs (host/checkpoint-run/lens-files.ts, which also keeps a lens from replacing other files),
// the web through workspace.fs (host/web/model-run/web-lens.ts).
import { lensSpec, type LensSpec } from './lens-spec.js';
import { windowLens, windowRange, windowSentence, type WindowedLens } from './lens-window.js';
import { DEFAULT_MAX_BYTES } from '../json/json-tree.js';
import { writeSafetensors } from '../tensors/safetensors-write.js';
import type { HeadLens } from '../checkpoint/types.js';

/** The start of the `about` a lens's tensor file says in its metadata: a file a lens wrote says it. */
export const LENS_ABOUT = 'Attention Lens: ';

/** A file name's stem from a model's name and a head: "gpt2-layer3-head5" (the last part of a path, made a safe name). */
export function lensStem(model: string, layer: number, head: number): string {
  const last = model.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? '';
  const name = last.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '') || 'model';
  return `${name.slice(0, 60)}-layer${layer + 1}-head${head + 1}`;
}

/** The tensor file of the spec at `specPath`: <stem>.safetensors beside it. */
export function lensTensorPath(specPath: string): string {
  return specPath.replace(/(\.attn)?\.json$/i, '') + '.safetensors';
}

/**
 * The save dialog's filter. VS Code's own dialog (code-server's, and the desktop's when native dialogs
 * are off) compares a typed name's last extension with the filter's and appends the first when none
 * matches; "json" beside "attn.json" keeps x.attn.json as it is, where "attn.json" alone made it
 * x.attn.json.attn.json. A name typed without extension still gets .attn.json.
 */
export const LENS_SAVE_FILTERS: Record<string, string[]> = { 'Attention Lens spec': ['attn.json', 'json'] };

/** The spec path for a name the save dialog gave: a doubled ".attn.json.attn.json" written once. */
export function lensSpecPath(chosen: string): string {
  return chosen.replace(/(\.attn\.json)(?:\.attn\.json)+$/i, '$1');
}

/**
 * The spec's text: JSON with each row of numbers on one line (a [rows][cols] of weights is read as a
 * grid), so a band of 2,048 × 2,048 is 8 MB of JSON and not 50 (one number a line), within what a spec may be.
 */
export function lensSpecText(spec: Record<string, unknown>): string {
  // A row becomes a marked string first; the mark holds a NUL and a fresh nonce, so no token's text can pose as one.
  const nonce = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('');
  const mark = `\u0000row-${nonce}-`;
  const rows: string[] = [];
  const text = JSON.stringify(spec, (_key, value: unknown) => (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'number')
    ? `${mark}${rows.push(JSON.stringify(value)) - 1}` : value), 2);
  const marked = new RegExp(`"${JSON.stringify(mark).slice(1, -1).replace(/\\/g, '\\\\')}(\\d+)"`, 'g');
  return `${text.replace(marked, (_, k: string) => rows[Number(k)])}\n`;
}

/** The spec and its tensors for a head: the whole run, or the window holding the query that a spec can hold (said in its title and description). */
export function lensSpecFor(lens: HeadLens, options: { model: string; query: number; tensorFile: string }): LensSpec & { window?: WindowedLens } {
  const window = windowLens(lens, options.query);
  if (!window) return lensSpec(lens, { tensorFile: options.tensorFile, model: options.model, query: options.query });
  const { spec, tensors } = lensSpec(window.lens, { tensorFile: options.tensorFile, model: options.model, query: window.query - window.first, first: window.first });
  spec.title = `${String(spec.title)}, ${windowRange(window)}`;
  spec.description = `${windowSentence(window, lens.bidirectional === true)} ${String(spec.description)}`;
  return { spec, tensors, window };
}

/** The spec's text and its tensor file's bytes (named `tensorFile` in the spec); throws with a sentence when the spec would be too large. */
export function lensFileContents(lens: HeadLens, options: { model: string; query: number; tensorFile: string }): { text: string; tensorBytes: Uint8Array } {
  const { spec, tensors, window } = lensSpecFor(lens, options);
  const text = lensSpecText(spec);
  // The window is chosen to fit; long token texts could still pass the reader's cap: said, nothing written.
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > DEFAULT_MAX_BYTES) throw new Error(`the spec would be ${(bytes / 2 ** 20).toFixed(1)} MB, over the ${DEFAULT_MAX_BYTES / 2 ** 20} MB a spec may be; a shorter text gives a smaller one`);
  const about = `${LENS_ABOUT}${options.model}, layer ${lens.layer + 1} head ${lens.head + 1}${window ? `, ${windowRange(window)}` : ''}`;
  return { text, tensorBytes: writeSafetensors(tensors, { about }) };
}
