// The tensors a checkpoint must hold for its family (its description names them), with the shape the
// config implies for each, checked all together before any forward pass (a tensor whose shape
// disagrees is named with both shapes, rather than found as NaNs or a read past an array). Tensors
// the forward pass does not use are ignored: GPT-2's legacy attn.bias / masked_bias buffers (the
// causal mask, not weights), rotary inv_freq buffers. The numbers themselves are read lazily, one
// tensor when the forward pass asks for it, into an array of the file's own type (stored-read.ts):
// nothing keeps a float32 or float64 copy of a weight matrix; the products widen it a tile at a time
// (kernels/gemm32.ts), the float64 forward one matrix at a time on use. A kept copy is optional, so a
// single run holds one tensor at a time while an editor that re-runs keeps them all, as stored. A
// tensor a checkpoint saves inside another (a fused q/k/v or gate/up projection, as the family's
// description says: a TensorPart) is its rows of the saved tensor: a view over the saved tensor's
// rows where they are contiguous (one block), else a copy of just the part's stored words (kept:
// every part is cut at once; not kept: the last saved tensor read is held until another is asked
// for), so the forward pass and the lens read such a part as any tensor.
import { isDType, ITEM_SIZE, type DType } from '../tensors/dtype.js';
import type { TensorRef } from '../tensors/attention-file.js';
import type { StoredMatrix } from '../kernels/stored.js';
import type { ModelConfig } from './config.js';
import { ModelError } from './error.js';
import type { ModelNames, TensorPart } from './families/shared/family.js';
import { familyOf } from './families/index.js';
import { newStored, readStored, refuseNonFinite, storedArray, widened } from './stored-read.js';
import { allFinite } from './finite.js';

export { readFloat32, readStored } from './stored-read.js';

export type { LayerNames, ModelNames } from './families/shared/family.js';

/** The names and expected shapes of every tensor the model's family reads. */
export function namesOf(c: ModelConfig, has: (name: string) => boolean): { names: ModelNames; shapes: Map<string, number[]> } {
  return familyOf(c.type)!.tensors(c, has, c.block);
}

const shapeText = (s: readonly number[]) => `[${s.join(', ')}]`;

/**
 * Every tensor the architecture reads, checked against the config: present, a float dtype, the
 * expected shape. `where(name)` says which file holds a tensor (for the messages).
 */
export function checkTensors(c: ModelConfig, tensors: ReadonlyMap<string, TensorRef>, where: (name: string) => string): ModelNames {
  // Every layer reads tensors of its own, so a config with more layers than the files hold tensors
  // lacks one: the names of one layer more than there are tensors find it, without building the
  // names of millions of layers first (n_layer may say 16,777,216).
  const layers = Math.min(c.layers, tensors.size + 1);
  const { names, shapes } = namesOf(layers === c.layers ? c : { ...c, layers }, (n) => tensors.has(n));
  for (const [name, shape] of shapes) {
    const t = tensors.get(name);
    if (!t) throw new ModelError(`${where(name)}: tensor ${JSON.stringify(name)} is missing (the ${c.type} forward pass needs it, shape ${shapeText(shape)})`);
    if (!isDType(t.dtype)) throw new ModelError(`${where(name)}: tensor ${JSON.stringify(name)} is ${t.dtype}; attn reads F32, F16, BF16 and F64 weights`);
    if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) {
      throw new ModelError(`${where(name)}: tensor ${JSON.stringify(name)} has shape ${shapeText(t.shape)} but config.json implies ${shapeText(shape)}`);
    }
  }
  return names;
}

/** What the weights take, in elements and in bytes as stored: all of them, the largest tensor, and the embedding. */
export interface WeightSizes {
  total: number;
  largest: number;
  /**
   * The largest tensor a product reads whole: every one but the embedding, the head and the position
   * and token type tables (their rows are read one at a time, the head's logits a block of rows at a
   * time), which the float64 form widens whole.
   */
  product: number;
  /** Bytes as the files store them. */
  bytes: { total: number; largest: number; embed: number };
}

/** Elements and stored bytes of every tensor the forward pass reads (each once: a tied head is the embedding). */
export function weightElements(tensors: ReadonlyMap<string, TensorRef>, names: ModelNames): WeightSizes {
  const all = new Set<string>();
  for (const n of Object.values(names)) if (typeof n === 'string') all.add(n);
  // A part is counted as the tensor it is saved in, once.
  for (const l of names.layers) for (const n of Object.values(l)) if (typeof n === 'string') all.add(names.parts?.get(n)?.of ?? n);
  let total = 0, largest = 0, product = 0;
  const bytes = { total: 0, largest: 0, embed: 0 };
  const tables = new Set([names.embed, names.head, names.positions, names.tokenType]);
  for (const n of all) {
    const t = tensors.get(n)!;
    const count = t.shape.reduce((a, b) => a * b, 1), size = count * (isDType(t.dtype) ? ITEM_SIZE[t.dtype] : 4);
    total += count;
    largest = Math.max(largest, count);
    if (!tables.has(n)) product = Math.max(product, count);
    bytes.total += size;
    bytes.largest = Math.max(bytes.largest, size);
    if (n === names.embed) bytes.embed = size;
  }
  return { total, largest, product, bytes };
}

/** The weights as the forward pass asks for them: by name, read as stored on demand, kept when asked to. */
export class Weights {
  private readonly kept = new Map<string, StoredMatrix>();
  /** Tensors read from their bytes (each once when kept): for tests of the keeping. */
  decoded = 0;
  /** Not kept: the saved tensor whose parts were read last. */
  private whole?: { name: string; data: StoredMatrix };
  constructor(private readonly tensors: ReadonlyMap<string, TensorRef>, private keep: boolean, private readonly parts: ReadonlyMap<string, TensorPart> = new Map()) {}

  /** The tensor as its file stores it: rows its first dimension, cols the rest. */
  matrix(name: string): StoredMatrix {
    const have = this.kept.get(name);
    if (have) return have;
    const part = this.parts.get(name);
    if (part) return this.partOf(name, part);
    const t = this.tensor(name);
    const data = readStored(t, undefined, !deferred(t));
    this.decoded++;
    if (this.keep) this.kept.set(name, data);
    return data;
  }

  /**
   * Reads every tensor the pass reads, now, and keeps them all, as stored: a run that holds them anyway
   * (they are its file's bytes) reads them before its forward pass rather than inside it.
   */
  readAll(names: ModelNames): void {
    this.keep = true;
    this.whole = undefined;
    for (const n of Object.values(names)) if (typeof n === 'string') this.matrix(n);
    for (const l of names.layers) for (const n of Object.values(l)) if (typeof n === 'string') this.matrix(n);
  }

  /** A tensor widened to float32 for one use, a copy never kept: a norm's weight, a bias, the lens's one head's slices. */
  f32(name: string): Float32Array {
    const out = widened(this.matrix(name));
    if (!allFinite(out)) throw this.nonFinite([name], `in tensor ${JSON.stringify(name)}`);
    return out;
  }

  /**
   * Why a result the named tensors fed is not finite: the first NaN or ±Infinity among their stored
   * numbers (the message of a check at reading: file, tensor, element), or, where they hold none, an
   * overflow `where` the caller says (finite weights whose sums passed the precision's range).
   */
  nonFinite(names: readonly (string | undefined)[], where: string): ModelError {
    for (const name of names) {
      if (name === undefined) continue;
      const saved = this.parts.get(name)?.of ?? name;
      const t = this.tensors.get(saved);
      if (!t) continue;
      try {
        refuseNonFinite(t, t.dtype as DType, (this.kept.get(saved) ?? readStored(t, undefined, false)).data);
      } catch (e) {
        if (e instanceof ModelError) return e;
        throw e;
      }
    }
    return new ModelError(`the forward pass overflows ${where}: a number passed the range of its precision, though every weight it read is finite`);
  }

  /** Bytes of stored weights this object holds between runs (kept ones; the saved tensor of the last part read). */
  get bytes(): number {
    let total = this.whole ? this.whole.data.data.byteLength : 0;
    const buffers = new Set<ArrayBufferLike>();
    for (const m of this.kept.values()) {
      // A part that is a view over its saved tensor's rows holds no bytes of its own.
      if (buffers.has(m.data.buffer)) continue;
      buffers.add(m.data.buffer);
      total += m.data.buffer.byteLength;
    }
    return total;
  }

  shape(name: string): readonly number[] {
    const part = this.parts.get(name);
    if (!part) return this.tensors.get(name)?.shape ?? [];
    const [rows, ...rest] = this.tensors.get(part.of)?.shape ?? [0];
    return rows === 0 ? [] : [part.blocks * part.count, ...rest];
  }

  private tensor(name: string): TensorRef {
    const t = this.tensors.get(name);
    if (!t) throw new ModelError(`tensor ${JSON.stringify(name)} is missing`);
    return t;
  }

  /** A part's rows of its saved tensor; kept, every part of that tensor is cut and kept at once. */
  private partOf(name: string, part: TensorPart): StoredMatrix {
    let data = this.whole?.name === part.of ? this.whole.data : undefined;
    if (!data) {
      const t = this.tensor(part.of);
      data = readStored(t, undefined, !deferred(t));
      this.decoded++;
      if (!this.keep) this.whole = { name: part.of, data };
    }
    if (!this.keep) return rowsOf(data, part);
    for (const [other, p] of this.parts) if (p.of === part.of && !this.kept.has(other)) this.kept.set(other, rowsOf(data, p));
    return this.kept.get(name)!;
  }

  /** The dtype the file stores the tensor in (F32 for a name it does not hold). */
  dtype(name: string): DType {
    const t = this.tensors.get(name);
    return t && isDType(t.dtype) ? t.dtype : 'F32';
  }
}

/**
 * Whether a tensor's numbers are checked by what the forward pass computes from them rather than as
 * they are read (finite.ts): a matrix, which feeds a product or has its rows looked up. A vector (a
 * norm's weight, a bias) is checked as it is read, where the check costs nothing.
 */
const deferred = (t: TensorRef) => t.shape.length >= 2;

/**
 * A part's rows of the stored `m`: rows from…from + count − 1 of each of its equal blocks; a view
 * over m's rows when there is one block (contiguous rows), else a copy of the part's stored words.
 */
function rowsOf(m: StoredMatrix, part: TensorPart): StoredMatrix {
  const width = m.cols, per = m.rows / part.blocks, rows = part.blocks * part.count;
  if (part.blocks === 1) {
    const d = m.data;
    return { dtype: m.dtype, rows, cols: width, data: storedArray(m.dtype, d.buffer, d.byteOffset + part.from * width * d.BYTES_PER_ELEMENT, rows * width) };
  }
  const out = newStored(m.dtype, rows * width);
  for (let b = 0; b < part.blocks; b++) {
    const from = (b * per + part.from) * width;
    out.set(m.data.subarray(from, from + part.count * width) as never, b * part.count * width);
  }
  return { dtype: m.dtype, rows, cols: width, data: out };
}
