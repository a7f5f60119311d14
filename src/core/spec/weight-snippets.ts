// Weight matrices written for the user while they type a spec: at "wq", "wk" or "wv" the editor
// offers a matrix of the right height (d_model, read from the spec being written), so nobody counts
// rows by hand. The numbers are small and come from a seeded generator, so the same spec always
// gets the same suggestion. A generated weight ({ "init": "xavier", "shape", "seed" }, read/init.ts)
// is offered too: at a real model's width (512) it is the only suggestion short enough to read.
import { getLocation, parseTree } from 'jsonc-parser';
import { readDimensions } from './read/dimensions.js';
import { Reader } from './read/values.js';
import { listSome } from '../json/quote.js';
import { HEAD_ROLES, type HeadRole } from '../vocabulary.js';

export interface WeightSnippet {
  label: string;
  detail: string;
  /** JSON text of the matrix, one row per line. */
  text: string;
}

const ROLES = new Set<string>(HEAD_ROLES);
/** Past this the snippet would be a wall of numbers nobody reads: write "identity" or a binary file. */
const MAX_SNIPPET_CELLS = 4096;

/** Deterministic small numbers in [−1, 1] with two decimals (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.round((u * 2 - 1) * 100) / 100;
  };
}

export function matrixText(rows: number[][], indent: string): string {
  return `[\n${rows.map((r) => `${indent}  [${r.join(', ')}]`).join(',\n')}\n${indent}]`;
}

/** The suggestions at `offset`, when it is the value of a head's wq, wk or wv; [] elsewhere. */
export function weightSnippetsAt(text: string, offset: number, indent = '      '): WeightSnippet[] {
  const location = getLocation(text, offset);
  const path = location.path;
  if (location.isAtPropertyKey || path.length !== 3 || path[0] !== 'heads' || typeof path[1] !== 'number' || !ROLES.has(String(path[2]))) return [];
  const root = parseTree(text);
  if (!root) return [];
  const dims = readDimensions(new Reader(text), root);
  if (!dims) return [];
  const d = dims.dModel;
  const roleNumber = HEAD_ROLES.indexOf(path[2] as HeadRole) + 1; // 1, 2, 3 for wq, wk, wv: a seed of its own each
  const out: WeightSnippet[] = [];
  for (const cols of [2, Math.min(d, 3)].filter((c, i, a) => a.indexOf(c) === i)) {
    if (d * cols > MAX_SNIPPET_CELLS) continue;
    const next = seeded(d * 1000 + cols * 10 + roleNumber);
    const rows = Array.from({ length: d }, () => Array.from({ length: cols }, next));
    out.push({
      label: `${d} × ${cols} matrix (d_model × ${cols}), small seeded numbers`,
      detail: `${d} rows, one per feature${dims.featuresGiven ? ` (${listSome(dims.features, 4)})` : ''}; ${cols} columns: d_${path[2] === 'wv' ? 'v' : 'k'} = ${cols}`,
      text: matrixText(rows, indent),
    });
  }
  // d_k = d_model / 8 as in the seeds' 512 → 64 (8 heads); 2 for a toy d_model.
  const dk = d <= 8 ? Math.min(d, 2) : Math.round(d / 8);
  const seed = path[1] * 10 + roleNumber;
  out.push({
    label: `generated ${d} × ${dk} weights (Xavier, seeded)`,
    detail: `drawn when the spec is read: normal with Var(W) = 2 / (${d} + ${dk}), the same numbers for seed ${seed} every time`,
    text: `{ "init": "xavier", "shape": [${d}, ${dk}], "seed": ${seed} }`,
  });
  return out;
}
