// Heads as a person writes them: "L.H[,L.H…]", layer and head counting from 1 as on screen.
import type { HeadRef } from './types.js';

/** The heads of `text` (each checked against the model's shape), or the sentence saying what is wrong. */
export function parseHeads(text: string, layers: number, heads: number): { heads: HeadRef[]; labels: string[] } | { error: string } {
  // Echoed as given (spaces and all); read trimmed.
  const labels = text.split(',');
  if (labels.length > layers * heads) return { error: `${labels.length} heads named, more than the model's ${layers * heads}` };
  const out: HeadRef[] = [];
  for (const given of labels) {
    const label = given.trim();
    const m = /^([0-9]{1,6})\.([0-9]{1,6})$/.exec(label);
    if (!m) return { error: `"${label.slice(0, 40)}" is not a head: write L.H, counting from 1 (e.g. 2.1 is layer 2, head 1)` };
    const layer = Number(m[1]), head = Number(m[2]);
    if (layer < 1 || layer > layers) return { error: `${label}: layer ${layer} is not one of the model's layers 1 to ${layers}` };
    if (head < 1 || head > heads) return { error: `${label}: head ${head} is not one of each layer's heads 1 to ${heads}` };
    // Named twice, a head would be ablated twice: a mean ablation's second mean is of the first's
    // constant, which float64 sums do not give back bit for bit.
    const again = out.findIndex((h) => h.layer === layer - 1 && h.head === head - 1);
    if (again >= 0) return { error: `${label} names head ${layer}.${head} again (${labels[again].trim()}): name each head once` };
    out.push({ layer: layer - 1, head: head - 1 });
  }
  return { heads: out, labels };
}
