// numpy's .npy format, versions 1 to 3: the magic \x93NUMPY, two version bytes, the header length
// (u16 in version 1, u32 in 2 and 3), a Python dict literal { 'descr', 'fortran_order', 'shape' },
// then the data in C order. We read little-endian floats (<f2, <f4, <f8) and check that the file
// holds every byte the shape needs before anything is read from it.
import { ITEM_SIZE, type DType, ownValue } from './dtype.js';
import { elementCount, type TensorRef } from './attention-file.js';
import { TensorFileError, type ByteSource } from './source.js';

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
const MAX_HEADER = 1 << 20;
const DESCR: Record<string, DType> = { '<f2': 'F16', '<f4': 'F32', '<f8': 'F64' };

export function isNpy(head: Uint8Array): boolean {
  return MAGIC.every((b, i) => head[i] === b);
}

/** The .npy stored in `source` from `start` (0 for a file, the entry's data for an .npz member). */
export function readNpy(source: ByteSource, name: string, start = 0): TensorRef {
  const where = source.name;
  const available = source.size - start;
  if (available < 10) throw new TensorFileError(`${where}: truncated: too short for an .npy header`);
  const pre = source.read(start, Math.min(12, available));
  if (!isNpy(pre)) throw new TensorFileError(`${where}: not an .npy file (no \\x93NUMPY magic)`);
  const major = pre[6];
  if (major < 1 || major > 3) throw new TensorFileError(`${where}: .npy version ${major}.${pre[7]} is not one we read (1 to 3)`);
  const view = new DataView(pre.buffer, pre.byteOffset, pre.byteLength);
  const lengthBytes = major === 1 ? 2 : 4;
  if (available < 8 + lengthBytes) throw new TensorFileError(`${where}: truncated: too short for an .npy header`);
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const headerStart = 8 + lengthBytes;
  if (headerLength > MAX_HEADER) throw new TensorFileError(`${where}: header of ${headerLength} bytes is over the ${MAX_HEADER}-byte limit`);
  if (headerStart + headerLength > available) throw new TensorFileError(`${where}: truncated: the header length ${headerLength} reaches past the end`);
  const text = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(source.read(start + headerStart, headerLength));
  const { descr, fortran, shape } = parseHeader(where, text);
  const dtype = ownValue(DESCR, descr);
  if (!dtype) throw new TensorFileError(`${where}: dtype ${descr} is not one we read (<f2, <f4, <f8: little-endian floats; save with .astype(np.float32))`);
  if (fortran && shape.length > 1) throw new TensorFileError(`${where}: saved in Fortran order; save np.ascontiguousarray(a) instead`);
  const count = elementCount(where, name, shape);
  const dataStart = headerStart + headerLength;
  const need = count * ITEM_SIZE[dtype];
  if (dataStart + need > available) throw new TensorFileError(`${where}: truncated: shape [${shape.join(', ')}] of ${descr} needs ${need} bytes of data, the file has ${available - dataStart}`);
  return { name, dtype, shape, source, offset: start + dataStart };
}

/**
 * The header dict, read strictly (it is data from a file, never evaluated): exactly the keys
 * 'descr', 'fortran_order' and 'shape', each once, as numpy itself requires. A looser search for
 * each key read a crafted header (a key said twice, or one hidden inside another value's string)
 * differently from numpy, so the numbers shown would not be the file's.
 */
function parseHeader(where: string, text: string): { descr: string; fortran: boolean; shape: number[] } {
  const bad = (what: string) => new TensorFileError(`${where}: the .npy header ${what}: ${JSON.stringify(text.trim().slice(0, 120))}`);
  // One entry: a quoted key, then a quoted string, True/False, or a tuple of whole numbers.
  const entry = /\s*(['"])(\w+)\1\s*:\s*(?:(['"])([^'"]*)\3|(True|False)|\(([^()]*)\))\s*(,|(?=\}))/y;
  const body = /^\s*\{/.exec(text);
  if (!body) throw bad('is not a dict');
  let at = body[0].length;
  const values = new Map<string, RegExpExecArray>();
  for (entry.lastIndex = at; ; entry.lastIndex = at) {
    const m = entry.exec(text);
    if (!m) break; // (a failed sticky match resets lastIndex: `at` keeps where the entries end)
    if (values.has(m[2])) throw bad(`says '${m[2]}' twice`);
    values.set(m[2], m);
    at = entry.lastIndex;
  }
  if (!/^\s*\}\s*$/.test(text.slice(at))) {
    throw bad(/['"]descr['"]\s*:\s*\[/.test(text) ? 'has no string descr (a structured dtype is not attention)' : 'is not a dict of descr, fortran_order and shape');
  }
  const extra = [...values.keys()].find((k) => !['descr', 'fortran_order', 'shape'].includes(k));
  if (extra) throw bad(`has a key '${extra}' besides descr, fortran_order and shape`);
  const descr = values.get('descr'), fortran = values.get('fortran_order'), shape = values.get('shape');
  if (descr?.[4] === undefined) throw bad('has no string descr (a structured dtype is not attention)');
  if (fortran?.[5] === undefined) throw bad('has no fortran_order');
  if (shape?.[6] === undefined) throw bad('has no shape');
  const dims = shape[6].split(',').map((d) => d.trim());
  if (dims.length > 1 && dims[dims.length - 1] === '') dims.pop(); // (3,) and (3, 2,)
  if (dims.length === 1 && dims[0] === '') dims.pop(); // () is a scalar
  if (dims.some((d) => !/^\d+L?$/.test(d))) throw bad('has a shape that is not whole numbers');
  return { descr: descr[4], fortran: fortran[5] === 'True', shape: dims.map((d) => Number(d.replace('L', ''))) };
}
