// `attn run DIR (--text T | --text-file F) [--max-tokens N] [--precision f32|f64] [--json] [--out run.safetensors]`: runs a
// real checkpoint (a Hugging Face model folder) over a text with our own forward pass, and prints
// every head's attention and the five most likely next tokens (--json: the issue's contract), or a
// short summary. An encoder (BERT) predicts no next token: its "next" is empty, and "masked" holds
// the five most likely tokens at each mask token of the text ({ position, guesses }), or "note" says
// why it guesses nowhere. --out writes the attention as [layers, heads, n, n] F32 safetensors with
// the tokens in __metadata__.tokens, the file `attn inspect` and the model editor read. A folder that
// cannot run gets exit 1 and one line naming the file or tensor at fault; a command line it cannot
// read, 2. --precision says the forward's numeric form: f32 (the default: float32 activations and
// products on the weights as stored) or f64 (the exact mode, checked against PyTorch's float64).
// A float32 run whose every head would pass DENSE_ATTENTION_MAX keeps each layer's q and k instead
// (model.ts runPlan; in a private temporary file past QK_MEMORY_MAX, deleted at the end): --json
// then prints each head's statistics from the run's own pass ("heads") in place of "attention" (as it
// does whenever "attention" would pass the printed budget). --out writes every head's n × n and the
// analyses read whole heads: those run dense, within the memory budget.
import { readModelFolder, type ModelFolder } from '../../core/checkpoint-files/model-folder.js';
import { ModelError } from '../../core/checkpoint/error.js';
import { loadModel, plannerFor, runText, type AttentionChoice } from '../../core/checkpoint/model.js';
import { fileQkStore } from '../../core/checkpoint-files/qk-file-store.js';
import type { RunResult } from '../../core/checkpoint/types.js';
import { tokenizerFrom } from '../../core/tokenizer/index.js';
import { cacheFolder, folderStore, tokenizerCache } from '../../core/files/tokenizer-store.js';
import { TokenizerError } from '../../core/tokenizer/tokenizer.js';
import { TensorFileError } from '../../core/tensors/source.js';
import { safetensorsParts } from '../../core/tensors/safetensors-write.js';
import { overBudget, PRINTED } from '../../core/budget.js';
import { PRECISIONS } from '../../core/checkpoint/precision.js';
import { choiceFlag, intFlag, isBad, type Args, type Io } from '../args.js';
import { readSpecText } from '../read-file.js';
import { inputReplacedBy, unwritable, writeWhole } from '../outputs.js';
import { printable, printableJson } from '../terminal.js';
import { analyzeText, type AnalyzedRun } from '../../core/model-analysis/analyze-text.js';
import { parseHeads } from '../../core/model-analysis/head-list.js';
import { analysisFlags } from './analysis-flags.js';
import { analysisJson, analysisLines } from './analysis-json.js';

/** The numbers --json prints: attn compute's budget, named for this command. */
const RUN_PRINTED = { ...PRINTED, what: 'attn run --json\'s output' };

export async function runModelCommand(args: Args, maxBytes: number, io: Io): Promise<number> {
  const usage = (message: string) => { io.err(`attn run: ${printable(message)}`); return 2; };
  if (args.files.length !== 1) return usage('name exactly one model folder (config.json, the weights and the tokenizer\'s files)');
  const text = args.flags.get('--text'), textFile = args.flags.get('--text-file');
  if ((text === undefined) === (textFile === undefined)) return usage('give the text as --text T or --text-file FILE (one of them)');
  const maxTokens = intFlag(args, '--max-tokens', 0);
  if (isBad(maxTokens)) return usage(maxTokens.error);
  if (args.flags.has('--max-tokens') && maxTokens < 1) return usage('--max-tokens takes a whole number ≥ 1');
  const precision = choiceFlag(args, '--precision', PRECISIONS);
  if (isBad(precision)) return usage(precision.error);
  const analysis = analysisFlags(args);
  if (isBad(analysis)) return usage(analysis.error);
  const out = args.flags.get('--out');
  const json = args.flags.has('--json');
  let input: string;
  if (typeof textFile === 'string') {
    const read = readSpecText(textFile, maxBytes, 'a text file');
    if ('error' in read) { io.err(printable(`${textFile}: ${read.error}`)); return 1; }
    input = read.text;
  } else {
    input = String(text);
  }
  const started = performance.now();
  let folder: ModelFolder | undefined;
  let kept: { close(): void } | undefined;
  try {
    folder = readModelFolder(args.files[0]);
    const inputs = [...folder.files, ...(typeof textFile === 'string' ? [textFile] : [])];
    const replaced = typeof out === 'string' ? inputReplacedBy(out, inputs) : undefined;
    if (replaced !== undefined) return usage(`--out ${out} is ${replaced}, a file this command reads; name another file`);
    // Before the run (minutes on a big model), not after it: a pipe or a folder cannot take the file.
    const cannot = typeof out === 'string' ? unwritable(out) : undefined;
    if (cannot !== undefined) return usage(`--out ${out} cannot be written (${cannot}); name a file`);
    const model = loadModel(folder.configText, folder.tensors, { where: folder.where, precision: precision ?? 'f32', preload: true });
    const store = args.flags.has('--no-cache') ? undefined : cliTokenizerStore();
    const tokenizer = tokenizerFrom(folder.tokenizerFiles, tokenizerCache(folder.folder, folder.tokenizerFiles, store));
    const loadMs = performance.now() - started;
    const c = model.config;
    if (analysis?.ablate !== undefined) {
      const heads = parseHeads(analysis.ablate, c.layers, c.heads);
      if ('error' in heads) return usage(`--ablate: ${heads.error}`);
      analysis.request.ablate = { ...analysis.request.ablate!, ...heads };
    }
    // The analyses and --out read every head whole: dense, within the budget. --json prints the
    // heads' statistics from the run's pass where it cannot print the heads themselves.
    const jsonFits = (n: number) => jsonRefusal(c.layers, c.heads, n, analysis?.request.norms ? 2 : 1) === undefined;
    const attention = (n: number): AttentionChoice => (analysis || typeof out === 'string' ? 'dense' : json && !jsonFits(n) ? 'qk' : 'auto');
    const qkStore = fileQkStore, planOf = plannerFor(model, { attention, qkStore });
    const options = {
      ...(maxTokens > 0 ? { maxTokens } : {}), attention, qkStore,
      refuse: (n: number) => (json && planOf(n).attention === 'dense' ? jsonRefusal(c.layers, c.heads, n, analysis?.request.norms ? 2 : 1) : undefined),
    };
    const result: RunResult | AnalyzedRun = analysis ? analyzeText(model, tokenizer, input, analysis.request, options) : runText(model, tokenizer, input, options);
    kept = result.qk?.source;
    result.timings.loadMs += loadMs;
    if (typeof out === 'string') {
      const failed = writeAttention(out, result);
      if (failed) { io.err(printable(`${out}: cannot write (${failed})`)); return 1; }
    }
    io.out(json ? printableJson(runJson(result)) : summary(result, args.files[0], (id) => tokenizer.decodeOne(id)));
    return 0;
  } catch (e) {
    if (e instanceof ModelError || e instanceof TokenizerError || e instanceof TensorFileError) {
      io.err(printable(e.message));
      return 1;
    }
    throw e;
  } finally {
    kept?.close();
    folder?.close();
  }
}

/** The most tokens whose --json attention (layers × heads × n² numbers) is within the printed budget. */
export function jsonTokens(layers: number, heads: number, copies = 1): number {
  const per = layers * heads * copies;
  let n = Math.floor(Math.sqrt(RUN_PRINTED.max / per));
  // The square root's rounding, either way.
  while (per * (n + 1) ** 2 <= RUN_PRINTED.max) n++;
  while (n > 0 && per * n ** 2 > RUN_PRINTED.max) n--;
  return n;
}

/** The sentence refusing --json's output of n tokens, with the most that fit; undefined when it fits. */
export function jsonRefusal(layers: number, heads: number, n: number, copies = 1): string | undefined {
  const fits = jsonTokens(layers, heads, copies);
  const instead = fits > 0 ? `use --max-tokens ${fits} or fewer, or --out FILE.safetensors without --json` : 'use --out FILE.safetensors without --json';
  return overBudget(RUN_PRINTED, copies * layers * heads * n * n, `${copies > 1 ? `${copies} × ` : ''}${layers} layers × ${heads} heads × ${n}² ${copies > 1 ? 'weights and norms' : 'weights'}`, instead);
}

/** The tokenizer cache of the CLI: in the folder the environment names, none with ATTN_CACHE_DIR=off. */
function cliTokenizerStore() {
  const folder = cacheFolder();
  return folder === undefined ? undefined : folderStore(folder);
}

/** The --json answer: the model's shape (without contextLength) and the run's precision, ids, pieces, tokens, attention, next, timings. */
function runJson(r: RunResult | AnalyzedRun): string {
  const { type, layers, heads, kvHeads, dModel, headDim, vocab, precision } = r.model;
  const n = r.ids.length;
  // A run that kept q and k: each head's statistics from its own pass, not its n × n.
  const attention = r.qk
    ? { heads: r.qk.pass.stats, kept: { attention: 'qk', where: r.qk.where, bytes: r.qk.bytes } }
    : { attention: r.attention.map((layer) => Array.from({ length: heads }, (_, h) => Array.from({ length: n }, (_, i) => Array.from(layer.subarray((h * n + i) * n, (h * n + i + 1) * n))))) };
  return JSON.stringify({
    model: { type, layers, heads, kvHeads, dModel, headDim, vocab, precision },
    ids: r.ids, pieces: r.pieces, tokens: r.tokens, ...attention, next: r.next,
    ...(r.masked ? { masked: r.masked } : {}), ...(r.note !== undefined ? { note: r.note } : {}),
    ...('analyses' in r ? analysisJson(r.analyses, heads, n) : {}), timings: r.timings,
  });
}

function summary(r: RunResult | AnalyzedRun, dir: string, decode: (id: number) => string): string {
  const m = r.model;
  const ms = (v: number) => `${Math.round(v)} ms`;
  return [
    `${dir}: ${m.type}, ${m.layers} layers × ${m.heads} heads${m.kvHeads !== m.heads ? ` (${m.kvHeads} key/value heads)` : ''}, d_model ${m.dModel}, vocabulary ${m.vocab}`,
    `${r.ids.length} tokens: ${r.tokens.slice(0, 16).map((t) => JSON.stringify(t)).join(' ')}${r.ids.length > 16 ? ' …' : ''}`,
    ...guessLines(r),
    ...('analyses' in r ? analysisLines(r.analyses, decode) : []),
    ...(r.qk ? [`attention: each layer's queries and keys kept (${(r.qk.bytes / 2 ** 30).toFixed(2)} GB, ${r.qk.where === 'file' ? 'in a temporary file' : 'in memory'}), not every head's ${r.ids.length} × ${r.ids.length}`] : []),
    `load ${ms(r.timings.loadMs)}, tokenize ${ms(r.timings.tokenizeMs)}, forward ${ms(r.timings.forwardMs)}`,
  ].map(printable).join('\n');
}

/** The next tokens (a decoder), the guess at each mask token (an encoder), or the sentence saying why there is none. */
function guessLines(r: RunResult): string[] {
  const listed = (tokens: RunResult['next']) => tokens.map((t) => `${JSON.stringify(t.token)} ${t.p.toFixed(4)}`).join(', ');
  if (r.masked) return [...r.masked.map((g) => `masked at ${g.position}: ${listed(g.guesses)}`), ...(r.note !== undefined ? [r.note] : [])];
  return r.note !== undefined ? [r.note] : [`next: ${listed(r.next)}`];
}

/** Writes the attention file part by part (a long run's attention is hundreds of MB), whole or not at all; why not when it cannot. */
function writeAttention(path: string, r: RunResult): string | undefined {
  const n = r.ids.length;
  const attention = { name: 'attention', dtype: 'F32' as const, shape: [r.attention.length, r.model.heads, n, n], data: r.attention };
  return writeWhole(path, safetensorsParts([attention], { tokens: JSON.stringify(r.tokens) }));
}
