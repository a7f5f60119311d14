// `attn inspect FILE [--json] [--tensor NAME] [--input N]`: what is in a model's attention (a
// .safetensors, .npy or .npz file, a spec that references one, or a spec that computes its own, one
// input of it): its shape, tokens, every head's statistics and the rollout. Every kind is read through
// the one attention source (core/tensors/attention-source.ts), so a spec's heads get the same
// statistics as a real model's. --json prints the contract; without it, a table of the heads.
import { dirname, resolve } from 'node:path';
import { attentionOf, openAttention } from '../core/files/open.js';
import { memorySource } from '../core/tensors/source.js';
import type { AttentionSource } from '../core/tensors/attention-source.js';
import { checkSidecarBeside, resolveBeside } from '../core/files/spec-files.js';
import { analyze } from '../core/index.js';
import { inputAttention } from '../core/result/input-attention.js';
import { formatProblem, hasErrors } from '../core/json/problems.js';
import { DEFAULT_MAX_BYTES } from '../core/json/json-tree.js';
import { readBudget, readSpecFile } from './read-file.js';
import { inspectAttention, inspectOverLimit, type InspectJson } from '../core/tensors/inspect.js';
import { TensorFileError } from '../core/tensors/source.js';
import { STAT_NAMES } from '../core/tensors/head-stats.js';
import { rolloutRefusal } from '../core/tensors/rollout.js';
import { formatNumber } from './table.js';
import { printable, printableJson } from './terminal.js';
import { intFlag, isBad, type Args, type Io } from './args.js';

export function inspectCommand(args: Args, maxBytes: number, io: Io): number {
  const { files } = args;
  const tensor = args.flags.get('--tensor');
  const input = intFlag(args, '--input', 0);
  if (isBad(input)) { io.err(`attn inspect: ${input.error}`); return 2; }
  const options = { maxBytes, input, ...(typeof tensor === 'string' ? { tensor } : {}) };
  if (files.length !== 1) { io.err('attn inspect: name exactly one .safetensors, .npy or .npz file, or a spec that references one'); return 2; }
  let outcome;
  let place = (message: string) => message;
  try {
    // A spec that references a file ({ "attention": { "file", "tensor" }, "tokens" }) opens that file with its tokens.
    const target = modelTarget(files[0], options, io);
    if (typeof target === 'number') return target;
    place = target.place;
    const attention = openTarget(target);
    try {
      const tooBig = inspectOverLimit(attention);
      if (tooBig) { io.err(printable(tooBig)); return 1; }
      outcome = inspectAttention(attention);
    } finally {
      attention.close();
    }
  } catch (e) {
    if (e instanceof TensorFileError) { io.err(printable(place(e.message))); return 1; }
    throw e;
  }
  for (const w of outcome.warnings) io.err(printable(w));
  io.out(args.flags.has('--json') ? printableJson(JSON.stringify(outcome.json, null, 2)) : inspectReport(outcome.json));
  return 0;
}

/** Most bytes of a model file read from standard input (a file on disk is read at offsets, never whole). */
export const MAX_STDIN_MODEL_BYTES = 256 * 1024 * 1024;

/** The attention file a target names: the file on disk, or "-", standard input read into memory within its budget (or `stdin`, its bytes already read). */
export function openTarget(target: ModelTarget, stdin?: Uint8Array): AttentionSource {
  if (target.computed) return target.computed;
  if (stdin) return attentionOf(memorySource('standard input', stdin), target.options);
  if (target.path !== '-') return openAttention(target.path, target.options);
  const bytes = readBudget(0, MAX_STDIN_MODEL_BYTES);
  if (bytes.length > MAX_STDIN_MODEL_BYTES) throw new TensorFileError(`standard input: more than ${MAX_STDIN_MODEL_BYTES} bytes; give the file's name instead (a file is read at offsets, not whole)`);
  return attentionOf(memorySource('standard input', bytes), target.options);
}

export interface ModelTarget {
  path: string;
  options: { tensor?: string; tokens?: string[] };
  /** A problem with the file as the terminal shows it: for a spec, at the place in the spec (FILE:LINE:COL: attention.file: …). */
  place(message: string): string;
  /** A spec that computes its own attention: one input of it, computed, its heads read where the compute left them. */
  computed?: AttentionSource;
}

/**
 * The attention to read and how: the file itself, the one a spec references (beside it, with its
 * tokens), or a spec's own, computed (its input `options.input`, the first by default).
 */
export function modelTarget(file: string, options: { tensor?: string; maxBytes?: number; input?: number }, io: Io): ModelTarget | number {
  if (!/\.json$/i.test(file)) return { path: file, options: options.tensor === undefined ? {} : { tensor: options.tensor }, place: (m) => m };
  const text = readSpecFile(file, options.maxBytes ?? DEFAULT_MAX_BYTES, io);
  if (text === undefined) return 1;
  // The spec's caps bound its compute (tokens² × heads), so computing it here is as safe as attn compute.
  const analysis = analyze(text, { maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES, ...(io.helper ? { helper: io.helper } : {}) });
  const { problems, reference } = analysis;
  for (const p of problems) io.err(printable(formatProblem(file, text, p)));
  if (hasErrors(problems)) return 1;
  if (analysis.model) { io.err(`attn: ${printable(file)} runs a model on a text; give its folder and text to attn run`); return 2; }
  if (!reference) {
    const inputs = analysis.data?.inputs ?? [];
    const index = options.input ?? 0;
    if (index >= inputs.length) { io.err(`attn: --input ${index}: ${printable(file)} has ${inputs.length} input(s), counted from 0`); return 2; }
    const input = inputs[index];
    return { path: file, options: {}, place: (m) => m, computed: inputAttention(input, `${file} (input ${JSON.stringify(input.name)})`) };
  }
  // Problems with the file are the spec's problems, shown where it names the file (a count of
  // tokens that does not match the file's, where it lists them).
  const place = (message: string) => {
    const atTokens = reference.tokensSpan !== undefined && /token\(s\) given, but/.test(message);
    const problem = { severity: 'error' as const, path: atTokens ? 'tokens' : 'attention.file', message, span: atTokens ? reference.tokensSpan! : reference.span };
    return formatProblem(file, text, problem);
  };
  let path: string;
  try {
    path = resolveBeside(dirname(resolve(file)), reference.file);
    checkSidecarBeside(dirname(resolve(file)), path);
  } catch (e) {
    if (e instanceof TensorFileError) { io.err(printable(place(e.message))); return 1; }
    throw e;
  }
  const tensor = options.tensor ?? reference.tensor;
  return { path, options: { ...(tensor !== undefined ? { tensor } : {}), ...(reference.tokens ? { tokens: [...reference.tokens] } : {}) }, place };
}

const cell = (v: number | null) => (v === null ? '—' : formatNumber(v));
/** A token as the report quotes it: at most 40 characters (a 1 MB token printed 13 MB of report). */
const quoted = (t: string) => JSON.stringify(t.length > 40 ? `${t.slice(0, 40)}…` : t);

/** Rows of cells right-aligned under their headings (the widths from a pass over every row). */
function columns(rows: readonly string[][]): string[] {
  const widths = rows[0].map((_, j) => rows.reduce((w, r) => Math.max(w, r[j].length), 0));
  return rows.map((r) => r.map((c, j) => c.padStart(widths[j])).join('  '));
}

export function inspectReport(r: InspectJson): string {
  const shown = r.tokenTexts.slice(0, 12).map(quoted).join(' ');
  const lines = [
    `${r.file}: ${r.dtype}, ${r.layers} layer(s) × ${r.heads} head(s) × ${r.tokens} tokens`,
    r.tokenTexts.length ? `tokens: ${shown}${r.tokenTexts.length > 12 ? ' …' : ''}` : 'tokens: none given (duplicateToken and induction need them)',
    '',
    ...columns([['layer', 'head', ...STAT_NAMES], ...r.stats.map((s) => [String(r.layerNumbers?.[s.layer] ?? s.layer), String(s.head), ...STAT_NAMES.map((k) => cell(s[k]))])]),
  ];
  if (r.rollout) {
    const last = r.rollout[r.tokens - 1];
    const top = last.map((w, j) => ({ w, j })).sort((a, b) => b.w - a.w).slice(0, 5);
    lines.push('', `rollout: the last token's information came most from ${top.map(({ w, j }) => `${j}${r.tokenTexts[j] !== undefined ? ` ${quoted(r.tokenTexts[j])}` : ''} (${formatNumber(w)})`).join(', ')}`);
  } else {
    lines.push('', `rollout: left out: ${rolloutRefusal(r.layers, r.tokens) ?? 'not computed'}`);
  }
  return lines.map(printable).join('\n');
}
