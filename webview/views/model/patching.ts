// Activation patching of a model run (a spec with "patchFrom", "target" and "contrast"): for every
// head, the corrupted text run with that head's output at every position taken from the clean run,
// scored (m_patched − m_corrupted) / (m_clean − m_corrupted), m the target − contrast logit
// difference at the last position: 1, the head alone brings the clean answer back; 0, nothing.
// Layers × heads in diverging colours, the value on hover; a head opens in the head view. Without
// what patching needs, one line says what to add to the spec.
import type { ModelViewData } from '../../../src/core/model-attention/data.js';
import { emptyView, type ViewHandle } from '../../kit/view.js';
import { fmt } from '../../kit/format.js';
import type { ModelViewOptions } from './common.js';
import { renderHeadMap } from './head-map.js';
import { differenceName } from './attribution.js';

/** Why a run's data draws no patching (what the spec lacks), or undefined. */
export function patchingMissing(data: ModelViewData): string | undefined {
  if (!data.run) return 'activation patching: only a model run (a spec with "model" and "text") has it; this attention was read from a file';
  const a = data.analyses;
  if (!a?.patchFrom || a.target === undefined || a.contrast === undefined) return 'activation patching: give the spec "patchFrom" (a corrupted text of as many tokens), a "target" and a "contrast" to score what each head brings back';
  if (!a.patching) return 'activation patching: this run gave none (see the Problems panel)';
  if (a.patching.length !== data.header.layers || a.patching[0].length !== data.header.heads) return `activation patching: the run's ${a.patching.length} layers × ${a.patching[0].length} heads are not the attention's ${data.header.layers} × ${data.header.heads}`;
  return undefined;
}

/**
 * The heads that bring back the most, every one of them when several tie (the induction example's
 * previous-token and induction heads both score 1: naming only the first read as if it alone did):
 * within a thousandth of the largest score's size, as the footer's three digits cannot tell apart.
 */
export function mostRestoring(patching: readonly (readonly number[])[]): { heads: { layer: number; head: number }[]; v: number } {
  let v = -Infinity;
  for (const row of patching) for (const x of row) if (Number.isFinite(x) && x > v) v = x;
  const near = 1e-3 * Math.max(Math.abs(v), 1e-12);
  const heads: { layer: number; head: number }[] = [];
  patching.forEach((row, layer) => row.forEach((x, head) => { if (Number.isFinite(x) && v - x <= near) heads.push({ layer, head }); }));
  return { heads, v };
}

export function renderModelPatching(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const missing = patchingMissing(data);
  if (missing) return emptyView(container, options.theme, options.width, 'patching', missing);
  const a = data.analyses!;
  const diff = differenceName(a);
  const most = mostRestoring(a.patching!);
  return renderHeadMap(container, {
    view: 'patching',
    title: `Activation patching of ${diff}`,
    note: 'each head\'s output, at every position, taken from the run of "text" into the run of "patchFrom": (m_patched − m_corrupted) / (m_clean − m_corrupted); 1 brings the clean difference back, 0 changes nothing',
    heads: a.patching!,
    negative: 'moves it further from the clean run',
    positive: 'brings the clean run back',
    footer: `most: ${most.heads.map((h) => `layer ${h.layer + 1} head ${h.head + 1}`).join(', ')} at ${fmt(most.v)}`,
    describe: (v) => `patched score ${fmt(v)} (${(100 * v).toFixed(1)}% of the clean − corrupted difference)`,
  }, options);
}
