// The tensors a checkpoint must hold for its family (its description names them), with the shape the
// config implies for each, checked all together before any forward pass (a tensor whose shape
// disagrees is named with both shapes, rather than found as NaNs or a read past an array). Tensors
// the forward pass does not use are ignored: GPT-2's legacy attn.bias / masked_bias buffers (the
// causal mask, not weights), rotary inv_freq buffers. The numbers themselves are read lazily, one
// tensor when the forward pass asks for it, and decoded to float32 (exact for F16 and BF16); a kept
// copy is optional, so a single run holds one tensor at a time while an editor that re-runs can keep
// them. A kept matrix is kept in the form the kernel multiplies, float64 (decoded once per load, not
// once per run); asked for as float32 (the lens), it is narrowed back, exactly, since it came from
// float32. A tensor a checkpoint saves inside another (a fused q/k/v or gate/up projection, as the
// family's description says: a TensorPart) is read as its rows of the saved tensor, decoded once for
// all its parts (kept: every part is cut at once; not kept: the last saved tensor decoded is held
// until another is asked for), so the forward pass and the lens read such a part as any tensor.
import { decode, isDType, ITEM_SIZE, type DType } from '../tensors/dtype.js';
import type { TensorRef } from '../tensors/attention-file.js';
import { MAX_READ_BYTES } from '../tensors/source.js';
import type { ModelConfig } from './config.js';
import { ModelError } from './error.js';
import type { ModelNames, TensorPart } from './families/shared/family.js';
import { familyOf } from './families/index.js';

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

/** Elements of every tensor the forward pass reads (each once: a tied head is the embedding). */
export function weightElements(tensors: ReadonlyMap<string, TensorRef>, names: ModelNames): { total: number; largest: number } {
  const all = new Set<string>();
  for (const n of Object.values(names)) if (typeof n === 'string') all.add(n);
  // A part is counted as the tensor it is saved in, once.
  for (const l of names.layers) for (const n of Object.values(l)) if (typeof n === 'string') all.add(names.parts?.get(n)?.of ?? n);
  let total = 0, largest = 0;
  for (const n of all) {
    const count = tensors.get(n)!.shape.reduce((a, b) => a * b, 1);
    total += count;
    largest = Math.max(largest, count);
  }
  return { total, largest };
}

/** Decodes a tensor's bytes (read in slices within the readers' single-read limit) to float32. */
export function readFloat32(t: TensorRef, maxRead = MAX_READ_BYTES): Float32Array {
  const dtype = t.dtype as DType;
  const count = t.shape.reduce((a, b) => a * b, 1);
  const item = ITEM_SIZE[dtype];
  const out = new Float32Array(count);
  const perRead = Math.max(1, Math.floor(maxRead / item / 2));
  let wide: Float64Array | undefined;
  for (let at = 0; at < count; at += perRead) {
    const n = Math.min(perRead, count - at);
    const bytes = t.source.read(t.offset + at * item, n * item);
    if (dtype === 'F32' && bytes.byteOffset % 4 === 0) {
      out.set(new Float32Array(bytes.buffer, bytes.byteOffset, n), at); // little-endian hosts (every one Node runs on)
    } else if (dtype === 'BF16' && bytes.byteOffset % 2 === 0) {
      const half = new Uint16Array(bytes.buffer, bytes.byteOffset, n);
      const bits = new Uint32Array(out.buffer, at * 4, n);
      for (let i = 0; i < n; i++) bits[i] = half[i] << 16;
    } else {
      if (!wide || wide.length < n) wide = new Float64Array(n);
      decode(dtype, bytes, n, wide);
      for (let i = 0; i < n; i++) {
        out[at + i] = wide[i];
        // An F64 weight past float32's range becomes ±Infinity here: said as what the file holds.
        if (out[at + i] - out[at + i] !== 0 && wide[i] - wide[i] === 0) {
          throw new ModelError(`${t.source.name}: tensor ${JSON.stringify(t.name)} holds ${wide[i]} at element ${at + i}, beyond float32's range (±${FLOAT32_MAX.toExponential(4)}), in which attn computes`);
        }
      }
    }
  }
  refuseNonFinite(t, out);
  return out;
}

/** The largest finite float32. */
const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * A weight that is NaN or ±Infinity (a corrupt or badly converted file; F16 and BF16 have both)
 * would run to NaN attention weights, which no picture and no JSON can show: refused by name.
 */
function refuseNonFinite(t: TensorRef, data: Float32Array): void {
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (v - v !== 0) throw new ModelError(`${t.source.name}: tensor ${JSON.stringify(t.name)} holds ${v} at element ${i}; a weight must be a finite number`);
  }
}

/** The weights as the forward pass asks for them: by name, decoded on demand, kept when asked to. */
export class Weights {
  private readonly kept = new Map<string, Float32Array>();
  private readonly kept64 = new Map<string, Float64Array>();
  /** Tensors decoded from their bytes (each once when kept): for tests of the keeping. */
  decoded = 0;
  /** Not kept: the saved tensor whose parts were read last, decoded. */
  private whole?: { name: string; data: Float32Array };
  constructor(private readonly tensors: ReadonlyMap<string, TensorRef>, private readonly keep: boolean, private readonly parts: ReadonlyMap<string, TensorPart> = new Map()) {}

  /** The tensor's numbers, row-major, as float32. */
  f32(name: string): Float32Array {
    const have = this.kept.get(name);
    if (have) return have;
    const wide = this.kept64.get(name);
    if (wide) return new Float32Array(wide);
    const part = this.parts.get(name);
    if (part) return this.partOf(name, part);
    const t = this.tensors.get(name);
    if (!t) throw new ModelError(`tensor ${JSON.stringify(name)} is missing`);
    const data = readFloat32(t);
    this.decoded++;
    if (this.keep) this.kept.set(name, data);
    return data;
  }

  /** The tensor's numbers as float64 (what the matrix kernel multiplies); kept in this form alone when kept. */
  f64(name: string): Float64Array {
    const have = this.kept64.get(name);
    if (have) return have;
    const out = new Float64Array(this.f32(name)); // widened element by element, exactly
    if (this.keep) {
      this.kept64.set(name, out);
      this.kept.delete(name);
    }
    return out;
  }

  shape(name: string): readonly number[] {
    const part = this.parts.get(name);
    if (!part) return this.tensors.get(name)?.shape ?? [];
    const [rows, ...rest] = this.tensors.get(part.of)?.shape ?? [0];
    return rows === 0 ? [] : [part.blocks * part.count, ...rest];
  }

  /** A part's rows of its saved tensor; kept, every part of that tensor is cut and kept at once. */
  private partOf(name: string, part: TensorPart): Float32Array {
    const t = this.tensors.get(part.of);
    if (!t) throw new ModelError(`tensor ${JSON.stringify(part.of)} is missing`);
    let data = this.whole?.name === part.of ? this.whole.data : undefined;
    if (!data) {
      data = readFloat32(t);
      this.decoded++;
      if (!this.keep) this.whole = { name: part.of, data };
    }
    if (!this.keep) return rowsOf(data, t.shape[0], part);
    for (const [other, p] of this.parts) if (p.of === part.of && !this.kept.has(other) && !this.kept64.has(other)) this.kept.set(other, rowsOf(data, t.shape[0], p));
    return this.kept.get(name)!;
  }

  /** The dtype the file stores the tensor in (F32 for a name it does not hold). */
  dtype(name: string): DType {
    const t = this.tensors.get(name);
    return t && isDType(t.dtype) ? t.dtype : 'F32';
  }
}

/** A part's rows of the decoded `data` ([rows, …] row-major): rows from…from + count − 1 of each of its equal blocks. */
function rowsOf(data: Float32Array, rows: number, part: TensorPart): Float32Array {
  const width = data.length / rows, per = rows / part.blocks;
  const out = new Float32Array(part.blocks * part.count * width);
  for (let b = 0; b < part.blocks; b++) {
    const from = (b * per + part.from) * width;
    out.set(data.subarray(from, from + part.count * width), b * part.count * width);
  }
  return out;
}
