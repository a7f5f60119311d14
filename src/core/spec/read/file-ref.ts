// A matrix a spec keeps in a tensor file beside it instead of in its JSON text, so a 768-wide,
// 12-head layer is a small spec: { "file": "w.safetensors", "tensor": "layer0.wq" } (or an .npy,
// or an .npz member). Read exactly (F64, F32, F16, BF16 decoded to float64), 2-D, finite, within
// a size cap estimated from the file's header before a byte of data is read.
import { childAt, type Node } from '../../json/json-tree.js';
import type { JsonPath } from '../../json/path.js';
import type { Matrix } from '../../linalg/matrix.js';
import type { Reader } from './values.js';
import { decode, ITEM_SIZE, type DType } from '../../tensors/dtype.js';
import { TensorFileError } from '../../tensors/source.js';
import type { TensorFiles } from '../../files/spec-files.js';

/** Numbers one referenced tensor may hold: 128 MB as float64 (a 4,096 × 4,096 matrix). */
export const MAX_FILE_NUMBERS = 16_777_216;
/**
 * Numbers all the tensor files of one spec may hold together: 256 MB as float64. Without it, 256
 * heads naming one 4,096 × 4,096 file three ways each ("w.npy", "./w.npy", ".//w.npy", …) made the
 * reader allocate 100 GB before any other limit was looked at.
 */
export const MAX_FILE_NUMBERS_TOTAL = 2 * MAX_FILE_NUMBERS;

const DTYPES: readonly string[] = ['F64', 'F32', 'F16', 'BF16'];
const thousandsText = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** An object with a "file" property: a reference to a tensor file, not numbers written out. */
export function isFileRef(node: Node | undefined): boolean {
  return node?.type === 'object' && childAt(node, 'file') !== undefined;
}

/** The keys of a file reference; a place may allow more (embeddings take "words"). */
export const FILE_REF_KEYS = ['file', 'tensor'] as const;

/**
 * The 2-D matrix a reference names, or undefined after a problem placed on the reference.
 * `allowed` lists the keys the place accepts besides "file" and "tensor" (embeddings take "words").
 */
export function readFileMatrix(r: Reader, node: Node, path: JsonPath, allowed: readonly string[] = []): Matrix | undefined {
  for (const prop of node.children ?? []) {
    const key = prop.children?.[0]?.value;
    if (typeof key === 'string' && !(FILE_REF_KEYS as readonly string[]).includes(key) && !allowed.includes(key)) {
      return r.error(prop, [...path, key], `unknown key in a file reference: give "file"${allowed.length ? `, "${allowed.join('", "')}"` : ''} and, for a file of several tensors, "tensor"`);
    }
  }
  const fileNode = childAt(node, 'file')!;
  const file = r.string(fileNode, [...path, 'file'], 'a file name beside the spec');
  if (file === undefined) return undefined;
  const tensorNode = childAt(node, 'tensor');
  const tensor = tensorNode ? r.string(tensorNode, [...path, 'tensor'], 'the name of a tensor in the file') : undefined;
  if (tensorNode && tensor === undefined) return undefined;
  if (!r.files) {
    return r.error(fileNode, [...path, 'file'], 'this spec is not a file on disk, so the tensor files beside it cannot be read: save it first');
  }
  // "./w.npy", "w.npy" and "sub//../w.npy" are one file: read once (".." is refused anyway).
  const key = `${sameFile(file)}\u0000${tensor ?? ''}`;
  const cached = r.fileMatrices.get(key);
  if (cached) return cached;
  try {
    const matrix = load(r.files, file, tensor, MAX_FILE_NUMBERS_TOTAL - r.fileNumbers);
    r.fileMatrices.set(key, matrix);
    r.fileNumbers += matrix.data.length;
    return matrix;
  } catch (e) {
    if (e instanceof TensorFileError || e instanceof RangeError) {
      const atTensor = tensorNode && /no tensor/.test(e.message);
      return r.error(atTensor ? tensorNode : fileNode, [...path, atTensor ? 'tensor' : 'file'], e.message);
    }
    throw e;
  }
}

/** One spelling per file: no "." parts, no repeated or trailing slashes. */
function sameFile(name: string): string {
  return name.split('/').filter((part) => part !== '' && part !== '.').join('/');
}

/** `budget`: the numbers the spec's files may still hold (checked from the header, before allocating). */
function load(files: TensorFiles, file: string, tensor: string | undefined, budget: number): Matrix {
  const source = files.open(file);
  try {
    const { tensors } = files.find(source, tensor);
    if (tensors.length === 0) throw new TensorFileError(`${file}: holds no tensor`);
    if (tensors.length > 1) {
      const names = tensors.slice(0, 8).map((t) => JSON.stringify(t.name)).join(', ');
      throw new TensorFileError(`${file}: holds ${tensors.length} tensors (${names}${tensors.length > 8 ? ', …' : ''}): say which with "tensor"`);
    }
    const t = tensors[0];
    // [1, rows, cols] and the like: a leading batch of 1 is dropped.
    const shape = [...t.shape];
    while (shape.length > 2 && shape[0] === 1) shape.shift();
    if (shape.length !== 2) throw new TensorFileError(`${file}: tensor ${JSON.stringify(t.name)} has shape [${t.shape.join(', ')}]; a matrix (rows × columns) is needed here`);
    if (!DTYPES.includes(t.dtype)) throw new TensorFileError(`${file}: dtype ${t.dtype} is not one we read (F64, F32, F16, BF16)`);
    const [rows, cols] = shape;
    const count = rows * cols;
    if (count > MAX_FILE_NUMBERS) throw new TensorFileError(`${file}: ${rows} × ${cols} = ${thousandsText(count)} numbers, over the ${thousandsText(MAX_FILE_NUMBERS)} a referenced matrix may hold`);
    if (count > budget) {
      throw new TensorFileError(`${file}: ${rows} × ${cols} = ${thousandsText(count)} numbers, over what is left (${thousandsText(Math.max(0, budget))}) of the ${thousandsText(MAX_FILE_NUMBERS_TOTAL)} the tensor files of one spec may hold together`);
    }
    const dtype = t.dtype as DType;
    const data = new Float64Array(count);
    decode(dtype, t.source.read(t.offset, count * ITEM_SIZE[dtype]), count, data);
    for (let i = 0; i < count; i++) {
      if (!Number.isFinite(data[i])) {
        throw new TensorFileError(`${file}: row ${Math.floor(i / cols) + 1}, column ${(i % cols) + 1} of ${JSON.stringify(t.name)} is ${data[i]}; every number must be finite`);
      }
    }
    return { rows, cols, data };
  } finally {
    source.close();
  }
}

