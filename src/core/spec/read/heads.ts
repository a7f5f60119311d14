// The heads' W_Q, W_K, W_V (a matrix, "identity", a tensor file or generated), W_O, the scale and the mask.
import { isFileRef, readFileMatrix } from './file-ref.js';
import { identity } from '../../linalg/matrix.js';
import { childAt, type Node } from '../../json/json-tree.js';
import type { JsonPath } from '../../json/path.js';
import type { HeadSpec, MaskKind, Scale, WeightMatrix } from '../spec.js';
import type { Dimensions } from './dimensions.js';
import { count, describe, spanOf, type Reader } from './values.js';
import { identityOverLimit, MAX_HEADS } from './limits.js';
import { quote, quoteOr } from '../../json/quote.js';
import { readInit, type GeneratedBudget } from './init.js';
import { HEAD_ROLES, MASK_KINDS, SCALE_WORDS } from '../../vocabulary.js';

/**
 * A weight: a matrix written out, "identity", kept in a tensor file ({ "file", "tensor" }, read/file-ref.ts)
 * or generated ({ "init", "shape", "seed" }, read/init.ts).
 * `cols` is checked only for a generated one (W_O's: d_model); `budget` counts generated numbers over the spec.
 */
export function readWeight(r: Reader, node: Node | undefined, path: JsonPath, rows: { count: number; what: string },
  budget: GeneratedBudget = { cells: 0 }, cols?: { count: number; what: string }): WeightMatrix | undefined {
  if (!node) return { matrix: identity(rows.count), identity: true };
  if (isFileRef(node)) {
    // Kept in a tensor file beside the spec: as many rows as a written-out matrix would have.
    const m = readFileMatrix(r, node, path);
    if (!m) return undefined;
    if (m.rows !== rows.count) return r.error(childAt(node, 'file')!, [...path, 'file'], `the file's matrix has ${m.rows} rows, but ${rows.what} is ${rows.count}`);
    return { matrix: m, identity: false, span: spanOf(node) };
  }
  if (node.type === 'string') {
    if (node.value === 'identity') return { matrix: identity(rows.count), identity: true, span: spanOf(node) };
    return r.error(node, path, `expected a matrix, "identity", { "init", "shape" } or { "file" }, got ${describe(node)}`);
  }
  if (node.type === 'object') return readInit(r, node, path, { rows, ...(cols ? { cols } : {}) }, budget);
  const matrix = r.matrix(node, path, rows, 'a matrix (a list of rows), "identity", { "init", "shape" } or { "file" }');
  return matrix ? { matrix, identity: false, span: spanOf(node) } : undefined;
}

/** How many of a head's W_Q, W_K, W_V are identities (omitted or "identity"), from the tree alone. */
function identitiesIn(head: Node): number {
  let n = 0;
  for (const role of HEAD_ROLES) {
    const w = childAt(head, role);
    if (!w || (w.type === 'string' && w.value === 'identity')) n++;
  }
  return n;
}

export function readHeads(r: Reader, root: Node, dims: Dimensions, budget: GeneratedBudget = { cells: 0 }): { heads: HeadSpec[]; given: boolean } | undefined {
  const node = childAt(root, 'heads');
  const dm = { count: dims.dModel, what: 'd_model' };
  // Costs are checked from the shapes before anything is allocated.
  if (node?.type === 'array' && node.children!.length > MAX_HEADS) {
    return r.error(node, ['heads'], `${node.children!.length.toLocaleString('en-US')} heads, more than the ${MAX_HEADS} one spec may have`);
  }
  const identities = !node ? 3 : node.type === 'array' ? node.children!.reduce((s, h) => s + (h.type === 'object' ? identitiesIn(h) : 0), 0) : 0;
  const tooBig = identityOverLimit(new Array<number>(identities).fill(dims.dModel),
    `${identities} identity matrices of d_model × d_model = ${dims.dModel} × ${dims.dModel}${node ? '' : ' (no "heads": W_Q = W_K = W_V = identity)'}`);
  if (tooBig) return r.error(node ?? r.rootKeySpan(root), ['heads'], tooBig);
  if (!node) {
    const w = () => ({ matrix: identity(dims.dModel), identity: true });
    return { heads: [{ name: 'Q = K = V = input', wq: w(), wk: w(), wv: w() }], given: false };
  }
  if (node.type !== 'array' || (node.children?.length ?? 0) === 0) {
    return r.error(node, ['heads'], `expected a non-empty list of heads, got ${describe(node)}`);
  }
  const heads: HeadSpec[] = [];
  let ok = true;
  node.children!.forEach((h, i) => {
    const path = ['heads', i];
    if (!r.object(h, path, `a head { "name", ${HEAD_ROLES.map((role) => quote(role)).join(', ')} }`)) { ok = false; return; }
    r.unknownKeys(h, path, new Set(['name', ...HEAD_ROLES]));
    const nameNode = childAt(h, 'name');
    const name = nameNode ? r.string(nameNode, [...path, 'name']) : `head ${i + 1}`;
    const wq = readWeight(r, childAt(h, 'wq'), [...path, 'wq'], dm, budget);
    const wk = readWeight(r, childAt(h, 'wk'), [...path, 'wk'], dm, budget);
    const wv = readWeight(r, childAt(h, 'wv'), [...path, 'wv'], dm, budget);
    if (wq && wk && wq.matrix.cols !== wk.matrix.cols) {
      const at = childAt(h, 'wk') ?? h;
      const message = wk.identity && !childAt(h, 'wk')
        ? `W_K is missing, so it is the identity (${dims.dModel} wide), but W_Q is ${wq.matrix.cols} wide: give a "wk" ${wq.matrix.cols} wide, since scores are q · k`
        : `${count(wk.matrix.cols, 'column')}, expected ${wq.matrix.cols} (d_k: W_Q and W_K must be as wide, since scores are q · k)`;
      r.error(at, [...path, 'wk'], message);
      ok = false;
      return;
    }
    if (name === undefined || !wq || !wk || !wv) { ok = false; return; }
    heads.push({ name, wq, wk, wv, span: spanOf(h) });
  });
  return ok ? { heads, given: true } : undefined;
}

export function readScale(r: Reader, root: Node): Scale | undefined {
  const node = childAt(root, 'scale');
  if (!node) return { kind: 'sqrt_dk' };
  if (node.type === 'string') {
    const word = SCALE_WORDS.find((w) => w === node.value);
    if (word) return { kind: word };
    return r.error(node, ['scale'], `unknown scale ${quote(String(node.value))}: expected ${SCALE_WORDS.map((w) => quote(w)).join(', ')} or a positive number`);
  }
  const v = r.number(node, ['scale']);
  if (v === undefined) return undefined;
  if (!(v > 0)) return r.error(node, ['scale'], `scale must be positive (the scores are divided by it), got ${v}`);
  return { kind: 'number', value: v, span: spanOf(node) };
}

export function readMask(r: Reader, root: Node): MaskKind | undefined {
  const node = childAt(root, 'mask');
  if (!node) return 'none';
  const kind = node.type === 'string' ? MASK_KINDS.find((k) => k === node.value) : undefined;
  if (kind) return kind;
  return r.error(node, ['mask'], `unknown mask ${node.type === 'string' ? quote(String(node.value)) : describe(node)}: expected ${quoteOr(MASK_KINDS)}`);
}
