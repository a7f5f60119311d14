// `attn run --json`'s fields for the analyses, each only when asked: "norms" [layer][head][query][key],
// "logitLens" [layer][position] → five { id, token, p }, "attribution", "ablation", "patching",
// "generated". Layers and heads are indexed from 0 here; "L.H" on the command line counts from 1.
import type { Analyses } from '../../core/model-analysis/types.js';

export function analysisJson(a: Analyses, heads: number, n: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (a.norms) out.norms = a.norms.map((layer) => Array.from({ length: heads }, (_, h) => Array.from({ length: n }, (_, i) => Array.from(layer.subarray((h * n + i) * n, (h * n + i + 1) * n)))));
  if (a.logitLens) out.logitLens = a.logitLens;
  if (a.attribution) out.attribution = a.attribution;
  if (a.ablation) {
    const { heads: named, mode, next, logitDiff, baseLogitDiff } = a.ablation;
    out.ablation = { heads: named, mode, next, logitDiff, baseLogitDiff };
  }
  if (a.patching) out.patching = a.patching;
  if (a.generated) out.generated = a.generated;
  return out;
}

/** The summary's lines for the analyses (the numbers in full are --json's). */
export function analysisLines(a: Analyses, decode: (id: number) => string): string[] {
  const lines: string[] = [];
  const fixed = (v: number) => v.toFixed(4);
  if (a.generated) lines.push(`generated: ${a.generated.length > 0 ? a.generated.map((g) => JSON.stringify(g.token)).join(' ') : 'no tokens'}`);
  if (a.norms) lines.push(`value-weighted norms: ${a.norms.length} layers (in --json)`);
  if (a.logitLens) a.logitLens.forEach((layer, l) => lines.push(`after layer ${l + 1}, last position: ${layer[layer.length - 1].map((t) => `${JSON.stringify(t.token)} ${fixed(t.p)}`).join(', ')}`));
  if (a.attribution) {
    const t = a.attribution;
    let best = { layer: 0, head: 0, value: -Infinity };
    t.heads.forEach((row, layer) => row.forEach((value, head) => { if (value > best.value) best = { layer, head, value }; }));
    const against = t.contrast === null ? '' : ` − ${JSON.stringify(decode(t.contrast))}`;
    lines.push(`attribution to ${JSON.stringify(decode(t.target))}${against}: total ${fixed(t.total)}, embeddings ${fixed(t.embed)}, largest head ${best.layer + 1}.${best.head + 1} (${fixed(best.value)})`);
  }
  if (a.ablation) {
    const b = a.ablation;
    lines.push(`ablated ${b.heads.join(', ')} (${b.mode}): next ${b.next.map((t) => `${JSON.stringify(t.token)} ${fixed(t.p)}`).join(', ')}`);
    lines.push(`logit difference of ${JSON.stringify(decode(b.target))}${b.contrast === null ? '' : ` − ${JSON.stringify(decode(b.contrast))}`}: ${fixed(b.baseLogitDiff)} → ${fixed(b.logitDiff)}`);
  }
  if (a.patching) {
    let best = { layer: 0, head: 0, value: -Infinity };
    a.patching.forEach((row, layer) => row.forEach((value, head) => { if (value > best.value) best = { layer, head, value }; }));
    lines.push(`patching: head ${best.layer + 1}.${best.head + 1} restores the most (${fixed(best.value)})`);
  }
  return lines;
}
