// The model run's worker, as a plain object (worker.ts only connects it to its port, so the tests run
// it in-process with a fake engine): 'run' runs the engine and keeps the run's attention as the
// forward pass left it (per layer a float32 [heads, n, n]), an attention source the views' requests
// read in place (attention-source.ts): a 1,024-token GPT-2 small run is 600 MB of attention, held
// once, never copied into a file's bytes. A run that names heads to ablate keeps the ablated run's
// attention instead (the views show it) and reports its next tokens; reads with options.norms read
// the run's value-weighted norms (run-norms.ts). A spec's analyses come with the run's report; the
// logit lens is asked apart; 'step' cuts what the views read (weights or norms) to a prefix of the
// run's tokens (a step through its generation). 'lens' cuts out one head of that run. A run
// whose id `cancelled` names (asked between layers) stops and answers { cancelled: true }, the model
// still loaded for the next. A run too long to keep every head's n × n keeps each layer's q and k
// instead (the engine's 'qk' runs): the grid's passes and the heads' pictures are cut from the pass
// its forward made (kept-pass.ts: nothing computed again), the exact weights (a head, a window, a
// tile) are computed from q and k when asked; its q and k are let go when the next run begins and
// when the worker closes. Its norms are not kept (they are every head's n × n): a read of them says so.
// Its big heads open as maps with no pyramid: 'map' gives a head's sinks (found from the run's rows)
// and its two colour scales (from the column maxima the forward's pass kept), and a 'tile' is
// computed from q and k (qk-tile.ts), exact, one pass over the head's rows at most.
import { shapeOf, type ModelShape } from '../../core/model-attention/scan.js';
import { checkRows, layersAttention, type AttentionSource } from '../../core/tensors/attention-source.js';
import { WHOLE_HEAD_MAX, type ScanOptions } from '../../core/model-attention/data.js';
import { qkRunOf, type QkRun } from '../../core/model-attention/qk-source.js';
import { qkTile } from '../../core/model-attention/qk-tile.js';
import { qkSinks } from '../../core/model-attention/qk-sinks.js';
import { mapFromColumns, tileProblem, type HeadMap, type HeadTile } from '../../core/model-attention/tiles.js';
import type { PassResult } from '../../core/tensors/pass.js';
import type { RunRequest, RunResponse } from '../../protocol/checkpoint-run.js';
import { splitWords, splitWordsNote } from '../../core/tokenizer/split-words.js';
import { answerRead, errorReply } from '../model-editor/read-answer.js';
import type { Engine } from './engine.js';
import { prefixAttention, prefixRows } from './prefix-attention.js';
import { RunNorms } from './run-norms.js';
import { checkKeptPass, keptPicture, keptRange, keptShape } from './kept-pass.js';

/** The worker's side of the cancel flag: a run of id `id` is cancelled once the flag reaches it. */
export function cancelledBy(flag: Int32Array): (id: number) => boolean {
  return (id) => Atomics.load(flag, 0) >= id;
}

export class RunAnswers {
  /** The latest run's attention: its own arrays, dropped (with the run) when the next run begins. */
  private attention: AttentionSource | undefined;
  /**
   * What the views' reads are cut from (a step through the generation): the latest run's own arrays,
   * or the ablated run's when it named heads to ablate (`file` says which).
   */
  private last: { file: string; attention: Float32Array[]; heads: number; n: number; tokens: string[]; note: string | undefined; qk?: AttentionSource; kept?: Kept } | undefined;
  /** A 'qk' run's pass over every head (its forward's), while the views read the whole run (no step). */
  private kept: Kept | undefined;
  /** The latest run's value-weighted norms, computed when first read (options.norms). */
  private readonly norms: RunNorms;

  constructor(private readonly engine: Engine, private readonly cancelled: (id: number) => boolean = () => false) {
    this.norms = new RunNorms(engine);
  }

  answer(r: RunRequest): { response: RunResponse; transfer: ArrayBuffer[] } {
    try {
      switch (r.op) {
        case 'run': {
          // The last run's attention (and a 'qk' run's kept q and k) let go before this one takes its memory.
          this.drop();
          this.norms.ran(undefined);
          // One run answers both: the spec's analyses and the views' heads to ablate (none named: no ablation).
          const ablate = r.ablate && r.ablate.heads.length > 0 ? r.ablate : undefined;
          const request = ablate ? { ...r.analysis, ablate } : r.analysis;
          const run = this.engine.run(r.folder, r.text, r.maxTokens, () => this.cancelled(r.id), r.precision, request);
          // A word the tokenizer spelled out is said with the model views' warnings (the shape's notes).
          const note = splitWordsNote(splitWords(run.tokens));
          // Heads ablated: the views read the ablated run's attention in place of the run's.
          const ablated = ablate ? run.analyses?.ablatedAttention : undefined;
          if (ablate && (!ablated || !run.analyses?.ablation)) throw new Error('the model run did not ablate the heads asked for');
          const file = ablated ? 'the ablated run' : 'the run';
          const qk = ablated ? undefined : run.qk;
          if (ablated) run.qk?.source.close(); // the views read the ablated run's heads; the run's q and k are not read
          this.last = { file, attention: ablated ?? run.attention, heads: run.model.heads, n: run.ids.length, tokens: run.tokens, note, ...(qk ? { qk: qk.source } : {}) };
          let shape: ModelShape;
          if (qk) {
            this.attention = noted(prefixRows(qk.source, run.ids.length), note);
            shape = keptShape(this.attention);
            checkKeptPass(this.attention, qk.pass, shape.thumb);
            this.kept = this.last.kept = { pass: qk.pass, thumb: shape.thumb, tiles: new Map(), sinks: new Map() };
          } else {
            this.attention = noted(layersAttention(file, this.last.attention, run.model.heads, run.ids.length, run.tokens), note);
            shape = shapeOf(this.attention);
          }
          // The norms are the run's own (never the ablated run's), of its generated tokens too.
          const generate = r.analysis?.generate;
          this.norms.ran({ folder: r.folder, text: r.text, maxTokens: r.maxTokens, precision: r.precision, ...(generate ? { generate } : {}), layers: run.attention.length, heads: run.model.heads, n: run.ids.length, tokens: run.tokens });
          const { model, ids, pieces, tokens, next, timings, masked } = run;
          const guesses = { ...(masked ? { masked } : {}), ...(run.note !== undefined ? { note: run.note } : {}) };
          const { attribution, patching, generated, ablation } = run.analyses ?? {};
          const analyses = {
            ...(attribution ? { attribution } : {}), ...(patching ? { patching } : {}), ...(generated ? { generated } : {}),
            ...(ablate && ablation ? { ablation } : {}),
          };
          const whole = qk ? { wholeHeads: wholeHeadsNote(ids.length) } : {};
          return { response: { id: r.id, ok: true, run: { model, ids, pieces, tokens, next, ...guesses, timings, reused: run.reused ?? 0, shape, ...analyses, ...whole } }, transfer: [] };
        }
        case 'logitLens': {
          if (!this.last) throw new Error('no run yet');
          if (!this.engine.logitLens) throw new Error('this runner has no logit lens');
          return { response: { id: r.id, ok: true, logitLens: this.engine.logitLens(() => this.cancelled(r.id)) }, transfer: [] };
        }
        case 'step': {
          const last = this.last;
          if (!last) throw new Error('no run yet');
          // An ablated run's prefix: the tokens stay the model's own greedy ones (generated before the
          // ablation); for a zero ablation the prefix is exactly an ablated run of those tokens, for a
          // mean one the mean was taken over every position of the whole run. A 'qk' run's prefix reads
          // its first queries and keys; its kept pass is the whole run's, so it answers only the whole.
          const step = last.qk
            ? prefixRows(last.qk, r.tokens)
            : prefixAttention(last.file, last.attention, last.heads, last.n, r.tokens, last.tokens);
          this.attention?.close();
          this.attention = noted(step, last.note);
          this.kept = r.tokens === last.n ? last.kept : undefined;
          // The norms switch reads the same step (a 'qk' run has none: a read of them says why).
          if (!last.qk) this.norms.step(r.tokens);
          return { response: { id: r.id, ok: true, shape: last.qk ? keptShape(this.attention) : shapeOf(this.attention) }, transfer: [] };
        }
        case 'lens': {
          if (!this.attention) throw new Error('no run yet');
          const lens = this.engine.lens(r.layer, r.head);
          const arrays = [lens.residual, lens.x, lens.wq, lens.wk, lens.wv, lens.wo, lens.q, lens.k, lens.v, lens.weights];
          return { response: { id: r.id, ok: true, lens }, transfer: arrays.map((a) => a.buffer as ArrayBuffer).filter((b, i, all) => all.indexOf(b) === i) };
        }
        case 'map':
          return { response: { id: r.id, ok: true, map: this.headMap(r.layer, r.head, r.options) }, transfer: [] };
        case 'valueNorms': {
          if (!this.attention) throw new Error('no run yet');
          if (this.last?.qk) throw new Error(normsRefusal(this.last.n));
          const valueNorms = this.norms.valueNorms(r.layer, r.head, () => this.cancelled(r.id));
          return { response: { id: r.id, ok: true, valueNorms }, transfer: [valueNorms.buffer as ArrayBuffer] };
        }
        default:
          // The norms switch: the same reads of the norms, computed at the first (the rollout is of weights only).
          if (r.options.norms && r.op !== 'rollout' && this.attention) {
            if (this.last?.qk) throw new Error(normsRefusal(this.last.n));
            return answerRead(this.norms.source(() => this.cancelled(r.id)), r);
          }
          return this.keptAnswer(r) ?? answerRead(this.attention, r);
      }
    } catch (e) {
      if (e instanceof Error && e.name === 'RunStopped') return { response: { id: r.id, ok: false, cancelled: true, error: 'cancelled', tensorError: false }, transfer: [] };
      return { response: errorReply(r.id, e), transfer: [] };
    }
  }

  close(): void {
    this.drop();
    this.engine.close();
  }

  /** The latest run's attention let go: a 'qk' run's q and k (a file store deletes its file). */
  private drop(): void {
    this.attention?.close();
    this.last?.qk?.close();
    this.attention = undefined;
    this.last = undefined;
    this.kept = undefined;
  }

  /**
   * A read a 'qk' run answers from its forward's pass: a range of heads, or a head's picture (the
   * weights as they are: a softmax asked of them is computed anew). Undefined: read from the source.
   */
  private keptAnswer(r: RunRequest): { response: RunResponse; transfer: ArrayBuffer[] } | undefined {
    const kept = this.kept, a = this.attention;
    if (!kept || !a || !('options' in r) || r.options.softmax) return undefined;
    if (r.op === 'pass') {
      const t0 = performance.now();
      const pass = keptRange(kept.pass, a.layers * a.heads, kept.thumb, r.from, r.to);
      const pictures = (pass.pictures ?? []).map((p) => p.indices.buffer as ArrayBuffer);
      return { response: { id: r.id, ok: true, pass, ms: performance.now() - t0 }, transfer: [pass.thumbnails.buffer as ArrayBuffer, ...pictures] };
    }
    if (r.op === 'picture') {
      if (!(Number.isInteger(r.layer) && r.layer >= 0 && r.layer < a.layers)) return undefined;
      const picture = keptPicture(kept.pass, a.heads, r.layer, r.head);
      return picture ? { response: { id: r.id, ok: true, picture }, transfer: [picture.indices.buffer as ArrayBuffer] } : undefined;
    }
    const run = this.last?.qk ? qkRunOf(this.last.qk) : undefined;
    if (r.op === 'tile' && run) {
      // Checked before the sinks are looked for (they read rows of the head).
      checkRows(a.layers, a.heads, a.n, r.layer, r.head, 0, 0);
      const problem = tileProblem(a.n, r.level, r.i0, r.j0, r.rows, r.cols);
      if (problem) throw new RangeError(problem);
      const { sinkColumns, ...blocks } = copyTile(this.keptTile(kept, run, r.layer, r.head, r.level, r.i0, r.j0, r.rows, r.cols));
      const tile: HeadTile = r.sinks === false || !sinkColumns ? blocks : { ...blocks, sinkColumns };
      const sinks = (tile.sinkColumns ?? []).flatMap((c) => [c.max.buffer, c.sum.buffer] as ArrayBuffer[]);
      return { response: { id: r.id, ok: true, tile }, transfer: [tile.max.buffer as ArrayBuffer, tile.sum.buffer as ArrayBuffer, ...sinks] };
    }
    return undefined;
  }

  /**
   * A tile of the run (qk-tile.ts), the last KEPT_TILES kept: a coarse one is a pass over the head's
   * rows, and the map asks it again each time the view zooms back out.
   */
  private keptTile(kept: Kept, run: QkRun, layer: number, head: number, level: number, i0: number, j0: number, rows: number, cols: number): HeadTile {
    const key = `${layer} ${head} ${level} ${i0} ${j0} ${rows} ${cols}`;
    const tile = kept.tiles.get(key) ?? qkTile(run, layer, head, level, i0, j0, rows, cols, sinksOfRun(kept, run, layer, head));
    // Most recently asked last; the oldest let go.
    kept.tiles.delete(key);
    kept.tiles.set(key, tile);
    if (kept.tiles.size > KEPT_TILES) kept.tiles.delete(kept.tiles.keys().next().value!);
    return tile;
  }

  /**
   * A big head's map, for a 'qk' run viewed whole: its sinks by the scan's rule from the run's rows
   * (64 of them computed), the two maxima from the forward's column maxima (nothing else computed).
   * Null when the run has none: heads sent whole, a step, the softmax or the norms asked.
   */
  private headMap(layer: number, head: number, options: ScanOptions): HeadMap | null {
    const a = this.attention;
    if (!a) throw new Error('no run yet');
    checkRows(a.layers, a.heads, a.n, layer, head, 0, 0);
    const kept = this.kept, run = this.last?.qk ? qkRunOf(this.last.qk) : undefined;
    const columns = kept?.pass.columnMaxes?.[layer * a.heads + head];
    if (!kept || !run || !columns || a.n <= WHOLE_HEAD_MAX || options.softmax || options.norms) return null;
    return mapFromColumns(a.n, sinksOfRun(kept, run, layer, head), columns);
  }
}

/** A 'qk' run's pass over every head, as its forward made it, its thumbnails' side, the map tiles last asked and the heads' sinks found. */
interface Kept { pass: PassResult; thumb: number; tiles: Map<string, HeadTile>; sinks: Map<string, number[]> }

/** A head's sinks (qk-sinks.ts), found once per run: its map and its tiles leave out the same keys. */
function sinksOfRun(kept: Kept, run: QkRun, layer: number, head: number): number[] {
  const key = `${layer} ${head}`;
  let sinks = kept.sinks.get(key);
  if (!sinks) kept.sinks.set(key, sinks = qkSinks(run, layer, head));
  return sinks;
}

/** Map tiles a run keeps (each at most 256 × 256 blocks: 512 KiB and its sink columns). */
const KEPT_TILES = 8;

/** A tile's copy: the answer's buffers are posted away, the kept ones stay. */
function copyTile(t: HeadTile): HeadTile {
  const sinkColumns = t.sinkColumns?.map((c) => ({ key: c.key, max: c.max.slice(), sum: c.sum.slice() }));
  return { ...t, max: t.max.slice(), sum: t.sum.slice(), ...(sinkColumns ? { sinkColumns } : {}) };
}

/** Why a run that kept q and k has no value-weighted norms, in one sentence. */
function normsRefusal(n: number): string {
  return `the value-weighted norms are every head's n × n, which this run of ${n} tokens does not keep (it keeps each layer's queries and keys): switch the norms off, or run fewer tokens ("maxTokens") to see them`;
}

/** What a run that kept q and k cannot do, in one sentence (the session says it when heads are switched off). */
function wholeHeadsNote(n: number): string {
  return `this run of ${n} tokens keeps each layer's queries and keys, not every head's n × n, so heads cannot be ablated nor their norms shown: run fewer tokens ("maxTokens") for them`;
}

/** The source with `note` among its notes (the warnings the views show). */
function noted(source: AttentionSource, note: string | undefined): AttentionSource {
  return note ? { ...source, notes: [...(source.notes ?? []), note] } : source;
}
