// The value-weighted norms of the model run's worker's latest run (α_ij · ‖v_j W_O^h‖, per layer
// [heads, n, n], with ‖v_j W_O^h‖ per layer [heads, n]): computed only when the model views first
// read them (the norms switch), by running the latest text again with `norms: true`, then kept as a
// second attention source the views read a head at a time, exactly as they read the weights, until
// the next run drops them. Never posted whole: a 1,024-token GPT-2 small run's norms are 600 MB.
// They are the run's own, never an ablated run's (the ablation asks for none), and cover its generated
// tokens (the same greedy tokens generated again); a step through the generation cuts them as it cuts
// the weights (prefix-attention.ts).
import type { Floats } from '../../core/checkpoint/precision.js';
import { arrayAttention, type AttentionSource } from '../../core/tensors/attention-source.js';
import type { Engine } from './engine.js';
import { prefixAttention } from './prefix-attention.js';

/** What the norms are computed from: the latest run's request and its shape. */
export interface NormsRun {
  folder: string;
  text: string;
  maxTokens?: number;
  precision?: 'f32' | 'f64';
  /** The greedy tokens the run generated after the text (its n counts them). */
  generate?: number;
  layers: number;
  heads: number;
  n: number;
  tokens: string[];
}

/** Per layer [heads, n, n] arrays as an attention source (float32 or float64 alike), read in place. */
export function layersOfFloats(file: string, layers: readonly Floats[], heads: number, n: number, tokens?: string[]): AttentionSource {
  if (layers.length === 0) throw new RangeError(`${file}: no layers`);
  return arrayAttention({ file, layers: layers.length, heads, n, ...(tokens ? { tokens } : {}), weights: (layer, head) => layers[layer].subarray(head * n * n, (head + 1) * n * n) });
}

/** The norms computed: as the views read them, per layer [heads, n, n], and ‖v_j W_O^h‖ per layer [heads, n]. */
interface Held {
  source: AttentionSource;
  norms: readonly Floats[];
  valueNorms: readonly Floats[];
}

export class RunNorms {
  private run: NormsRun | undefined;
  private held: Held | undefined;
  /** The step the views show (the run's first `shown` tokens), and the norms cut to it. */
  private shown: number | undefined;
  private cut: AttentionSource | undefined;

  constructor(private readonly engine: Engine) {}

  /** A new run (or none): the norms of the one before are dropped. */
  ran(run: NormsRun | undefined): void {
    this.run = run;
    this.held = undefined;
    this.shown = undefined;
    this.cut = undefined;
  }

  /** The views show the run's first `tokens` positions (a step through its generation): reads are cut to them. */
  step(tokens: number): void {
    const n = this.run?.n;
    if (n === undefined) throw new Error('no run yet');
    if (!(Number.isInteger(tokens) && tokens >= 1 && tokens <= n)) throw new RangeError(`a step of ${tokens} tokens is outside the run's 1 … ${n}`);
    this.shown = tokens === n ? undefined : tokens;
    this.cut = undefined;
  }

  /** Whether the latest run's norms are computed. */
  get computed(): boolean { return this.held !== undefined; }

  /** The norms as an attention source, computed now if they are not yet (`stopped`: a newer run is waiting). */
  source(stopped?: () => boolean): AttentionSource {
    const held = this.computeOnce(stopped);
    if (this.shown === undefined) return held.source;
    const { heads, n, tokens } = this.run!;
    this.cut ??= prefixAttention('the run\'s value-weighted norms', held.norms, heads, n, this.shown, tokens);
    return this.cut;
  }

  /** ‖v_j W_O^h‖ of every key j of one head (a copy: its buffer is posted away). */
  valueNorms(layer: number, head: number, stopped?: () => boolean): Float32Array {
    const { valueNorms } = this.computeOnce(stopped);
    const { heads, n } = this.run!;
    if (!(Number.isInteger(layer) && layer >= 0 && layer < valueNorms.length && Number.isInteger(head) && head >= 0 && head < heads)) {
      throw new RangeError(`layer ${layer} head ${head} is outside ${valueNorms.length} × ${heads}`);
    }
    return Float32Array.from(valueNorms[layer].subarray(head * n, head * n + (this.shown ?? n)));
  }

  private computeOnce(stopped?: () => boolean): Held {
    if (this.held) return this.held;
    const run = this.run;
    if (!run) throw new Error('no run yet');
    const { folder, text, maxTokens, precision, generate, layers, heads, n, tokens } = run;
    const result = this.engine.run(folder, text, maxTokens, stopped, precision, { norms: true, ...(generate ? { generate } : {}) });
    const norms = result.analyses?.norms, valueNorms = result.analyses?.valueNorms;
    if (!norms || !valueNorms) throw new Error('the model run computed no value-weighted norms');
    // The same text runs to the same tokens; a model folder changed on disk meanwhile would not.
    const fits = norms.length === layers && valueNorms.length === layers && result.ids.length === n
      && norms.every((a) => a.length === heads * n * n) && valueNorms.every((a) => a.length === heads * n);
    if (!fits) throw new Error(`the value-weighted norms are not ${layers} layers of ${heads} × ${n} × ${n}: edit the text to run the model again`);
    this.held = { source: layersOfFloats('the run\'s value-weighted norms', norms, heads, n, tokens), norms, valueNorms };
    return this.held;
  }
}
