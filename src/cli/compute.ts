// `attn compute FILE [--json]`: every intermediate of the attention computation. --json prints the
// result as JSON (arrays of rows); without it, every intermediate as a labelled table.
import type { AttentionJson } from '../core/result/result-json.js';
import type { Args, Io } from './args.js';
import { analyzeFile } from './spec-input.js';
import { table } from './table.js';
import { printable, printableJson } from './terminal.js';

export function computeCommand(args: Args, maxBytes: number, io: Io): number {
  const done = analyzeFile(args, maxBytes, io, 'compute');
  if (!done?.json) return 1;
  io.out(args.flags.has('--json') ? printableJson(JSON.stringify(done.json, null, 2)) : computeReport(done.json));
  return 0;
}

const dims = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

export function computeReport(json: AttentionJson): string {
  const out: string[] = [];
  // Spec strings are escaped where they enter the report, so no token can add a line of its own.
  const features = json.features.map(printable);
  if (json.title) out.push(printable(json.title), '');
  const full = json.parameters.fullSize;
  out.push(`d_model ${json.dModel} · scale ${json.scale} · mask ${json.mask} · ${json.parameters.total} learnable numbers in this spec`,
    `full-size estimate: one ${full.dModel}×${full.dk} matrix × ${full.heads} heads × ${full.blocks} blocks × ${full.stacks} (encoder and decoder) = ${full.total.toLocaleString('en-US')}`, '');
  for (const input of json.inputs) {
    out.push(`== ${printable(input.name)} ==`, '');
    const t = input.tokens.map(printable);
    out.push(table('embeddings', t, features, input.embeddings), '');
    for (const h of input.heads) {
      out.push(`-- head: ${printable(h.name)} (d_k ${h.dk}, d_v ${h.dv}, scores ÷ ${Number(h.divisor.toFixed(4))}) --`);
      out.push(table('Q', t, dims('q', h.dk), h.q));
      out.push(table('K', t, dims('k', h.dk), h.k));
      out.push(table('V', t, dims('v', h.dv), h.v));
      out.push(table('scores (Q·Kᵀ), rows = queries, columns = keys', t, t, h.scores));
      out.push(table('scaled', t, t, h.scaled));
      out.push(table('weights (softmax)', t, t, h.weights));
      out.push(table('output (weights·V)', t, dims('o', h.dv), h.output));
      if (h.valueNorms) {
        const norms = h.valueNorms;
        out.push(table('value norms ‖v W_O‖ (each key\'s value through this head\'s rows of W_O)', ['‖v W_O‖'], t, [norms]));
        out.push(table('value-weighted (weight × ‖v W_O‖), rows = queries, columns = keys', t, t, h.weights.map((row) => row.map((w, j) => w * norms[j]))));
      }
      out.push('');
    }
    if (input.heads.length > 1) out.push(table('heads side by side', t, dims('c', input.concat[0]?.length ?? 0), input.concat), '');
    out.push(table('output', t, dims('y', input.output[0]?.length ?? 0), input.output), '');
  }
  return out.join('\n');
}
