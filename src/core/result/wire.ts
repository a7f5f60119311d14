// The result model's serialisation, its only one: how it crosses from the analysis worker to the
// extension host (the buffer transferred, not copied) and from the host, as it is, to the webview
// (webview.postMessage has carried ArrayBuffers as binary since 1.57): a small JSON header plus ONE
// ArrayBuffer holding every tensor. The receiver (the host's analysis cache, the panel's message
// check) reads the model back once: it checks the header and that every tensor's bytes lie inside
// the buffer, instead of walking every number, and the tensors are views on the buffer.
//
// What is not sent because the receiver derives it exactly (derived.ts): the scores (Q·Kᵀ by the core's own
// matmulTransposed, which sums every cell in one fixed order on the WebAssembly kernel and on the
// plain loops alike, so the same bits), the softmax weights (the core's arithmetic over those
// scores), the scaled scores (scores ÷ divisor where not masked), and any tensor that is the same
// array as one already sent (Q = K = V = X for identity weights; output = concat without W_O).
// A head's value-weighted norms travel as their n numbers ‖v_j W_O^h‖ (the n × n norms are the
// weights times them, derived.ts). So nothing n × n travels but the mask, one bit per cell (eight cells a byte, in row order, the
// lowest bit first; the masks the core makes hold only 0 and 1): 1,024 tokens × 4 heads is 3.4 MB,
// not 38 (and not 4.3 with a byte per cell: the whole message crosses code-server's connection).
import type { Matrix } from '../linalg/matrix.js';
import type { TrainingJson } from '../train/frames.js';
import type { LinalgJson } from './linalg-json.js';
import { linalgProblem } from './linalg-check.js';
import type {
  AttentionData, ComputeWarningData, HeadData, InputData, QuadrantData, WeightData, WeightRole,
} from './attention-data.js';
import { derivedHead, type KeptHead } from './derived.js';
import type { ParameterCount } from '../attention/parameters.js';
import { isObject } from '../json/object.js';
import { ROLES as ROLE_NAMES } from '../vocabulary.js';


/** A Float64 matrix inside the message's buffer: byte offset (a multiple of 8), rows, cols. */
export interface TensorRef {
  readonly at: number;
  readonly rows: number;
  readonly cols: number;
}

/** An n × n mask inside the buffer: n × n bits, ⌈n² / 8⌉ bytes (read back as a Uint8Array of 0 and 1). */
export interface MaskRef {
  readonly at: number;
  readonly n: number;
}

/**
 * A part of the model as the header carries it: every matrix a TensorRef into the buffer, every mask
 * a MaskRef, everything else as it is. The header's types are made from the model's, so the wire
 * can carry nothing the model does not have.
 */
export type Serialised<T> =
  T extends Matrix ? TensorRef
  : T extends Uint8Array ? MaskRef
  : T extends object ? { [K in keyof T]: Serialised<T[K]> }
  : T;

/** A head without what the receiver derives (scores, weights) or shares (the input's mask). */
export type WireHead = Serialised<Omit<KeptHead, 'masked'>>;

export type WireInput = Serialised<Omit<InputData, 'heads'>> & { readonly heads: readonly WireHead[] };

export type WireWeight = Serialised<WeightData>;

/** The header: the model with its tensors replaced by their places in the buffer. */
export type WireAttention = Serialised<Omit<AttentionData, 'inputs'>> & {
  readonly inputs: readonly WireInput[];
  /** Bytes of the buffer that travels with the header. */
  readonly bytes: number;
};

/** The model serialised: what crosses from the worker to the host, and from the host to the panel. */
export interface WireMessage {
  header: WireAttention;
  buffer: ArrayBuffer;
}

// ---- encoding (the analysis worker) ----

/** Lays tensors out in one buffer; an array already placed is referenced again, not copied. */
class Packer {
  private readonly placed = new Map<ArrayBufferView, number>();
  private readonly parts: { at: number; bytes: Uint8Array }[] = [];
  private size = 0;

  /** Masks already placed, by the mask (their bits are a new array, placed once). */
  private readonly masks = new Map<Uint8Array, number>();

  private place(view: Float64Array | Uint8Array): number {
    const known = this.placed.get(view);
    if (known !== undefined) return known;
    this.size = Math.ceil(this.size / 8) * 8;
    const at = this.size;
    this.parts.push({ at, bytes: new Uint8Array(view.buffer, view.byteOffset, view.byteLength) });
    this.size += view.byteLength;
    this.placed.set(view, at);
    return at;
  }

  tensor(m: Matrix): TensorRef {
    return { at: this.place(m.data), rows: m.rows, cols: m.cols };
  }

  mask(masked: Uint8Array, n: number): MaskRef {
    let at = this.masks.get(masked);
    if (at === undefined) {
      at = this.place(maskBits(masked, n));
      this.masks.set(masked, at);
    }
    return { at, n };
  }

  finish(): ArrayBuffer {
    const out = new Uint8Array(Math.ceil(this.size / 8) * 8);
    for (const p of this.parts) out.set(p.bytes, p.at);
    return out.buffer;
  }
}

/** A mask's n × n cells as bits: cell c is bit c % 8 of byte ⌊c / 8⌋; a cell is masked when non-zero. */
export function maskBits(masked: Uint8Array, n: number): Uint8Array {
  const cells = n * n;
  const bits = new Uint8Array(Math.ceil(cells / 8));
  for (let c = 0; c < cells; c++) if (masked[c] !== 0) bits[c >>> 3] |= 1 << (c & 7);
  return bits;
}

/** The mask's cells again from its bits: 1 where masked, 0 elsewhere. */
export function maskFromBits(bits: Uint8Array, n: number): Uint8Array {
  const cells = n * n;
  const masked = new Uint8Array(cells);
  for (let c = 0; c < cells; c++) masked[c] = (bits[c >>> 3] >>> (c & 7)) & 1;
  return masked;
}

export function encodeAttention(data: AttentionData): WireMessage {
  const pack = new Packer();
  const inputs = data.inputs.map((input): WireInput => ({
    name: input.name,
    tokens: [...input.tokens],
    embeddings: pack.tensor(input.embeddings),
    masked: pack.mask(input.masked, input.tokens.length),
    heads: input.heads.map((h) => ({
      name: h.name, dk: h.dk, dv: h.dv, divisor: h.divisor,
      q: pack.tensor(h.q), k: pack.tensor(h.k), v: pack.tensor(h.v), output: pack.tensor(h.output),
      ...(h.valueNorms ? { valueNorms: pack.tensor(h.valueNorms) } : {}),
    })),
    concat: pack.tensor(input.concat),
    output: pack.tensor(input.output),
  }));
  const matrices = data.matrices.map((m): WireWeight => ({
    role: m.role, ...(m.head !== undefined ? { head: m.head } : {}), rows: m.rows, cols: m.cols, identity: m.identity,
    ...(m.values ? { values: pack.tensor(m.values) } : {}),
  }));
  const buffer = pack.finish();
  const header: WireAttention = {
    ...(data.title !== undefined ? { title: data.title } : {}),
    features: [...data.features], dModel: data.dModel, scale: data.scale, mask: data.mask,
    inputs, matrices, views: data.views, parameters: data.parameters, warnings: [...data.warnings],
    ...(data.training ? { training: data.training } : {}),
    ...(data.linalg ? { linalg: data.linalg } : {}),
    bytes: buffer.byteLength,
  };
  return { header, buffer };
}

// ---- decoding (the host's cache, the webview): check once, then build typed views on the buffer ----

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
const isIndex = (x: unknown, min = 0): x is number => Number.isSafeInteger(x) && (x as number) >= min;
const ROLES: readonly string[] = ROLE_NAMES;

/** A decoding failure: a sentence naming the field at fault. */
export class WireError extends Error {}

class Unpacker {
  constructor(private readonly buffer: ArrayBuffer) {}

  tensor(x: unknown, path: string, rows: number | undefined, cols: number | undefined): Matrix {
    if (!isObject(x)) throw new WireError(`${path} is not a tensor reference`);
    const { at } = x;
    if (!isIndex(at) || at % 8 !== 0) throw new WireError(`${path}.at is not a byte offset (a multiple of 8)`);
    if (!isIndex(x.rows) || !isIndex(x.cols)) throw new WireError(`${path} has no whole-number shape`);
    if (rows !== undefined && x.rows !== rows) throw new WireError(`${path} has ${x.rows} rows, expected ${rows}`);
    if (cols !== undefined && x.cols !== cols) throw new WireError(`${path} has ${x.cols} columns, expected ${cols}`);
    const length = x.rows * x.cols;
    if (at + length * 8 > this.buffer.byteLength) throw new WireError(`${path} (${x.rows} × ${x.cols}) runs past the end of the data`);
    return { rows: x.rows, cols: x.cols, data: new Float64Array(this.buffer, at, length) };
  }

  mask(x: unknown, path: string, n: number): Uint8Array {
    if (!isObject(x) || !isIndex(x.at) || x.n !== n) throw new WireError(`${path} is not an ${n} × ${n} mask`);
    const bytes = Math.ceil((n * n) / 8);
    if (x.at + bytes > this.buffer.byteLength) throw new WireError(`${path} runs past the end of the data`);
    return maskFromBits(new Uint8Array(this.buffer, x.at, bytes), n);
  }
}

function strings(x: unknown, path: string, length?: number): string[] {
  if (!Array.isArray(x) || !x.every(isStr)) throw new WireError(`${path} is not a list of texts`);
  if (length !== undefined && x.length !== length) throw new WireError(`${path} has ${x.length} texts, expected ${length}`);
  return x;
}

/**
 * A head's ‖v_j W_O^h‖, checked as the views will read them: each a finite number ≥ 0 (n numbers,
 * not n × n), so a colour scale or a hover never meets NaN or a negative size.
 */
function norms(m: Matrix, path: string): Matrix {
  for (let j = 0; j < m.rows; j++) {
    const v = m.data[j];
    if (!(Number.isFinite(v) && v >= 0)) throw new WireError(`${path}[${j}] is ${String(v)}, not a finite norm ≥ 0`);
  }
  return m;
}

function decodeHead(x: unknown, path: string, n: number, masked: Uint8Array, un: Unpacker): HeadData {
  if (!isObject(x)) throw new WireError(`${path} is not an object`);
  if (!isStr(x.name)) throw new WireError(`${path}.name is not text`);
  if (!isIndex(x.dk) || !isIndex(x.dv)) throw new WireError(`${path}.dk or dv is not a whole number`);
  if (!isNum(x.divisor) || x.divisor <= 0) throw new WireError(`${path}.divisor is not a positive number`);
  // Scores, weights and value-weighted norms are derived when first read (derived.ts), not at decode.
  return derivedHead({
    name: x.name, dk: x.dk, dv: x.dv, divisor: x.divisor, masked,
    q: un.tensor(x.q, `${path}.q`, n, x.dk), k: un.tensor(x.k, `${path}.k`, n, x.dk),
    v: un.tensor(x.v, `${path}.v`, n, x.dv), output: un.tensor(x.output, `${path}.output`, n, x.dv),
    ...(x.valueNorms !== undefined ? { valueNorms: norms(un.tensor(x.valueNorms, `${path}.valueNorms`, n, 1), `${path}.valueNorms`) } : {}),
  });
}

function decodeInput(x: unknown, path: string, d: number, un: Unpacker): InputData {
  if (!isObject(x)) throw new WireError(`${path} is not an object`);
  if (!isStr(x.name)) throw new WireError(`${path}.name is not text`);
  const tokens = strings(x.tokens, `${path}.tokens`);
  const n = tokens.length;
  const masked = un.mask(x.masked, `${path}.masked`, n);
  if (!Array.isArray(x.heads)) throw new WireError(`${path}.heads is not a list`);
  const heads = x.heads.map((h, i) => decodeHead(h, `${path}.heads[${i}]`, n, masked, un));
  const concatWidth = heads.reduce((s, h) => s + h.dv, 0);
  return {
    name: x.name, tokens, masked, heads,
    embeddings: un.tensor(x.embeddings, `${path}.embeddings`, n, d),
    concat: un.tensor(x.concat, `${path}.concat`, n, heads.length > 0 ? concatWidth : undefined),
    output: un.tensor(x.output, `${path}.output`, n, undefined),
  };
}

function decodeWeight(x: unknown, path: string, un: Unpacker): WeightData {
  if (!isObject(x)) throw new WireError(`${path} is not an object`);
  if (!isStr(x.role) || !ROLES.includes(x.role)) throw new WireError(`${path}.role is not one of ${ROLES.join(', ')}`);
  if (!isIndex(x.rows) || !isIndex(x.cols)) throw new WireError(`${path} has no whole-number shape`);
  if (x.head !== undefined && !isIndex(x.head)) throw new WireError(`${path}.head is not a whole number`);
  if (typeof x.identity !== 'boolean') throw new WireError(`${path}.identity is not true or false`);
  if (!x.identity && x.values === undefined) throw new WireError(`${path} has no values`);
  return {
    role: x.role as WeightRole, ...(x.head !== undefined ? { head: x.head } : {}), rows: x.rows, cols: x.cols, identity: x.identity,
    ...(x.identity ? {} : { values: un.tensor(x.values, `${path}.values`, x.rows, x.cols) }),
  };
}

/**
 * A weight's shape against the model's: an identity has no values to bound its rows and columns,
 * and a view draws rows × cols cells from them (1e9 rows froze the Projection view), so each is
 * checked against d_model and its head's d_k or d_v.
 */
function weightShapeProblem(m: WeightData, d: number, heads: readonly HeadData[] | undefined): string | undefined {
  if (m.identity && m.rows !== m.cols) return `is an identity of ${m.rows} × ${m.cols}, not square`;
  if (m.role === 'wo') {
    if (m.head !== undefined) return 'is W_O but names a head';
    const concat = heads?.reduce((sum, h) => sum + h.dv, 0);
    if (concat !== undefined && m.rows !== concat) return `(W_O) has ${m.rows} rows, expected ${concat} (the heads' d_v added up)`;
    return undefined;
  }
  if (m.head === undefined) return `(${m.role}) names no head`;
  if (m.rows !== d) return `(${m.role}) has ${m.rows} rows, expected d_model ${d}`;
  if (heads === undefined) return undefined;
  const head = heads[m.head];
  if (!head) return `names head ${m.head}, but there are ${heads.length} heads (numbered from 0)`;
  const width = m.role === 'wv' ? head.dv : head.dk;
  if (m.cols !== width) return `(${m.role}) has ${m.cols} columns, expected ${width} (the head's ${m.role === 'wv' ? 'd_v' : 'd_k'})`;
  return undefined;
}

function axisProblem(x: unknown, path: string, d: number): string | undefined {
  if (!isObject(x)) return `${path} is not an object`;
  if (!isStr(x.label)) return `${path}.label is not text`;
  if (!Array.isArray(x.direction) || x.direction.length !== d || !x.direction.every(isNum)) return `${path}.direction is not ${d} numbers`;
  if (x.ends !== undefined && !(Array.isArray(x.ends) && x.ends.length === 2 && x.ends.every(isStr))) return `${path}.ends is not two texts`;
  return undefined;
}

function rowsProblem(x: unknown, path: string, rows?: number, cols?: number): string | undefined {
  if (!Array.isArray(x)) return `${path} is not a list`;
  if (rows !== undefined && x.length !== rows) return `${path} has ${x.length} rows, expected ${rows}`;
  let width = cols;
  for (let r = 0; r < x.length; r++) {
    const row: unknown = x[r];
    if (!Array.isArray(row)) return `${path}[${r}] is not a list`;
    width ??= row.length;
    if (row.length !== width) return `${path}[${r}] has ${row.length} numbers, expected ${width}`;
    if (!row.every(isNum)) return `${path}[${r}] holds something that is not a finite number`;
  }
  return undefined;
}

/**
 * The Training view's data (small JSON by construction): every frame the right shape, once, here.
 * Shapes are checked against the head that learns (an empty W_Q made the view throw mid-drawing),
 * targets against their input's tokens, and a run that was not refused has a loss to draw (an
 * empty one drew a curve through NaN).
 */
function trainingProblem(t: unknown, inputs: readonly InputData[], d: number): string | undefined {
  if (!isObject(t)) return 'not an object';
  if (!isIndex(t.head) || !isStr(t.headName) || !isNum(t.rate) || !isIndex(t.steps)) return 'head, headName, rate or steps is missing';
  if (!isIndex(t.input) || t.input >= inputs.length) return 'input is not one of the inputs';
  if (!Array.isArray(t.learn) || !t.learn.every((r) => isStr(r) && ROLES.includes(r))) return 'learn is not a list of roles';
  if (!Array.isArray(t.loss) || !t.loss.every(isNum)) return 'loss is not a list of numbers';
  if (t.tooBig !== undefined && !isStr(t.tooBig)) return 'tooBig is not text';
  if (t.tooBig === undefined && t.loss.length === 0) return 'loss is empty, for a run that was not refused';
  if (!Array.isArray(t.targets)) return 'targets is not a list';
  for (let g = 0; g < t.targets.length; g++) {
    const target: unknown = t.targets[g];
    if (!isObject(target) || !isIndex(target.input) || target.input >= inputs.length) return `targets[${g}].input is not one of the inputs`;
    const n = inputs[target.input].tokens.length;
    if (!isIndex(target.query) || target.query >= n) return `targets[${g}].query is not one of the input's ${n} tokens`;
    if (target.key !== undefined && (!isIndex(target.key) || target.key >= n)) return `targets[${g}].key is not one of the input's ${n} tokens`;
    if (target.output !== undefined && !(Array.isArray(target.output) && target.output.every(isNum))) return `targets[${g}].output is not a list of numbers`;
  }
  if (t.stoppedAt !== undefined && !isIndex(t.stoppedAt)) return 'stoppedAt is not a whole number';
  if (t.progress !== undefined && !(Array.isArray(t.progress) && t.progress.length === t.targets.length && t.progress.every((p) => Array.isArray(p) && p.length === (t.loss as unknown[]).length && p.every(isNum)))) return 'progress is not one list of numbers per target, as long as loss';
  const head = inputs[t.input].heads[t.head];
  if (!head) return `head ${t.head} is not one of the ${inputs[t.input].heads.length} heads`;
  const n = inputs[t.input].tokens.length;
  if (!Array.isArray(t.frames)) return 'frames is not a list';
  for (let f = 0; f < t.frames.length; f++) {
    const fr: unknown = t.frames[f];
    const path = `frames[${f}]`;
    const problem = !isObject(fr) ? `${path} is not an object`
      : !isIndex(fr.step) ? `${path}.step is not a whole number`
      : rowsProblem(fr.wq, `${path}.wq`, d, head.dk) ?? rowsProblem(fr.wk, `${path}.wk`, d, head.dk) ?? rowsProblem(fr.wv, `${path}.wv`, d, head.dv)
        ?? rowsProblem(fr.weights, `${path}.weights`, n, n);
    if (problem) return problem;
  }
  return undefined;
}

export { linalgProblem } from './linalg-check.js';

/** The model from a header and its buffer, or a WireError naming the field at fault. */
export function decodeAttention(header: unknown, data: unknown): AttentionData {
  // By its tag, not instanceof: a buffer made in another realm (a frame, a worker) is still one.
  if (Object.prototype.toString.call(data) !== '[object ArrayBuffer]') throw new WireError('the data is not binary (an ArrayBuffer)');
  const buffer = data as ArrayBuffer;
  const x = header;
  if (!isObject(x)) throw new WireError('the result is not an object');
  if (x.bytes !== buffer.byteLength) throw new WireError(`the data has ${buffer.byteLength} bytes, the header says ${String(x.bytes)}`);
  if (!isIndex(x.dModel, 1)) throw new WireError('dModel is not a positive whole number');
  const d = x.dModel;
  const features = strings(x.features, 'features', d);
  if (!isStr(x.scale)) throw new WireError('scale is missing');
  if (!isStr(x.mask)) throw new WireError('mask is missing');
  if (x.title !== undefined && !isStr(x.title)) throw new WireError('title is not text');
  const un = new Unpacker(buffer);
  if (!Array.isArray(x.inputs)) throw new WireError('inputs is not a list');
  const inputs = x.inputs.map((inp, i) => {
    try {
      return decodeInput(inp, `inputs[${i}]`, d, un);
    } catch (err) {
      throw err instanceof WireError ? new WireError(`input ${i + 1} is malformed: ${err.message}`) : err;
    }
  });
  if (!Array.isArray(x.matrices)) throw new WireError('matrices is not a list');
  const matrices = x.matrices.map((m, i) => decodeWeight(m, `matrices[${i}]`, un));
  matrices.forEach((m, i) => {
    const problem = weightShapeProblem(m, d, inputs[0]?.heads);
    if (problem) throw new WireError(`matrices[${i}] ${problem}`);
  });
  if (!isObject(x.views)) throw new WireError('views is missing');
  const q = x.views.quadrant;
  if (q !== undefined) {
    const problem = !isObject(q) ? 'views.quadrant is not an object'
      : axisProblem(q.x, 'views.quadrant.x', d) ?? axisProblem(q.y, 'views.quadrant.y', d)
      ?? (q.quadrants === undefined || (Array.isArray(q.quadrants) && q.quadrants.length === 4 && q.quadrants.every(isStr))
        ? undefined : 'views.quadrant.quadrants is not four texts');
    if (problem) throw new WireError(`views.quadrant is malformed: ${problem}`);
  }
  const p = x.parameters;
  const parameters = !isObject(p) ? 'parameters is not an object'
    : !isNum(p.total) ? 'parameters.total is not a number'
    : !isNum(p.wo) ? 'parameters.wo is not a number'
    : !Array.isArray(p.heads) ? 'parameters.heads is not a list'
    : !isObject(p.fullSize) ? 'parameters.fullSize is not an object'
    : !isNum(p.fullSize.total) ? 'parameters.fullSize.total is not a number'
    : undefined;
  if (parameters) throw new WireError(`parameters are malformed: ${parameters}`);
  if (!Array.isArray(x.warnings)) throw new WireError('warnings is not a list');
  if (x.training !== undefined) {
    const problem = trainingProblem(x.training, inputs, d);
    if (problem) throw new WireError(`training is malformed: ${problem}`);
  }
  if (x.linalg !== undefined) {
    const problem = linalgProblem(x.linalg);
    if (problem) throw new WireError(`linalg is malformed: ${problem}`);
  }
  return {
    ...(x.linalg !== undefined ? { linalg: x.linalg as unknown as LinalgJson } : {}),
    ...(x.title !== undefined ? { title: x.title } : {}),
    features, dModel: d, scale: x.scale, mask: x.mask, inputs, matrices,
    views: q !== undefined ? { quadrant: q as unknown as QuadrantData } : {},
    parameters: p as unknown as ParameterCount,
    warnings: x.warnings as ComputeWarningData[],
    ...(x.training !== undefined ? { training: x.training as unknown as TrainingJson } : {}),
  };
}
