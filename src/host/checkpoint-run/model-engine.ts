// What the model run's worker (a node worker on the desktop, a Web Worker or the host's thread on the
// web) asks of the runner (core/checkpoint, core/checkpoint-files' model folder, the
// tokenizer): run a text through the model in a folder, and cut one head of the last run out for the
// lens. The folder's model is loaded once and kept while the folder stays the same, so an edit of the
// text costs a forward pass, not a load (and only the positions after the text's unchanged beginning:
// the kept model reuses its last run's keys and values). A run can be stopped between layers. Kept behind this small interface so the worker's service is
// tested with a fake engine, and the runner's own API can change without touching the host.
// A long text's run keeps each layer's q and k instead of every head's n × n (model.ts runPlan:
// 'auto' unless the engine is told), in a private temporary file past the share it may hold in memory;
// what needs whole heads (the spec's analyses, heads to ablate, the norms) is refused in a sentence
// past the dense size, before any pass.
import type { HeadLens, NextToken, RunResult } from '../../core/checkpoint/types.js';
import type { AnalysisRequest, Analyses } from '../../core/model-analysis/types.js';
import type { ModelFolder } from '../../core/checkpoint-files/model-folder-read.js';
import { DEFAULT_RUN_BYTES, denseAttentionBytes, DENSE_ATTENTION_MAX, loadModel, runBytes, runText, tokenizeFor, type AttentionChoice, type LoadedModel, type RunOptions } from '../../core/checkpoint/model.js';
import { memoryQkStore, type QkStoreFactory } from '../../core/model-attention/qk-store.js';
import { analyzeText } from '../../core/model-analysis/analyze-text.js';
import type { Precision } from '../../core/checkpoint/precision.js';
import { headLens } from '../../core/checkpoint/lens.js';
import { tokenizerFrom } from '../../core/tokenizer/index.js';
import type { Tokenizer } from '../../core/tokenizer/tokenizer.js';
import { ModelError } from '../../core/checkpoint/error.js';

/**
 * A run with what it was asked beside its attention: the spec's attribution, patching and generated
 * tokens; per layer the value-weighted norms [heads, n, n] and ‖v_j W_O^h‖ [heads, n]; an ablation's
 * answer and its run's attention [heads, n, n] per layer.
 */
export type EngineRun = RunResult & { analyses?: Analyses };

export interface Engine {
  /**
   * Loads `folder` (unless it is the one loaded) and runs `text`; throws with one line naming the file
   * or tensor at fault, or RunStopped when `stopped` says so between layers (the model stays loaded).
   * `precision`: the forward's numeric form (float32 unless said; a change keeps the weights loaded).
   * `request`: what the run is asked beside its attention (a spec's target, contrast, patchFrom and
   * generate; the model views' norms and heads to ablate), all in one run.
   */
  run(folder: string, text: string, maxTokens?: number, stopped?: () => boolean, precision?: Precision, request?: AnalysisRequest): EngineRun;
  /** The numbers of one head of the last run. */
  lens(layer: number, head: number): HeadLens;
  /** The last run's logit lens ([layer][position] → five tokens): a pass again at the first ask, kept until the next run. */
  logitLens?(stopped?: () => boolean): NextToken[][][];
  close(): void;
}

/** Whether a run is asked for more than its attention (else the plain run, which reuses a kept prefix). */
function asksMore(a: AnalysisRequest | undefined): a is AnalysisRequest {
  return a !== undefined && (a.target !== undefined || a.contrast !== undefined || a.patchFrom !== undefined || a.logitLens === true || (a.generate ?? 0) > 0
    || a.norms === true || a.ablate !== undefined);
}

/** How the real engine runs: what its runs keep, their budget, where a long run's q and k go. */
export interface EngineOptions {
  /** 'dense' or 'qk' for every run; 'auto' (the default): dense up to DENSE_ATTENTION_MAX of n × n, q and k past it. */
  attention?: AttentionChoice;
  /** Bytes a run may take (default: keptRunBudget of the model). */
  budget?: number;
  /** Where q and k past the memory share go (default: memory; the desktop's: a private temporary file). */
  qkStore?: QkStoreFactory;
}

/** Where the engine's model comes from: a folder read by its name, and its tokenizer (cached, where the runtime has a cache). */
export interface EngineSources {
  /** The model folder named `folder` (on disk, or the web's files in memory): throws a ModelError naming the file at fault. */
  openFolder(folder: string): ModelFolder;
  /** The folder's tokenizer (default: built from its files, not cached). */
  tokenizer?(folder: ModelFolder): Tokenizer;
}

/**
 * The runner of real checkpoints wherever their files are (engine.ts: the disk; the web: memory):
 * the folder read (config, weights at their offsets, tokenizer), loaded once and kept.
 */
export function checkpointEngine(sources: EngineSources, engineOptions: EngineOptions = {}): Engine {
  const { attention = 'auto', qkStore = memoryQkStore } = engineOptions;
  let loaded: { folderPath: string; folder: ModelFolder; model: LoadedModel; tokenizer: Tokenizer } | undefined;
  let last: { ids: number[]; tokens: string[]; text: string; maxTokens: number | undefined; generate: number | undefined; precision: Precision; logitLens?: NextToken[][][] } | undefined;
  let loadMs = 0;
  const close = () => { loaded?.folder.close(); loaded = undefined; last = undefined; };
  return {
    run(folderPath, text, maxTokens, stopped, precision = 'f32', request) {
      if (loaded?.folderPath !== folderPath) {
        close();
        const t0 = performance.now();
        const folder = sources.openFolder(folderPath);
        try {
          // The weights are kept as stored: an edit of the text re-runs without reading them again.
          const model = loadModel(folder.configText, folder.tensors, { keep: true, where: folder.where, precision });
          // Kept in memory (and on disk with a store) while tokenizer.json stays the same: reopening a folder does not build it again.
          const tokenizer = sources.tokenizer ? sources.tokenizer(folder) : tokenizerFrom(folder.tokenizerFiles);
          loaded = { folderPath, folder, model, tokenizer };
        } catch (e) {
          folder.close();
          throw e;
        }
        loadMs = performance.now() - t0;
      }
      // The weights serve either precision; the kept keys and values are of one (the forward reuses only those).
      loaded.model.precision = precision;
      const ms = loadMs; // a run stopped part way has loaded the model all the same: the next one does not load it
      loadMs = 0;
      // The same tokens run again (the norms switch's run): the logit lens already computed stays theirs.
      const kept = last && last.text === text && last.maxTokens === maxTokens && last.generate === request?.generate && last.precision === precision ? last.logitLens : undefined;
      last = undefined;
      const budget = engineOptions.budget ?? keptRunBudget(loaded.model);
      const options = { budget, ...(maxTokens !== undefined ? { maxTokens } : {}), ...(stopped ? { stopped } : {}) };
      const outside = request?.ablate?.heads.find((h) => !(h.layer >= 0 && h.layer < loaded!.model.config.layers && h.head >= 0 && h.head < loaded!.model.config.heads));
      if (outside) throw new ModelError(`there is no head ${outside.layer + 1}.${outside.head + 1} to ablate in this model of ${loaded.model.config.layers} layers × ${loaded.model.config.heads} heads`);
      // Asked for more than the pattern: the analyses' run (which reuses no kept keys), all asks in one,
      // on every head's n × n (refused past the dense size); else the plain run, dense or keeping q and k.
      const choose = chooser(loaded.model, attention, budget);
      if (asksMore(request)) wholeHeadsRefusal(loaded.model, loaded.tokenizer, text, request, { ...options, attention: choose, qkStore });
      const result: EngineRun = asksMore(request) ? analyzeText(loaded.model, loaded.tokenizer, text, request, options) : runText(loaded.model, loaded.tokenizer, text, { ...options, attention: choose, qkStore });
      result.timings.loadMs = ms;
      last = { ids: result.ids, tokens: result.tokens, text, maxTokens, generate: request?.generate, precision, ...(kept ? { logitLens: kept } : {}) };
      return result;
    },
    logitLens(stopped) {
      if (!loaded || !last) throw new Error('no run yet');
      if (last.logitLens) return last.logitLens;
      // The run's text again (with its generated tokens when it had some), asked for the lens alone.
      const { text, maxTokens, generate } = last;
      const request: AnalysisRequest = { logitLens: true, ...(generate ? { generate } : {}) };
      const lens = analyzeText(loaded.model, loaded.tokenizer, text, request, { ...(maxTokens !== undefined ? { maxTokens } : {}), ...(stopped ? { stopped } : {}) }).analyses.logitLens;
      if (!lens) throw new Error('the run gave no logit lens');
      last.logitLens = lens;
      return lens;
    },
    lens(layer, head) {
      if (!loaded || !last) throw new Error('no run yet');
      return headLens(loaded.model, last.ids, last.tokens, layer, head);
    },
    close,
  };
}

/** What a run of the editor's may take beside the weights it keeps loaded. */
export const RUN_SHARE = 1.5 * 2 ** 30;

/**
 * The budget of a run of a kept model: DEFAULT_RUN_BYTES, or its weights as stored and RUN_SHARE when
 * that is more. The editor holds the weights between runs (they are resident whatever the run), so
 * a model of more than 1.5 GB of weights (a Llama-3.2-1B: 2.47 GB in BF16) keeps 1.5 GiB for the run's
 * own memory instead of the little the default leaves it (8,192 tokens keeping q and k in a file
 * were estimated at 3.1 GB, over the 3 GiB default); smaller models keep the default.
 */
export function keptRunBudget(m: Pick<LoadedModel, 'elements'>): number {
  return Math.max(DEFAULT_RUN_BYTES, m.elements.bytes.total + RUN_SHARE);
}

/**
 * How a run of n tokens keeps its attention: as the engine was told, or ('auto') every head where the
 * dense run fits both DENSE_ATTENTION_MAX and the budget (the editor's edits then reuse a kept
 * prefix, and the analyses have whole heads), else q and k: a dense run refused by the budget is
 * never the choice when a qk run would fit.
 */
function chooser(m: LoadedModel, attention: AttentionChoice, budget: number): (n: number) => 'dense' | 'qk' {
  if (attention !== 'auto') return () => attention;
  return (n) => (m.precision === 'f32' && (denseAttentionBytes(m.config, n) > DENSE_ATTENTION_MAX || runBytes(m, n) > budget) ? 'qk' : 'dense');
}

/**
 * Throws the sentence refusing what needs every head's n × n (the spec's analyses, heads to ablate,
 * the norms) on a text whose plain run would keep q and k instead: past DENSE_ATTENTION_MAX, or when
 * the engine keeps q and k for every run.
 */
function wholeHeadsRefusal(m: LoadedModel, tokenizer: Tokenizer, text: string, request: AnalysisRequest, o: RunOptions & { attention: (n: number) => 'dense' | 'qk' }): void {
  // The tokens the plain run of the text would take (the budget's limit is a qk run's past the dense size).
  const n = tokenizeFor(m, tokenizer, text, o).ids.length + (request.generate ?? 0);
  if (o.attention(n) === 'dense') return;
  const always = o.attention(1) === 'qk';
  const what = request.ablate ? 'heads to ablate need' : request.norms ? 'the value-weighted norms need' : 'the spec\'s analyses need';
  // The most tokens a run keeps whole (the plan is dense up to a length, then q and k).
  let most = 0;
  for (let step = 2 ** 20; step >= 1; step /= 2) if (most + step < n && o.attention(most + step) === 'dense') most += step;
  throw new ModelError(always
    ? `${what} every head's n × n, and this runner keeps only each layer's queries and keys`
    : `${what} every head's n × n, which a run of ${n} tokens on this model does not keep (it keeps each layer's queries and keys past ${most} tokens): keep at most ${most} tokens ("maxTokens") to have them`);
}
