// The spec reader: text in, a validated Spec or a list of problems out. It never throws on
// bad input; every check adds a problem with its JSON path and exact range and carries on,
// so the user sees all of them at once.
import { fromRows, identity, type Matrix } from './matrix.js';
import { childAt, parseJson, propertyNode, DEFAULT_MAX_BYTES, type Node } from './json-tree.js';
import { formatPath, type JsonPath } from './path.js';
import type { Problem } from './problems.js';
import type {
  HeadSpec, InputSpec, MaskKind, QuadrantAxis, QuadrantOptions, Scale, Span, Spec, TokenSpec, ViewOptions, WeightMatrix,
} from './spec.js';

/** Longest input we compute: n² scores per head must stay quick to draw and to hover. */
export const MAX_TOKENS = 4096;
/** Multiply-adds one spec may ask for; past this the reader refuses instead of hanging. */
export const MAX_WORK = 2e9;

const TOP_LEVEL = new Set(['$schema', 'title', 'description', 'features', 'embeddings', 'inputs', 'heads', 'wo', 'scale', 'mask', 'views']);

export interface ReadOptions {
  maxBytes?: number;
}

export interface ReadResult {
  spec?: Spec;
  problems: Problem[];
}

function spanOf(node: Node): Span {
  return { offset: node.offset, length: node.length };
}

function describe(node: Node): string {
  switch (node.type) {
    case 'string': return `a string ${JSON.stringify(String(node.value).slice(0, 40))}`;
    case 'number': return `the number ${node.value}`;
    case 'boolean': return String(node.value);
    case 'null': return 'null';
    case 'array': return `a list of ${node.children?.length ?? 0}`;
    case 'object': return 'an object';
    default: return node.type;
  }
}

class Reader {
  readonly problems: Problem[] = [];

  constructor(private readonly text: string) {}

  error(at: Node | Span, path: JsonPath, message: string): undefined {
    const span = 'type' in at ? spanOf(at) : at;
    this.problems.push({ severity: 'error', path: formatPath(path), message, span });
    return undefined;
  }

  warn(at: Node | Span, path: JsonPath, message: string): void {
    const span = 'type' in at ? spanOf(at) : at;
    this.problems.push({ severity: 'warning', path: formatPath(path), message, span });
  }

  /** The end of the document, for problems about something missing from the top-level object. */
  rootKeySpan(root: Node): Span {
    return { offset: root.offset, length: 1 };
  }

  number(node: Node, path: JsonPath): number | undefined {
    if (node.type !== 'number') return this.error(node, path, `expected a number, got ${describe(node)}`);
    const v = node.value as number;
    if (!Number.isFinite(v)) {
      return this.error(node, path, `${this.text.slice(node.offset, node.offset + node.length)} is too large: it overflows to Infinity`);
    }
    return v;
  }

  string(node: Node, path: JsonPath, what = 'a string'): string | undefined {
    if (node.type !== 'string') return this.error(node, path, `expected ${what}, got ${describe(node)}`);
    return node.value as string;
  }

  /** A list of numbers, optionally of an expected length. */
  vector(node: Node, path: JsonPath, expected?: { length: number; what: string }): Float64Array | undefined {
    if (node.type !== 'array') return this.error(node, path, `expected a list of numbers, got ${describe(node)}`);
    const items = node.children ?? [];
    if (items.length === 0) return this.error(node, path, 'expected a list of numbers, got an empty list');
    if (expected && items.length !== expected.length) {
      return this.error(node, path, `${items.length} numbers, expected ${expected.length} (${expected.what})`);
    }
    const out = new Float64Array(items.length);
    let ok = true;
    items.forEach((item, i) => {
      const v = this.number(item, [...path, i]);
      if (v === undefined) ok = false;
      else out[i] = v;
    });
    return ok ? out : undefined;
  }

  /** A matrix as a list of rows of equal length; `rows` is the expected row count and what it is. */
  matrix(node: Node, path: JsonPath, rows: { count: number; what: string }): Matrix | undefined {
    if (node.type !== 'array') return this.error(node, path, `expected a matrix (a list of rows) or "identity", got ${describe(node)}`);
    const rowNodes = node.children ?? [];
    if (rowNodes.length !== rows.count) {
      return this.error(node, path, `${rowNodes.length} rows, expected ${rows.count} (${rows.what})`);
    }
    const first = rowNodes[0];
    if (first.type !== 'array') return this.error(first, [...path, 0], `expected a row (a list of numbers), got ${describe(first)}`);
    const cols = first.children?.length ?? 0;
    if (cols === 0) return this.error(first, [...path, 0], 'a row needs at least one number');
    const values: Float64Array[] = [];
    let ok = true;
    rowNodes.forEach((r, i) => {
      if (r.type === 'array' && (r.children?.length ?? 0) !== cols) {
        ok = false;
        this.error(r, [...path, i], `row ${i} has ${r.children?.length ?? 0} numbers but row 0 has ${cols}: every row must be as long`);
        return;
      }
      const v = this.vector(r, [...path, i]);
      if (v) values.push(v);
      else ok = false;
    });
    if (!ok) return undefined;
    return fromRows(values.map((v) => Array.from(v)), cols);
  }

  /** Warn about properties this version does not know, so typos do not pass silently. */
  unknownKeys(node: Node, path: JsonPath, known: ReadonlySet<string>): void {
    for (const prop of node.children ?? []) {
      const key = prop.children?.[0];
      if (key && !known.has(key.value as string)) {
        this.warn(key, [...path, key.value as string], `unknown property "${key.value}" (ignored); expected one of ${[...known].filter((k) => !k.startsWith('$')).join(', ')}`);
      }
    }
  }

  object(node: Node, path: JsonPath, what: string): boolean {
    if (node.type !== 'object') {
      this.error(node, path, `expected ${what} (an object), got ${describe(node)}`);
      return false;
    }
    return true;
  }
}

interface Dimensions {
  dModel: number;
  features: string[];
  featuresGiven: boolean;
}

function readFeatures(r: Reader, root: Node): string[] | undefined {
  const node = childAt(root, 'features');
  if (!node) return undefined;
  if (node.type !== 'array' || (node.children?.length ?? 0) === 0) {
    return r.error(node, ['features'], `expected a non-empty list of feature names, got ${describe(node)}`);
  }
  const names: string[] = [];
  const seen = new Set<string>();
  node.children!.forEach((c, i) => {
    const name = r.string(c, ['features', i], 'a feature name');
    if (name === undefined) return;
    if (seen.has(name)) r.error(c, ['features', i], `feature "${name}" is named twice`);
    seen.add(name);
    names.push(name);
  });
  return names.length === node.children!.length ? names : undefined;
}

/** d_model comes from the feature names, else from the first embedding, else from the first inline vector. */
function readDimensions(r: Reader, root: Node): Dimensions | undefined {
  const features = readFeatures(r, root);
  if (childAt(root, 'features') && !features) return undefined;
  if (features) return { dModel: features.length, features, featuresGiven: true };
  const firstEmbedding = childAt(root, 'embeddings')?.children?.[0]?.children?.[1];
  let width = firstEmbedding?.type === 'array' ? firstEmbedding.children?.length : undefined;
  if (!width) {
    for (const input of childAt(root, 'inputs')?.children ?? []) {
      for (const token of childAt(input, 'tokens')?.children ?? []) {
        const inline = childAt(token, 'embedding');
        if (inline?.type === 'array' && inline.children?.length) {
          width = inline.children.length;
          break;
        }
      }
      if (width) break;
    }
  }
  if (!width) {
    r.error(root, [], 'cannot tell d_model: give "features" (names of the dimensions) or at least one embedding');
    return undefined;
  }
  return { dModel: width, features: Array.from({ length: width }, (_, i) => `d${i}`), featuresGiven: false };
}

function readEmbeddings(r: Reader, root: Node, dims: Dimensions): Map<string, Float64Array> {
  const table = new Map<string, Float64Array>();
  const node = childAt(root, 'embeddings');
  if (!node || !r.object(node, ['embeddings'], 'a table of word → vector')) return table;
  const what = dims.featuresGiven ? 'd_model, the number of features' : 'd_model, the length of the first embedding';
  for (const prop of node.children ?? []) {
    const [key, value] = prop.children ?? [];
    if (!key || !value) continue;
    const word = key.value as string;
    const vector = r.vector(value, ['embeddings', word], { length: dims.dModel, what });
    if (vector) table.set(word, vector);
  }
  return table;
}

/** Exact word first; otherwise a unique case-insensitive match, so "Apple" finds "apple". */
function lookUp(table: ReadonlyMap<string, Float64Array>, word: string): Float64Array | undefined {
  const exact = table.get(word);
  if (exact) return exact;
  const lower = word.toLowerCase();
  const matches = [...table.keys()].filter((k) => k.toLowerCase() === lower);
  return matches.length === 1 ? table.get(matches[0]) : undefined;
}

function readToken(r: Reader, node: Node, path: JsonPath, table: ReadonlyMap<string, Float64Array>, dims: Dimensions, tableBroken: boolean): TokenSpec | undefined {
  if (node.type === 'string') {
    const text = node.value as string;
    const embedding = lookUp(table, text);
    if (!embedding) {
      if (tableBroken) return undefined; // the broken embedding already has its own problem
      const known = [...table.keys()].slice(0, 12).join(', ');
      return r.error(node, path, `unknown token "${text}": it has no entry in "embeddings"${known ? ` (known: ${known})` : ''}; add one, or write the token as { "text": "${text}", "embedding": [...] }`);
    }
    return { text, embedding, inline: false, span: spanOf(node) };
  }
  if (node.type === 'object') {
    r.unknownKeys(node, path, new Set(['text', 'embedding']));
    const textNode = childAt(node, 'text');
    const vecNode = childAt(node, 'embedding');
    if (!textNode) return r.error(node, path, 'an inline token needs "text"');
    const text = r.string(textNode, [...path, 'text']);
    if (text === undefined) return undefined;
    if (!vecNode) {
      const embedding = lookUp(table, text);
      if (!embedding) return r.error(node, path, `unknown token "${text}": give it an "embedding" or add it to "embeddings"`);
      return { text, embedding, inline: false, span: spanOf(textNode) };
    }
    const embedding = r.vector(vecNode, [...path, 'embedding'], { length: dims.dModel, what: 'd_model' });
    return embedding ? { text, embedding, inline: true, span: spanOf(textNode) } : undefined;
  }
  return r.error(node, path, `expected a token (a word from "embeddings", or { "text", "embedding" }), got ${describe(node)}`);
}

function readInputMask(r: Reader, node: Node, path: JsonPath, n: number): boolean[][] | undefined {
  const m = r.matrix(node, path, { count: n, what: 'one row per token' });
  if (!m) return undefined;
  if (m.cols !== n) return r.error(node, path, `${m.cols} columns, expected ${n} (one per token)`);
  for (let i = 0; i < m.data.length; i++) {
    const v = m.data[i];
    if (v !== 0 && v !== 1) {
      const rowI = Math.floor(i / n), colJ = i % n;
      return r.error(node.children![rowI].children![colJ], [...path, rowI, colJ], `mask entries are 1 (may attend) or 0 (hidden), got ${v}`);
    }
  }
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => m.data[i * n + j] === 1));
}

function readInputs(r: Reader, root: Node, table: ReadonlyMap<string, Float64Array>, dims: Dimensions, tableBroken: boolean): InputSpec[] | undefined {
  const node = childAt(root, 'inputs');
  if (!node) return r.error(propertyNode(root, 'embeddings') ?? r.rootKeySpan(root), ['inputs'], 'missing "inputs": give at least one { "name": "...", "tokens": [...] }');
  if (node.type !== 'array' || (node.children?.length ?? 0) === 0) {
    return r.error(node, ['inputs'], `expected a non-empty list of inputs, got ${describe(node)}`);
  }
  const inputs: InputSpec[] = [];
  let ok = true;
  node.children!.forEach((inputNode, i) => {
    const path = ['inputs', i];
    if (!r.object(inputNode, path, 'an input { "name", "tokens" }')) { ok = false; return; }
    r.unknownKeys(inputNode, path, new Set(['name', 'tokens', 'mask']));
    const nameNode = childAt(inputNode, 'name');
    const name = nameNode ? r.string(nameNode, [...path, 'name']) : `input ${i + 1}`;
    const tokensNode = childAt(inputNode, 'tokens');
    if (!tokensNode) { ok = false; r.error(inputNode, path, 'missing "tokens": a list of words'); return; }
    if (tokensNode.type !== 'array' || (tokensNode.children?.length ?? 0) === 0) {
      ok = false; r.error(tokensNode, [...path, 'tokens'], `expected a non-empty list of tokens, got ${describe(tokensNode)}`); return;
    }
    if (tokensNode.children!.length > MAX_TOKENS) {
      ok = false; r.error(tokensNode, [...path, 'tokens'], `${tokensNode.children!.length} tokens, more than the ${MAX_TOKENS} one input may have`); return;
    }
    const tokens = tokensNode.children!.map((t, j) => readToken(r, t, [...path, 'tokens', j], table, dims, tableBroken));
    const maskNode = childAt(inputNode, 'mask');
    const mask = maskNode ? readInputMask(r, maskNode, [...path, 'mask'], tokens.length) : undefined;
    if (name === undefined || tokens.some((t) => !t) || (maskNode && !mask)) { ok = false; return; }
    inputs.push({ name, tokens: tokens as TokenSpec[], ...(mask ? { mask } : {}), span: spanOf(inputNode) });
  });
  return ok ? inputs : undefined;
}

function readWeight(r: Reader, node: Node | undefined, path: JsonPath, rows: { count: number; what: string }): WeightMatrix | undefined {
  if (!node) return { matrix: identity(rows.count), identity: true };
  if (node.type === 'string') {
    if (node.value === 'identity') return { matrix: identity(rows.count), identity: true, span: spanOf(node) };
    return r.error(node, path, `expected a matrix or "identity", got ${describe(node)}`);
  }
  const matrix = r.matrix(node, path, rows);
  return matrix ? { matrix, identity: false, span: spanOf(node) } : undefined;
}

function readHeads(r: Reader, root: Node, dims: Dimensions): { heads: HeadSpec[]; given: boolean } | undefined {
  const node = childAt(root, 'heads');
  const dm = { count: dims.dModel, what: 'd_model' };
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
    if (!r.object(h, path, 'a head { "name", "wq", "wk", "wv" }')) { ok = false; return; }
    r.unknownKeys(h, path, new Set(['name', 'wq', 'wk', 'wv']));
    const nameNode = childAt(h, 'name');
    const name = nameNode ? r.string(nameNode, [...path, 'name']) : `head ${i + 1}`;
    const wq = readWeight(r, childAt(h, 'wq'), [...path, 'wq'], dm);
    const wk = readWeight(r, childAt(h, 'wk'), [...path, 'wk'], dm);
    const wv = readWeight(r, childAt(h, 'wv'), [...path, 'wv'], dm);
    if (wq && wk && wq.matrix.cols !== wk.matrix.cols) {
      const at = childAt(h, 'wk') ?? h;
      r.error(at, [...path, 'wk'], `${wk.matrix.cols} columns, expected ${wq.matrix.cols} (d_k: W_Q and W_K must be as wide, since scores are q · k)`);
      ok = false;
      return;
    }
    if (name === undefined || !wq || !wk || !wv) { ok = false; return; }
    heads.push({ name, wq, wk, wv, span: spanOf(h) });
  });
  return ok ? { heads, given: true } : undefined;
}

function readScale(r: Reader, root: Node): Scale | undefined {
  const node = childAt(root, 'scale');
  if (!node) return { kind: 'sqrt_dk' };
  if (node.type === 'string') {
    if (node.value === 'sqrt_dk') return { kind: 'sqrt_dk' };
    if (node.value === 'none') return { kind: 'none' };
    return r.error(node, ['scale'], `unknown scale ${JSON.stringify(node.value)}: expected "sqrt_dk", "none" or a positive number`);
  }
  const v = r.number(node, ['scale']);
  if (v === undefined) return undefined;
  if (!(v > 0)) return r.error(node, ['scale'], `scale must be positive (the scores are divided by it), got ${v}`);
  return { kind: 'number', value: v };
}

function readMask(r: Reader, root: Node): MaskKind | undefined {
  const node = childAt(root, 'mask');
  if (!node) return 'none';
  if (node.type === 'string' && (node.value === 'none' || node.value === 'causal')) return node.value;
  return r.error(node, ['mask'], `unknown mask ${node.type === 'string' ? JSON.stringify(node.value) : describe(node)}: expected "none" or "causal"`);
}

function readAxis(r: Reader, node: Node, path: JsonPath, dims: Dimensions): QuadrantAxis | undefined {
  if (!r.object(node, path, 'an axis { "feature" or "direction", "label" }')) return undefined;
  r.unknownKeys(node, path, new Set(['feature', 'direction', 'label', 'ends']));
  const featureNode = childAt(node, 'feature');
  const directionNode = childAt(node, 'direction');
  let direction: Float64Array | undefined;
  let defaultLabel = '';
  if (featureNode) {
    const name = r.string(featureNode, [...path, 'feature'], 'a feature name');
    if (name === undefined) return undefined;
    const index = dims.features.indexOf(name);
    if (index < 0) return r.error(featureNode, [...path, 'feature'], `unknown feature "${name}": expected one of ${dims.features.join(', ')}`);
    direction = new Float64Array(dims.dModel);
    direction[index] = 1;
    defaultLabel = name;
  } else if (directionNode) {
    direction = r.vector(directionNode, [...path, 'direction'], { length: dims.dModel, what: 'd_model' });
    if (!direction) return undefined;
    if (direction.every((v) => v === 0)) return r.error(directionNode, [...path, 'direction'], 'a direction cannot be all zeros');
  } else {
    return r.error(node, path, 'an axis needs "feature" (a feature name) or "direction" (a vector over the features)');
  }
  const labelNode = childAt(node, 'label');
  const label = labelNode ? r.string(labelNode, [...path, 'label']) : defaultLabel || formatPath(path);
  const endsNode = childAt(node, 'ends');
  let ends: [string, string] | undefined;
  if (endsNode) {
    if (endsNode.type !== 'array' || endsNode.children?.length !== 2) return r.error(endsNode, [...path, 'ends'], 'expected two names: the low end, then the high end');
    const a = r.string(endsNode.children[0], [...path, 'ends', 0]);
    const b = r.string(endsNode.children[1], [...path, 'ends', 1]);
    if (a === undefined || b === undefined) return undefined;
    ends = [a, b];
  }
  if (label === undefined) return undefined;
  return { label, direction, ...(ends ? { ends } : {}) };
}

function readViews(r: Reader, root: Node, dims: Dimensions): ViewOptions | undefined {
  const node = childAt(root, 'views');
  if (!node) return {};
  if (!r.object(node, ['views'], 'view options')) return undefined;
  r.unknownKeys(node, ['views'], new Set(['quadrant']));
  const qNode = childAt(node, 'quadrant');
  if (!qNode) return {};
  const path = ['views', 'quadrant'];
  if (!r.object(qNode, path, 'quadrant options { "x", "y", "quadrants" }')) return undefined;
  r.unknownKeys(qNode, path, new Set(['x', 'y', 'quadrants']));
  const xNode = childAt(qNode, 'x');
  const yNode = childAt(qNode, 'y');
  if (!xNode || !yNode) return r.error(qNode, path, 'a quadrant plot needs both "x" and "y" axes');
  const x = readAxis(r, xNode, [...path, 'x'], dims);
  const y = readAxis(r, yNode, [...path, 'y'], dims);
  const namesNode = childAt(qNode, 'quadrants');
  let quadrants: QuadrantOptions['quadrants'];
  if (namesNode) {
    if (namesNode.type !== 'array' || namesNode.children?.length !== 4) {
      return r.error(namesNode, [...path, 'quadrants'], 'expected four names: top-right, top-left, bottom-left, bottom-right');
    }
    const names = namesNode.children.map((c, i) => r.string(c, [...path, 'quadrants', i]));
    if (names.some((n) => n === undefined)) return undefined;
    quadrants = names as unknown as QuadrantOptions['quadrants'];
  }
  if (!x || !y) return undefined;
  return { quadrant: { x, y, ...(quadrants ? { quadrants } : {}) } };
}

/** Multiply-adds the compute will need, so a spec that would take minutes is refused up front. */
function estimateWork(inputs: readonly InputSpec[], heads: readonly HeadSpec[], dModel: number): number {
  let work = 0;
  for (const input of inputs) {
    const n = input.tokens.length;
    for (const h of heads) {
      const dk = h.wq.matrix.cols, dv = h.wv.matrix.cols;
      work += n * dModel * (2 * dk + dv) + n * n * (dk + dv);
    }
  }
  return work;
}

export function readSpec(text: string, options: ReadOptions = {}): ReadResult {
  const parsed = parseJson(text, options.maxBytes ?? DEFAULT_MAX_BYTES);
  if (!parsed.root || parsed.problems.length > 0) return { problems: parsed.problems };
  const root = parsed.root;
  const r = new Reader(text);
  if (root.type !== 'object') {
    r.error(root, [], `expected a JSON object with "embeddings" and "inputs", got ${describe(root)}`);
    return { problems: r.problems };
  }
  r.unknownKeys(root, [], TOP_LEVEL);

  const titleNode = childAt(root, 'title');
  const title = titleNode ? r.string(titleNode, ['title']) : undefined;
  const dims = readDimensions(r, root);
  if (!dims) return { problems: r.problems };
  const before = r.problems.length;
  const embeddings = readEmbeddings(r, root, dims);
  const tableBroken = r.problems.length > before;
  const inputs = readInputs(r, root, embeddings, dims, tableBroken);
  const heads = readHeads(r, root, dims);
  const woNode = childAt(root, 'wo');
  let wo: WeightMatrix | undefined;
  if (woNode && heads) {
    const width = heads.heads.reduce((s, h) => s + h.wv.matrix.cols, 0);
    const what = heads.heads.length === 1 ? 'd_v of the one head' : `the heads' d_v added up: ${heads.heads.map((h) => h.wv.matrix.cols).join(' + ')}`;
    wo = readWeight(r, woNode, ['wo'], { count: width, what });
  }
  const scale = readScale(r, root);
  const mask = readMask(r, root);
  const views = readViews(r, root, dims);

  const hasErrors = r.problems.some((p) => p.severity === 'error');
  if (hasErrors || !inputs || !heads || !scale || !mask || !views || (woNode && !wo)) return { problems: r.problems };
  const work = estimateWork(inputs, heads.heads, dims.dModel);
  if (work > MAX_WORK) {
    r.error(childAt(root, 'inputs')!, ['inputs'], `this spec needs about ${(work / 1e9).toFixed(1)} billion multiply-adds, over the ${MAX_WORK / 1e9} billion limit: use fewer tokens, heads or dimensions`);
    return { problems: r.problems };
  }
  const spec: Spec = {
    ...(title !== undefined ? { title } : {}),
    dModel: dims.dModel,
    features: dims.features,
    featuresGiven: dims.featuresGiven,
    embeddings,
    inputs,
    heads: heads.heads,
    headsGiven: heads.given,
    ...(wo ? { wo } : {}),
    scale,
    mask,
    views,
  };
  return { spec, problems: r.problems };
}
