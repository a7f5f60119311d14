// The safetensors format, read by hand (the npm `safetensors` package is a one-release stub):
// an 8-byte little-endian header size N, N bytes of JSON { name: { dtype, shape, data_offsets },
// "__metadata__": { string: string } }, then the data; offsets count from byte 8 + N. Every number
// in the header is checked before it is used: the size against a cap and the file, each tensor's
// offsets against the data and each other, its byte length against its shape.
import { isDType, ITEM_SIZE } from './dtype.js';
import { elementCount, type TensorRef } from './attention-file.js';
import { TensorFileError, type ByteSource } from './source.js';
import { isObject } from '../json/object.js';
import { visit } from 'jsonc-parser';

/** The reference implementation refuses headers over 100 MB; so do we. */
export const MAX_HEADER_BYTES = 100_000_000;

export interface SafetensorsContents {
  tensors: TensorRef[];
  metadata: Record<string, string>;
}


export function readSafetensors(source: ByteSource): SafetensorsContents {
  const file = source.name;
  if (source.size < 8) throw new TensorFileError(`${file}: truncated: ${source.size} bytes, fewer than the 8-byte header size`);
  const sizeBytes = source.read(0, 8);
  const view = new DataView(sizeBytes.buffer, sizeBytes.byteOffset, 8);
  const high = view.getUint32(4, true), low = view.getUint32(0, true);
  const headerSize = high * 2 ** 32 + low;
  if (headerSize > MAX_HEADER_BYTES) throw new TensorFileError(`${file}: header size ${headerSize} bytes is over the ${MAX_HEADER_BYTES}-byte limit (is this a safetensors file?)`);
  if (8 + headerSize > source.size) throw new TensorFileError(`${file}: header size ${headerSize} bytes reaches past the end of the file (${source.size} bytes)`);
  let header: unknown, text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(source.read(8, headerSize));
    header = JSON.parse(text);
  } catch (e) {
    throw new TensorFileError(`${file}: the header is not valid UTF-8 JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const twice = repeatedName(text);
  if (twice) throw new TensorFileError(`${file}: the header names ${JSON.stringify(twice.name)} twice${twice.within ? ` within ${JSON.stringify(twice.within)}` : ''}; which one is meant cannot be told (JSON.parse would keep the last)`);
  if (!isObject(header)) throw new TensorFileError(`${file}: the header is not a JSON object`);
  const dataStart = 8 + headerSize, dataSize = source.size - dataStart;
  const tensors: TensorRef[] = [];
  const ranges: { name: string; begin: number; end: number }[] = [];
  let metadata: Record<string, string> = {};
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      if (!isObject(entry) || Object.values(entry).some((v) => typeof v !== 'string')) throw new TensorFileError(`${file}: __metadata__ must map names to strings`);
      metadata = entry as Record<string, string>;
      continue;
    }
    const where = `${file}: tensor ${JSON.stringify(name)}`;
    if (!isObject(entry)) throw new TensorFileError(`${where}: expected { "dtype", "shape", "data_offsets" }`);
    const { dtype, shape, data_offsets: offsets } = entry;
    if (typeof dtype !== 'string') throw new TensorFileError(`${where}: "dtype" must be a string`);
    if (!Array.isArray(shape) || shape.some((d) => !Number.isSafeInteger(d) || d < 0)) throw new TensorFileError(`${where}: "shape" must be a list of whole numbers ≥ 0`);
    if (!Array.isArray(offsets) || offsets.length !== 2 || offsets.some((o) => !Number.isSafeInteger(o) || o < 0)) throw new TensorFileError(`${where}: "data_offsets" must be [begin, end], whole numbers ≥ 0`);
    const [begin, end] = offsets as number[];
    if (begin > end || end > dataSize) throw new TensorFileError(`${where}: data_offsets [${begin}, ${end}] are outside the ${dataSize} bytes of data${end > dataSize ? ' (truncated file?)' : ''}`);
    const count = elementCount(file, name, shape as number[]);
    if (isDType(dtype) && count * ITEM_SIZE[dtype] !== end - begin) {
      throw new TensorFileError(`${where}: shape [${shape.join(', ')}] of ${dtype} needs ${count * ITEM_SIZE[dtype]} bytes but data_offsets [${begin}, ${end}] hold ${end - begin}`);
    }
    ranges.push({ name, begin, end });
    tensors.push({ name, dtype, shape: shape as number[], source, offset: dataStart + begin });
  }
  ranges.sort((a, b) => a.begin - b.begin);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i].begin < ranges[i - 1].end) throw new TensorFileError(`${file}: tensors ${JSON.stringify(ranges[i - 1].name)} and ${JSON.stringify(ranges[i].name)} overlap in the data`);
  }
  return { tensors, metadata };
}

/**
 * The first name an object of the header gives twice (and the top-level name it is within), or
 * undefined. JSON.parse keeps the last of two; the reference reader refuses such a header, so do we.
 * One pass with a set per open object: linear in the header.
 */
export function repeatedName(text: string): { name: string; within?: string } | undefined {
  const open: Set<string>[] = [];
  let top: string | undefined, found: { name: string; within?: string } | undefined;
  visit(text, {
    onObjectBegin: () => { open.push(new Set()); },
    onObjectEnd: () => { open.pop(); },
    onObjectProperty: (name) => {
      const names = open.at(-1);
      if (!names || found) return;
      if (names.has(name)) found = open.length === 1 ? { name } : { name, ...(top !== undefined ? { within: top } : {}) };
      names.add(name);
      if (open.length === 1) top = name;
    },
  });
  return found;
}

/** Tokens written as a JSON array of strings in __metadata__.tokens; undefined when absent. */
export function metadataTokens(file: string, metadata: Record<string, string>): string[] | undefined {
  if (!('tokens' in metadata)) return undefined;
  let tokens: unknown;
  try {
    tokens = JSON.parse(metadata.tokens);
  } catch {
    throw new TensorFileError(`${file}: __metadata__.tokens is not JSON (write json.dumps(tokens))`);
  }
  if (!Array.isArray(tokens) || tokens.some((t) => typeof t !== 'string')) throw new TensorFileError(`${file}: __metadata__.tokens must be a JSON array of strings`);
  return tokens as string[];
}
