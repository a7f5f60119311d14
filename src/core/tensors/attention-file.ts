// One model's attention, whatever file it came from: layers × heads matrices of n × n (rows are
// queries and sum to 1), read one head at a time at its offset so memory stays one head's size.
// The readers (safetensors, npy, npz) only find the tensors; this file decides what their shapes
// mean: [n, n], [heads, n, n], [layers, heads, n, n], each with an optional leading batch of 1,
// or one tensor per layer, sorted by the layer number at the end of its name.
import { decode, ITEM_SIZE, type DType } from './dtype.js';
import { MAX_READ_BYTES, TensorFileError, type ByteSource } from './source.js';
import { checkColumns, checkRows, type AttentionSource } from './attention-source.js';

/** The names of the files that hold a model's attention: .safetensors, .npy, .npz (any case). */
export const ATTENTION_FILE_NAME = /\.(safetensors|npy|npz)$/i;

/**
 * Which attention file format `head` (a file's first bytes, 9 or more) starts like, or undefined for
 * anything else (a spec's text): \x93NUMPY, a zip's local header, or safetensors' 8-byte header
 * length followed by its JSON's "{". For bytes without a name, as standard input is.
 */
export function attentionFormat(head: Uint8Array): 'npy' | 'npz' | 'safetensors' | undefined {
  if (head.length >= 6 && head[0] === 0x93 && String.fromCharCode(...head.subarray(1, 6)) === 'NUMPY') return 'npy';
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 3 && head[3] === 4) return 'npz';
  if (head.length >= 9 && head[8] === 0x7b && head[6] === 0 && head[7] === 0) return 'safetensors';
  return undefined;
}

/** A tensor found in a file: where its C-order little-endian data starts in its source. */
export interface TensorRef {
  name: string;
  dtype: DType | string;
  shape: number[];
  source: ByteSource;
  offset: number;
}

/**
 * Largest n we open: 32,768. Nothing holds a head of that size: the passes read blocks of rows, the
 * head view draws it as a map of tiles (model-attention/tiles.ts), and inspect's budget of 2^30
 * weights (inspect.ts) allows one such head, refusing more before anything is read.
 */
export const MAX_TOKENS = 32768;
/** Most heads in all layers together (a 64-layer × 64-head model is 4,096). */
export const MAX_HEADS = 16384;

const DTYPES: readonly string[] = ['F64', 'F32', 'F16', 'BF16'];

/** The number of elements of a shape; an error when it is not a list of whole numbers or overflows. */
export function elementCount(file: string, name: string, shape: readonly number[]): number {
  for (const d of shape) {
    if (!Number.isSafeInteger(d) || d < 0) throw new TensorFileError(`${file}: tensor ${JSON.stringify(name)}: shape [${shape.join(', ')}] has a dimension that is not a whole number ≥ 0`);
  }
  // An axis of length 0 holds nothing, however long the others are (numpy and safetensors agree).
  if (shape.includes(0)) return 0;
  let count = 1;
  for (const d of shape) {
    count *= d;
    if (!Number.isSafeInteger(count)) throw new TensorFileError(`${file}: tensor ${JSON.stringify(name)}: shape [${shape.join(', ')}] has more elements than can be counted`);
  }
  return count;
}

const describe = (t: TensorRef) => `tensor ${JSON.stringify(t.name)} of shape [${t.shape.join(', ')}]`;

/** [batch 1?, layers?, heads?, n, n] → layers, heads, n; `perLayer` allows no layers axis. */
function dimensions(file: string, t: TensorRef, perLayer: boolean): { layers: number; heads: number; n: number } {
  const shape = [...t.shape];
  const maxRank = perLayer ? 4 : 5;
  if (shape.length < 2 || shape.length > maxRank) {
    throw new TensorFileError(`${file}: ${describe(t)}: expected ${perLayer ? '[heads, n, n] or [1, heads, n, n] per layer' : '[layers, heads, n, n] (or [heads, n, n], [n, n], with an optional leading batch of 1)'}`);
  }
  const n = shape[shape.length - 1];
  if (shape[shape.length - 2] !== n) throw new TensorFileError(`${file}: ${describe(t)}: the last two axes (queries × keys) are not square`);
  if (shape.length === maxRank) {
    if (shape[0] !== 1) throw new TensorFileError(`${file}: ${describe(t)}: a batch of ${shape[0]}; save one sequence (batch 1) per file`);
    shape.shift();
  }
  const heads = shape.length >= 3 ? shape[shape.length - 3] : 1;
  const layers = shape.length === 4 ? shape[0] : 1;
  if (n === 0 || heads === 0 || layers === 0) throw new TensorFileError(`${file}: ${describe(t)}: has no attention in it (an axis of length 0)`);
  if (n > MAX_TOKENS) throw new TensorFileError(`${file}: ${describe(t)}: ${n} tokens, more than the ${MAX_TOKENS} we open`);
  return { layers, heads, n };
}

/**
 * The note for a file whose layers are numbered with gaps: the file's numbers, and how they map to
 * the places the views and --layer count (0, 1, … in attn inspect and --layer; L1, L2, … in the grid).
 */
export function layerNote(numbers: readonly number[]): string {
  const more = numbers.length > 8 ? ', …' : '';
  const pairs = numbers.slice(0, 8).map((k, i) => `--layer ${i} and L${i + 1} are its ${k}`).join(', ');
  return `the file numbers its layers ${numbers.slice(0, 8).join(', ')}${more} (with gaps): attn inspect shows the file's numbers; --layer counts them in order from 0 and the grid's labels from L1 (${pairs}${more})`;
}

/** The layer number at the end of a tensor's name: `layers.3.attention` → 3, `attn_11` → 11. */
export function layerNumber(name: string): number | undefined {
  const m = /(\d+)\D*$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** `release` closes what the tensors were read from (the file), once the caller is done. */
export function attentionFromTensors(file: string, tensors: readonly TensorRef[], tokens: string[] | undefined, release: () => void): AttentionSource {
  if (tensors.length === 0) throw new TensorFileError(`${file}: no tensors in the file`);
  for (const t of tensors) {
    if (!DTYPES.includes(t.dtype)) throw new TensorFileError(`${file}: ${describe(t)}: dtype ${t.dtype} is not one we read (F64, F32, F16, BF16)`);
  }
  let layerTensors: TensorRef[];
  let layers: number, heads: number, n: number;
  let layerNumbers: number[] | undefined;
  const notes: string[] = [];
  if (tensors.length === 1) {
    layerTensors = [tensors[0]];
    ({ layers, heads, n } = dimensions(file, tensors[0], false));
  } else {
    const numbered = tensors.map((t) => ({ t, layer: layerNumber(t.name) }));
    const unnumbered = numbered.find((x) => x.layer === undefined);
    if (unnumbered) throw new TensorFileError(`${file}: ${tensors.length} tensors, but ${JSON.stringify(unnumbered.t.name)} does not end in a layer number (name one tensor, or name them as layers.0.attention, attn.1, …)`);
    numbered.sort((a, b) => a.layer! - b.layer!);
    for (let i = 1; i < numbered.length; i++) {
      if (numbered[i].layer === numbered[i - 1].layer) throw new TensorFileError(`${file}: tensors ${JSON.stringify(numbered[i - 1].t.name)} and ${JSON.stringify(numbered[i].t.name)} both end in layer ${numbered[i].layer}`);
    }
    layerTensors = numbered.map((x) => x.t);
    const gaps = numbered.some((x, i) => x.layer !== i);
    if (gaps) {
      layerNumbers = numbered.map((x) => x.layer!);
      notes.push(layerNote(layerNumbers));
    }
    const first = dimensions(file, layerTensors[0], true);
    ({ heads, n } = first);
    layers = layerTensors.length;
    for (const t of layerTensors) {
      const d = dimensions(file, t, true);
      if (d.heads !== heads || d.n !== n) throw new TensorFileError(`${file}: ${describe(t)} does not match ${describe(layerTensors[0])} (every layer needs the same heads and tokens)`);
      if (t.dtype !== layerTensors[0].dtype) throw new TensorFileError(`${file}: ${describe(t)} is ${t.dtype} but ${describe(layerTensors[0])} is ${layerTensors[0].dtype}`);
    }
  }
  if (layers * heads > MAX_HEADS) throw new TensorFileError(`${file}: ${layers} layers × ${heads} heads is more than the ${MAX_HEADS} heads we open`);
  if (tokens && tokens.length !== n) throw new TensorFileError(`${file}: ${tokens.length} token(s) given, but the attention is ${n} × ${n}`);
  const dtype = layerTensors[0].dtype as DType;
  const item = ITEM_SIZE[dtype];
  const headBytes = n * n * item;
  return {
    file, dtype, layers, heads, n,
    ...(tokens ? { tokens } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    ...(layerNumbers ? { layerNumbers } : {}),
    head(layer, head, out) {
      // A whole head as float64 is 8 GiB at 32,768 tokens: the passes read rows, nothing asks for it.
      if (n * n * 8 > MAX_READ_BYTES) throw new TensorFileError(`${file}: a whole head of ${n} tokens is ${n * n * 8} bytes as float64, over the ${MAX_READ_BYTES}-byte limit of one read (read its rows)`);
      const into = out ?? new Float64Array(n * n);
      decode(dtype, this.rowBytes(layer, head, 0, n), n * n, into);
      return into;
    },
    rowBytes(layer, head, first, rows) {
      checkRows(layers, heads, n, layer, head, first, rows);
      const t = layerTensors.length === 1 ? layerTensors[0] : layerTensors[layer];
      const index = layerTensors.length === 1 ? layer * heads + head : head;
      return t.source.read(t.offset + index * headBytes + first * n * item, rows * n * item);
    },
    columnBytes(layer, head, first, rows, j0, cols) {
      checkRows(layers, heads, n, layer, head, first, rows);
      checkColumns(n, j0, cols);
      const t = layerTensors.length === 1 ? layerTensors[0] : layerTensors[layer];
      const index = layerTensors.length === 1 ? layer * heads + head : head;
      const out = new Uint8Array(rows * cols * item), width = cols * item;
      for (let r = 0; r < rows; r++) {
        const at = t.offset + index * headBytes + ((first + r) * n + j0) * item;
        if (t.source.readInto) t.source.readInto(at, out.subarray(r * width, (r + 1) * width));
        else out.set(t.source.read(at, width), r * width);
      }
      return out;
    },
    close: release,
  };
}
