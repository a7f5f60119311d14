// Direct logit attribution of a model run (a spec with "target", maybe "contrast"): the last
// position's residual stream split into its parts (each head's output through its rows of W_O, each
// attention layer's output bias, each MLP, the embeddings, the final norm's bias), each part's dot
// with the target's unembedding (less the contrast's) through the final norm with its scale frozen.
// The parts add up to the logit difference, written as the total. Layers × heads, MLPs and biases
// beside, in diverging colours; a head opens in the head view. Without a target, one line says what
// to add to the spec.
import type { ModelViewData } from '../../../src/core/model-attention/data.js';
import type { RunAnalyses } from '../../../src/core/model-attention/run-analyses.js';
import { emptyView, type ViewHandle } from '../../kit/view.js';
import { fmt } from '../../kit/format.js';
import { tokenName, type ModelViewOptions } from './common.js';
import { renderHeadMap, type SinglePart } from './head-map.js';

/** A token as the spec wrote it: its text quoted, or "token 1234" for an id. */
export function writtenToken(t: string): string {
  return /^[0-9]+$/.test(t) ? `token ${t}` : JSON.stringify(t);
}

/** The logit difference's name: "logit(" sat") − logit(" on")", or the target's own logit. */
export function differenceName(a: Pick<RunAnalyses, 'target' | 'contrast'>): string {
  const target = a.target !== undefined ? writtenToken(a.target) : 'the target';
  return a.contrast !== undefined ? `logit(${target}) − logit(${writtenToken(a.contrast)})` : `logit(${target})`;
}

/** Why a run's data draws no attribution (what the spec lacks), or undefined. */
export function attributionMissing(data: ModelViewData): string | undefined {
  if (!data.run) return 'direct logit attribution: only a model run (a spec with "model" and "text") has one; this attention was read from a file';
  const a = data.analyses;
  if (a?.target === undefined) return 'direct logit attribution: give the spec a "target" token (and a "contrast") to split the last position\'s logit among the heads, MLPs and embeddings';
  if (!a.attribution) return 'direct logit attribution: this run gave none (see the Problems panel)';
  if (a.attribution.heads.length !== data.header.layers || a.attribution.heads[0].length !== data.header.heads) return `direct logit attribution: the run's ${a.attribution.heads.length} layers × ${a.attribution.heads[0].length} heads are not the attention's ${data.header.layers} × ${data.header.heads}`;
  return undefined;
}

export function renderModelAttribution(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const missing = attributionMissing(data);
  if (missing) return emptyView(container, options.theme, options.width, 'attribution', missing);
  const analyses = data.analyses!, a = analyses.attribution!;
  const diff = differenceName(analyses);
  const share = (v: number) => `${fmt(v)} of ${diff} = ${fmt(a.total)}${a.total !== 0 ? ` (${(100 * v / a.total).toFixed(1)}%)` : ''}`;
  const singles: SinglePart[] = [
    { name: 'embeddings', label: 'embed', value: a.embed },
    { name: 'final norm bias', label: 'norm bias', value: a.normBias },
    ...(a.headBias !== undefined ? [{ name: 'output head bias', label: 'head bias', value: a.headBias }] : []),
  ];
  const last = analyses.positions - 1;
  const stepped = analyses.shown < analyses.positions ? '; of the whole run, whatever step is shown' : '';
  const headsSum = a.heads.reduce((s, row) => s + row.reduce((t, v) => t + v, 0), 0);
  const mlps = a.mlps.reduce((s, v) => s + v, 0), biases = a.attentionBias.reduce((s, v) => s + v, 0);
  return renderHeadMap(container, {
    view: 'attribution',
    title: `Direct logit attribution to ${diff}`,
    note: `each part of the residual stream at the last position (${tokenName(data.header.tokenTexts, Math.min(last, data.header.tokens - 1))}) through the final norm, its scale frozen from the run, dotted with the unembedding${analyses.contrast !== undefined ? ' difference' : ''}${stepped}`,
    heads: a.heads,
    columns: [
      { name: 'MLP', label: 'MLP', values: a.mlps },
      { name: 'attention output bias', label: 'bias', values: a.attentionBias },
    ],
    singles,
    negative: analyses.contrast !== undefined ? 'towards the contrast' : 'against the target',
    positive: 'towards the target',
    footer: `total ${fmt(a.total)} = heads ${fmt(headsSum)} + MLPs ${fmt(mlps)} + attention biases ${fmt(biases)} + embed ${fmt(a.embed)} + norm bias ${fmt(a.normBias)}${a.headBias !== undefined ? ` + head bias ${fmt(a.headBias)}` : ''}`,
    describe: share,
  }, options);
}
