// The probes that change a run rather than read it: a head's output (before W_O, its value bias
// included) replaced by zero, by its mean over the text's positions in this same run (earlier
// layers' ablations already in it), or by another run's (activation patching); and the probes that
// keep what a later run starts from (each layer's input residual stream) or patches in (each layer's
// head outputs). Several probes make one: `together` calls each in turn.
import type { ForwardProbe } from '../checkpoint/probe.js';
import type { Floats, Rows } from '../checkpoint/precision.js';
import type { AblationMode, HeadRef } from './types.js';

/** The heads' outputs in `heads` replaced, per `mode`, in every run this probe is given to. */
export function ablationProbe(heads: readonly HeadRef[], mode: AblationMode, headDim: number): ForwardProbe {
  return {
    headOutputs(layer, z) {
      // Each head once, however often it is listed (a second mean of a constant is not it, bit for bit).
      for (const head of new Set(heads.filter((h) => h.layer === layer).map((h) => h.head))) {
        const from = head * headDim;
        for (let d = from; d < from + headDim; d++) {
          let value = 0;
          if (mode === 'mean') {
            for (let i = 0; i < z.rows; i++) value += z.data[i * z.cols + d];
            value /= z.rows;
          }
          for (let i = 0; i < z.rows; i++) z.data[i * z.cols + d] = value;
        }
      }
    },
  };
}

/** Head `head` of `layer`'s output at every position taken from `from` ([n, heads · headDim] of another run's layer). */
export function patchProbe(layer: number, head: number, headDim: number, from: Floats): ForwardProbe {
  return {
    headOutputs(at, z) {
      if (at !== layer) return;
      const start = head * headDim;
      for (let i = 0; i < z.rows; i++) z.data.set(from.subarray(i * z.cols + start, i * z.cols + start + headDim), i * z.cols + start);
    },
  };
}

/** Keeps a copy of what `pick` reads from each layer (or only those in `layers`). */
export function keeper(pick: 'layerInput' | 'headOutputs', layers?: ReadonlySet<number>): { probe: ForwardProbe; kept: Floats[] } {
  const kept: Floats[] = [];
  const keep = (layer: number, x: Rows) => { if (!layers || layers.has(layer)) kept[layer] = x.data.slice(); };
  return { kept, probe: pick === 'layerInput' ? { layerInput: keep } : { headOutputs: keep } };
}

/** One probe calling each of `probes` in turn (the order given: a rewriting probe first changes what the next reads). */
export function together(probes: readonly ForwardProbe[]): ForwardProbe {
  const each = <K extends keyof ForwardProbe>(key: K) => probes.map((p) => p[key]).filter((f): f is NonNullable<ForwardProbe[K]> => f !== undefined);
  const layerInput = each('layerInput'), values = each('values'), headWeights = each('headWeights');
  const headOutputs = each('headOutputs'), attentionOutput = each('attentionOutput'), mlpOutput = each('mlpOutput');
  return {
    ...(layerInput.length ? { layerInput: (l: number, x: Rows) => layerInput.forEach((f) => f(l, x)) } : {}),
    ...(values.length ? { values: (l: number, v: Rows) => values.forEach((f) => f(l, v)) } : {}),
    ...(headWeights.length ? { headWeights: (l: number, h: number, w: Floats) => headWeights.forEach((f) => f(l, h, w)) } : {}),
    ...(headOutputs.length ? { headOutputs: (l: number, z: Rows) => headOutputs.forEach((f) => f(l, z)) } : {}),
    ...(attentionOutput.length ? { attentionOutput: (l: number, o: Rows) => attentionOutput.forEach((f) => f(l, o)) } : {}),
    ...(mlpOutput.length ? { mlpOutput: (l: number, o: Rows) => mlpOutput.forEach((f) => f(l, o)) } : {}),
  };
}
