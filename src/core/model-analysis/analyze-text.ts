// A run with the analyses beyond the pattern (types.ts): the text tokenized as a plain run's, the
// greedy tokens generated first (the run then covers prompt and generated), then one forward pass
// with the probes that read it (norms, logit lens, attribution, and what an ablation or patching run
// starts from), then the ablated run, started at the first ablated layer from the residual stream the
// pass kept, and the patched runs, each started at its head's layer from the corrupted run's. The
// memory it takes is estimated from the shapes before anything is run, beside the run's own.
import type { ModelConfig } from '../checkpoint/config.js';
import { ModelError } from '../checkpoint/error.js';
import { forward } from '../checkpoint/forward.js';
import { DEFAULT_RUN_BYTES, guessing, preloadFor, runRefusal, RunStopped, tokenizeFor, topNext, type LoadedModel, type RunOptions } from '../checkpoint/model.js';
import { summaryOf } from '../checkpoint/config.js';
import { numeric, type Floats, type Precision } from '../checkpoint/precision.js';
import type { ForwardProbe } from '../checkpoint/probe.js';
import type { RunResult } from '../checkpoint/types.js';
import type { Tokenizer } from '../tokenizer/tokenizer.js';
import { attributionProbe, type AttributionProbe } from './attribution.js';
import { generateIds } from './generation.js';
import { ablationProbe, keeper, patchProbe, together } from './interventions.js';
import { lensProbe } from './logit-lens.js';
import { normsProbe } from './norms.js';
import { tokenArgument } from './token-argument.js';
import { ABLATION_MODES, type Ablation, type AnalysisRequest, type Analyses } from './types.js';

export interface AnalyzedRun extends RunResult {
  analyses: Analyses;
}

/** A kept model's last unablated run (LoadedModel.analysisKept), what its ablation toggles start from. */
interface BaseRun {
  /** The prompt's ids and the tokens generated after them (a toggle does not generate them again). */
  prompt: readonly number[];
  generated: readonly number[];
  ids: readonly number[];
  precision: Precision;
  logits: Float64Array;
  attention: Float32Array[];
  /** Every layer's input residual stream (and, at index layers, the stream after the last). */
  inputs: Floats[];
  attribution: AttributionProbe;
}

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/** The most tokens --generate may add. */
export const MAX_GENERATED = 1024;

/** Why `request` cannot be asked of this model at all (before any text is read), or undefined. */
export function analysisRefusal(m: LoadedModel, request: AnalysisRequest): string | undefined {
  const c = m.config;
  const asked = [
    request.logitLens && 'the logit lens', request.target !== undefined && 'attribution', request.ablate && 'ablation',
    request.patchFrom !== undefined && 'patching', request.generate && 'generation',
  ].filter((s): s is string => typeof s === 'string');
  if (asked.length > 0 && c.block.head === 'mlm') return `this ${c.type} model is an encoder: it predicts no next token, so ${asked.join(', ')} cannot be computed (the value-weighted norms can)`;
  if (asked.length > 0 && m.names.head === undefined) return `this ${c.type} checkpoint was saved without its output head, so ${asked.join(', ')} cannot be computed`;
  if (request.contrast !== undefined && request.target === undefined) return 'a contrast token needs a target token: the logit difference is target − contrast';
  if (request.patchFrom !== undefined && (request.target === undefined || request.contrast === undefined)) return 'patching scores the target − contrast logit difference: give both a target and a contrast token';
  if (request.patchFrom !== undefined && request.generate) return 'patching compares two texts of the same tokens: it cannot be combined with generation';
  // The editor and specs pass heads as numbers: one past the layer's heads would be another row's head 0.
  const outside = request.ablate?.heads.find(({ layer, head }) => !Number.isInteger(layer) || !Number.isInteger(head) || layer < 0 || layer >= c.layers || head < 0 || head >= c.heads);
  if (outside) return `cannot ablate head ${outside.layer + 1}.${outside.head + 1}: the model has layers 1 to ${c.layers} of heads 1 to ${c.heads}`;
  if (request.ablate && !ABLATION_MODES.includes(request.ablate.mode)) return `an ablation is ${ABLATION_MODES.join(' or ')}, not ${JSON.stringify(String(request.ablate.mode)).slice(0, 40)}`;
  if (request.generate !== undefined && (!Number.isInteger(request.generate) || request.generate < 0 || request.generate > MAX_GENERATED)) return `generation takes a whole number of tokens from 0 to ${MAX_GENERATED}`;
  return undefined;
}

/** Bytes the analyses hold beyond the run itself, for n tokens. */
export function analysisBytes(c: ModelConfig, n: number, request: AnalysisRequest, bytes: number): number {
  const L = c.layers, H = c.heads, E = c.dModel, Z = c.heads * c.headDim;
  let extra = 0;
  if (request.norms) extra += L * H * (n * n + n) * bytes + H * n * E * bytes;
  if (request.logitLens) extra += L * n * E * bytes + 2 ** 23 * 4 + c.vocab * 8 * 2;
  if (request.ablate) extra += (L + 1) * n * E * bytes + L * H * n * n * 4;
  if (request.patchFrom !== undefined) extra += L * n * (E + Z) * bytes + L * H * n * n * 4;
  // The norms and the attribution read a layer's W_O whole, widened (float32; float64 from a float32
  // copy) and again as each head's rows: 8 bytes a number of W_O for float32 norms, 20 for float64
  // norms and for the attribution, always float64 (a 70B model's 8,192² W_O: 1.3 GB).
  const wide = request.target !== undefined || (request.norms && bytes === 8) ? 4 + 8 + 8 : request.norms ? 4 + 4 : 0;
  extra += Z * E * wide;
  return extra;
}

export function analyzeText(m: LoadedModel, tokenizer: Tokenizer, text: string, request: AnalysisRequest, options: RunOptions = {}): AnalyzedRun {
  const refused = analysisRefusal(m, request);
  if (refused) throw new ModelError(refused);
  const c = m.config, names = m.names, w = m.weights;
  const t0 = performance.now();
  const prompt = tokenizeFor(m, tokenizer, text, options);
  const target = request.target !== undefined ? tokenArgument(request.target, tokenizer, c.vocab, 'the target token') : undefined;
  const contrast = request.contrast !== undefined ? tokenArgument(request.contrast, tokenizer, c.vocab, 'the contrast token') : null;
  const corrupted = request.patchFrom !== undefined ? tokenizeCorrupted(m, tokenizer, request.patchFrom, options) : undefined;
  if (corrupted && corrupted.ids.length !== prompt.ids.length) {
    throw new ModelError(`the text to patch from is ${corrupted.ids.length} tokens and the text is ${prompt.ids.length}: patching needs two texts of the same number of tokens`);
  }
  const generate = request.generate ?? 0;
  const n = prompt.ids.length + generate;
  if (generate > 0 && n > c.contextLength && c.block.position === 'learned') {
    throw new ModelError(`${prompt.ids.length} tokens and ${generate} generated are more than the model's context length of ${c.contextLength}`);
  }
  const t1 = performance.now();
  const budget = options.budget ?? DEFAULT_RUN_BYTES;
  const refusal = refusalAt(m, request, n, options);
  if (refusal) throw new ModelError(withMostTokens(refusal, m, request, prompt.ids.length, generate, options));
  const stop = () => { if (options.stopped?.()) throw new RunStopped('the run was stopped'); };
  // Called after each layer of every pass (each generation step, the run, the ablated, corrupted and
  // patched runs) and each row of the logit lens: a cancelled run stops within one layer's work.
  const onLayer = (layer: number) => { options.onLayer?.(layer); stop(); };
  stop();
  // Every weight read first only where they fit beside the analyses' own memory too.
  const readMs = preloadFor(m, n, budget - analysisBytes(c, n, request, numeric(m.precision).bytes));
  const t1read = performance.now();
  const decode = (id: number) => tokenizer.decodeOne(id);

  const remember = m.keep && request.ablate !== undefined;
  const cached = remember ? m.analysisKept as BaseRun | undefined : undefined;
  const sameGeneration = cached && cached.precision === m.precision && sameIds(cached.prompt, prompt.ids) && cached.generated.length === generate;
  const generated = sameGeneration ? [...cached.generated] : generateIds(m, prompt.ids, generate, onLayer);
  const ids = [...prompt.ids, ...generated];
  const pieces = [...prompt.pieces, ...generated.map((id) => tokenizer.pieceOf?.(id) ?? decode(id))];
  const tokens = [...prompt.tokens, ...generated.map(decode)];

  // The one pass the reading analyses share; a kept model's ablation (the editor's toggles) keeps
  // every layer's input and the attribution's parts, so the next toggle on the same ids runs only
  // the ablated layers.
  const firstAblated = request.ablate && request.ablate.heads.length > 0 ? Math.min(...request.ablate.heads.map((h) => h.layer)) : undefined;
  const reusable = cached && !request.norms && !request.logitLens && !corrupted && cached.precision === m.precision && sameIds(cached.ids, ids) ? cached : undefined;
  const norms = request.norms ? normsProbe(c, names, w, n, m.precision) : undefined;
  const lens = request.logitLens ? lensProbe(c, names, w, m.precision) : undefined;
  const attribution = reusable?.attribution ?? (target !== undefined || remember ? attributionProbe(c, names, w) : undefined);
  const inputs = reusable ? undefined : remember ? keeper('layerInput') : firstAblated !== undefined ? keeper('layerInput', new Set([firstAblated])) : undefined;
  const clean = corrupted ? keeper('headOutputs') : undefined;
  let out: { logits: Float64Array; attention: Float32Array[]; logitsAt?: (position: number) => Float64Array };
  if (reusable) {
    out = reusable;
  } else {
    const probes = [norms?.probe, lens?.probe, attribution?.probe, inputs?.probe, clean?.probe].filter((p): p is ForwardProbe => p !== undefined);
    out = forward(c, names, w, ids, { precision: m.precision, onLayer, ...(probes.length ? { probe: together(probes) } : {}) });
    if (remember) m.analysisKept = { prompt: prompt.ids, generated, ids, precision: m.precision, logits: out.logits, attention: out.attention, inputs: inputs!.kept, attribution: attribution! } satisfies BaseRun;
    // A run of another text lets the kept base go; one of the same text (the norms, the lens) keeps it.
    else if (m.analysisKept && !sameIds((m.analysisKept as BaseRun).ids, ids)) m.analysisKept = undefined;
  }
  const layerInputs = reusable?.inputs ?? inputs?.kept;
  const next = out.logits.length > 0 ? topNext(out.logits, 5, decode) : [];
  const guess = guessing(m, pieces);
  const masked = guess.masked ? guess.at.map((position) => ({ position, guesses: topNext(out.logitsAt!(position), 5, decode) })) : undefined;

  const analyses: Analyses = {};
  if (norms) { analyses.norms = norms.norms; analyses.valueNorms = norms.valueNorms; }
  if (lens) analyses.logitLens = lens.finish(decode, stop);
  if (attribution && target !== undefined) analyses.attribution = attribution.finish(target, contrast);
  const difference = (logits: Float64Array, t: number, k: number | null) => logits[t] - (k === null ? 0 : logits[k]);
  if (request.ablate) {
    // Without a target, the difference is of the run's own most likely token (its raw logit).
    const t = target ?? next[0]?.id ?? 0, k = target !== undefined ? contrast : null;
    let logits = out.logits, attention = out.attention;
    if (firstAblated !== undefined) {
      const ablated = forward(c, names, w, ids, {
        precision: m.precision, onLayer, probe: ablationProbe(request.ablate.heads, request.ablate.mode, c.headDim),
        start: { layer: firstAblated, residual: layerInputs![firstAblated] },
      });
      logits = ablated.logits;
      attention = ablated.attention.map((a, layer) => (layer < firstAblated ? out.attention[layer] : a));
    }
    const ablation: Ablation = {
      heads: request.ablate.labels, mode: request.ablate.mode, next: topNext(logits, 5, decode),
      logitDiff: difference(logits, t, k), baseLogitDiff: difference(out.logits, t, k), target: t, contrast: k,
    };
    analyses.ablation = ablation;
    analyses.ablatedAttention = attention;
  }
  if (corrupted) analyses.patching = patching(m, corrupted.ids, clean!.kept, difference(out.logits, target!, contrast), (logits) => difference(logits, target!, contrast), onLayer);
  if (request.generate !== undefined) analyses.generated = generated.map((id) => ({ id, token: decode(id) }));
  const t2 = performance.now();
  return {
    model: { ...summaryOf(c), precision: m.precision }, ids, pieces, tokens, attention: out.attention, next, reused: 0,
    ...(masked ? { masked } : {}), ...(guess.note ? { note: guess.note } : {}),
    timings: { loadMs: readMs, tokenizeMs: t1 - t0, forwardMs: t2 - t1read },
    analyses,
  };
}

const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GB`;

/** Why a run of n tokens with the analyses of `request` cannot be made (memory, the caller's own refusal), or undefined. */
function refusalAt(m: LoadedModel, request: AnalysisRequest, n: number, options: RunOptions): string | undefined {
  const budget = options.budget ?? DEFAULT_RUN_BYTES;
  const extra = analysisBytes(m.config, n, request, numeric(m.precision).bytes);
  if (extra >= budget) return `the analyses asked for over ${n} tokens take about ${gb(extra)}, over the run's budget of ${gb(budget)}: use --max-tokens to keep fewer tokens`;
  const own = options.refuse?.(n);
  if (own !== undefined) return own;
  // The memory the analyses take is said beside the run's (not beside the caller's refusal, which is of something else).
  const refusal = runRefusal(m, n, budget - extra) ?? (request.generate ? runRefusal({ ...m, keep: true }, n, budget - extra) : undefined);
  return refusal && extra > 0 ? `${refusal} (the analyses asked for take ${gb(extra)} of it)` : refusal;
}

/**
 * `refusal`'s advice made the number of the text's tokens that runs with the analyses and the
 * generated tokens (the run's own refusal names the most tokens of a plain run, which counts neither
 * and has the generated ones in it): the most tokens of the text, from `prompt`, that the same checks
 * let run; "generate fewer tokens" where not one does.
 */
function withMostTokens(refusal: string, m: LoadedModel, request: AnalysisRequest, prompt: number, generate: number, options: RunOptions): string {
  let fits = 0;
  for (let step = 2 ** Math.ceil(Math.log2(prompt)); step >= 1; step >>= 1) if (fits + step < prompt && refusalAt(m, request, fits + step + generate, options) === undefined) fits += step;
  const advice = fits > 0 ? `use --max-tokens ${fits} or fewer` : generate > 0 ? 'generate fewer tokens' : undefined;
  if (advice === undefined) return refusal;
  return /use --max-tokens (\d+ or fewer|to keep fewer tokens)/.test(refusal) ? refusal.replace(/use --max-tokens (\d+ or fewer|to keep fewer tokens)/, advice) : refusal;
}

/** The text to patch from tokenized as the text is, its refusals naming it (not "the text", which is --text's). */
function tokenizeCorrupted(m: LoadedModel, tokenizer: Tokenizer, text: string, options: RunOptions): ReturnType<typeof tokenizeFor> {
  try {
    return tokenizeFor(m, tokenizer, text, options);
  } catch (e) {
    if (e instanceof ModelError && e.message.startsWith('the text ')) throw new ModelError(`the text to patch from ${e.message.slice('the text '.length)}`);
    throw e;
  }
}

/**
 * Activation patching: for every layer and head, the corrupted run with that head's output at every
 * position taken from the clean run, scored (m_patched − m_corrupted) / (m_clean − m_corrupted).
 * Each patched run starts at its head's layer from the corrupted run's residual stream there (the
 * layers before it are the corrupted run's), so the L · H runs cost about (L + 1) / 2 layers each.
 */
function patching(m: LoadedModel, ids: readonly number[], cleanOutputs: readonly Float32Array[] | readonly Float64Array[] | readonly (Float32Array | Float64Array)[], mClean: number, metric: (logits: Float64Array) => number, onLayer: (layer: number) => void): number[][] {
  const c = m.config;
  const inputs = keeper('layerInput');
  const base = forward(c, m.names, m.weights, ids, { precision: m.precision, probe: inputs.probe, keepAttention: false, onLayer });
  const mCorrupted = metric(base.logits);
  const span = mClean - mCorrupted;
  if (span === 0) throw new ModelError(`the text and the text to patch from give the same logit difference (${mClean}), so patching has nothing to restore: choose texts, or target and contrast tokens, that differ`);
  const scores: number[][] = [];
  for (let layer = 0; layer < c.layers; layer++) {
    const row: number[] = [];
    for (let head = 0; head < c.heads; head++) {
      const patched = forward(c, m.names, m.weights, ids, {
        precision: m.precision, keepAttention: false, probe: patchProbe(layer, head, c.headDim, cleanOutputs[layer]),
        start: { layer, residual: inputs.kept[layer] }, onLayer,
      });
      const score = (metric(patched.logits) - mCorrupted) / span;
      // A span that is a rounding error's size (not 0) would make a score of ±Infinity.
      if (!Number.isFinite(score)) throw new ModelError(`the text and the text to patch from give logit differences ${mClean} and ${mCorrupted}, too close for patching to measure: choose texts, or target and contrast tokens, that differ more`);
      row.push(score);
    }
    scores.push(row);
  }
  return scores;
}
