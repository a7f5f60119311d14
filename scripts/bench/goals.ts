// The goals bench:model checks, each row's figure beside the goal's: the kernel at ≥ 60% of numpy's
// sgemm at the forward's shapes, the forward ≤ 1.5× the numpy forward's, GPT-2 small at 128 tokens
// (forward ≤ 0.6 s, whole run ≤ 1.5 s, peak ≤ 0.8 GB), the Qwen2.5-0.5B shape running in ≤ 1.6 GB at
// 128 tokens, the Llama-3.2-1B shape running in ≤ 3.5 GB. The run checked is the float32 one when the
// CLI has --precision, else its only (float64) run.
import type { OursOutcome, OursRun, Reference } from './runs.js';
import type { ForwardFlops, ShapeKey } from './shapes.js';

export interface Measured {
  shape: ShapeKey; label: string; n: number; flops: ForwardFlops;
  ours: OursOutcome[];
  ref?: Reference;
}

export interface Goal { met: boolean; text: string }

const GB = 1024;

export const isRun = (o: OursOutcome): o is OursRun => !('refused' in o);

/** The run the goals judge: float32 where measured, else the first. */
export const judged = (m: Measured): OursOutcome | undefined => m.ours.find((o) => o.precision === 'f32') ?? m.ours[0];

export const gflops = (flops: number, ms: number): number => flops / ms / 1e6;

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function goals(rows: readonly Measured[]): Goal[] {
  const out: Goal[] = [];
  for (const m of rows) {
    const o = judged(m);
    if (!o) continue;
    const where = `${m.label}, ${m.n} tokens, ${o.precision}`;
    if (!isRun(o)) {
      out.push({ met: false, text: `${where}: runs — refused: ${o.refused}` });
      continue;
    }
    if (m.ref) {
      const kernel = gflops(m.flops.total, o.forwardMs), limit = m.ref.sgemm.gflops;
      out.push({ met: kernel >= 0.6 * limit, text: `${where}: kernel ${kernel.toFixed(1)} GFLOP/s = ${(100 * kernel / limit).toFixed(0)}% of numpy sgemm ${limit.toFixed(1)} (goal ≥ 60%)` });
      const ratio = o.forwardMs / m.ref.numpy.forwardMs;
      out.push({ met: ratio <= 1.5, text: `${where}: forward ${s(o.forwardMs)} = ${ratio.toFixed(2)}× numpy's ${s(m.ref.numpy.forwardMs)} (goal ≤ 1.5×)` });
    }
    if (m.shape === 'gpt2' && m.n === 128) {
      out.push({ met: o.forwardMs <= 600, text: `${where}: forward ${s(o.forwardMs)} (goal ≤ 0.6 s)` });
      out.push({ met: o.wallMs <= 1500, text: `${where}: whole attn run ${s(o.wallMs)} (goal ≤ 1.5 s)` });
    }
    const peakGoal = m.n !== 128 ? undefined : m.shape === 'gpt2' ? 0.8 : m.shape === 'qwen' ? 1.6 : 3.5;
    if (peakGoal !== undefined) out.push({ met: o.peakMB <= peakGoal * GB, text: `${where}: runs, peak ${(o.peakMB / GB).toFixed(2)} GB (goal ≤ ${peakGoal} GB)` });
  }
  return out;
}
