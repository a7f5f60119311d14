// A prepared tokenizer (bpe-tokenizer.ts) as bytes for the cache, and back. The bytes are untrusted
// (another process, a full disk or a person may have written them): every declared size is checked
// against the bytes actually there before anything is allocated, every shape against the limits the
// checks of tokenizer.json enforce, and the rules beside the model are checked again as a file's are.
// Any failure is a DigestError, which the loader answers by reading tokenizer.json instead. Not checked
// again: that a merge's two pieces joined are in the vocabulary (a cost per merge; a digest that breaks
// it makes a piece with no id, which the library's BPE treats as any piece outside the vocabulary: its
// unk token, or dropped). What keeps an entry true to its file is the SHA-256 the store checks over it.
//
// Layout (little-endian): eight u32 — MAGIC, VERSION, shell bytes, pieces kind, pieces bytes, piece
// count, merge count, 0 — then the shell (the prepared tokenizer.json as JSON, UTF-8), the pieces
// (kind 1: all joined, UTF-8; kind 2: a JSON list, for a join that is not well-formed UTF-16), zero
// bytes to a multiple of 4, each piece's end in the join (u32), each piece's id (i32), the merges (u32
// pairs). Kind 0: no BPE digest (the model is in the shell), no arrays.
import { isObject, type Obj } from '../../json/object.js';
import { MAX_ID, MAX_PIECE, MAX_VOCAB } from '../bounds/limits.js';
import { checkBpeOptions, checkParts, checkTokenizerJson } from '../check-json.js';
import type { PreparedTokenizer } from '../bpe-tokenizer.js';
import { type BpeDigest, pieceIds } from './bpe-digest.js';

const MAGIC = 0x444b5441; // "ATKD"
/** Raised when anything in the layout, or in the tokenizer's own checks, changes. */
export const DIGEST_VERSION = 1;
const HEADER = 32;

export class DigestError extends Error {
  override name = 'DigestError';
}
const bad = (what: string): never => {
  throw new DigestError(what);
};

/** UTF-8 cannot carry a lone surrogate (the encoder writes U+FFFD): such a join goes as JSON, which escapes it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const pad4 = (n: number) => (n + 3) & ~3;

/** The bytes of a prepared tokenizer. */
export function digestBytes({ json, bpe }: PreparedTokenizer): Uint8Array {
  const encoder = new TextEncoder();
  const shell = encoder.encode(JSON.stringify(json));
  const digest = bpe?.digest;
  const joined = digest ? digest.pieces.join('') : '';
  const kind = !digest ? 0 : LONE_SURROGATE.test(joined) ? 2 : 1;
  const pieces = kind === 1 ? encoder.encode(joined) : kind === 2 ? encoder.encode(JSON.stringify(digest!.pieces)) : new Uint8Array(0);
  const count = digest?.pieces.length ?? 0;
  const merges = digest?.merges.length ?? 0;
  const arrays = pad4(HEADER + shell.length + pieces.length);
  const out = new Uint8Array(arrays + 8 * count + 4 * merges);
  const view = new DataView(out.buffer);
  [MAGIC, DIGEST_VERSION, shell.length, kind, pieces.length, count, merges >>> 1, 0].forEach((v, i) => view.setUint32(4 * i, v, true));
  out.set(shell, HEADER);
  out.set(pieces, HEADER + shell.length);
  if (digest) {
    let end = 0;
    digest.pieces.forEach((piece, i) => {
      end += piece.length;
      view.setUint32(arrays + 4 * i, end, true);
      view.setInt32(arrays + 4 * (count + i), digest.ids[i], true);
    });
    for (let i = 0; i < merges; i++) view.setUint32(arrays + 8 * count + 4 * i, digest.merges[i], true);
  }
  return out;
}

/** A prepared tokenizer from its bytes, checked; a DigestError when they are not one. */
export function preparedFromBytes(bytes: Uint8Array): PreparedTokenizer {
  if (bytes.length < HEADER) bad('shorter than its header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [magic, version, shellBytes, kind, piecesBytes, count, merges, zero] = Array.from({ length: 8 }, (_, i) => view.getUint32(4 * i, true));
  if (magic !== MAGIC) bad('not a tokenizer digest');
  if (version !== DIGEST_VERSION) bad(`version ${version}, not ${DIGEST_VERSION}`);
  if (zero !== 0 || kind > 2 || (kind === 0 && (piecesBytes !== 0 || count !== 0 || merges !== 0))) bad('a header out of shape');
  if (count > MAX_VOCAB || merges > MAX_VOCAB) bad('more pieces or merges than a tokenizer.json may hold');
  // Each size is checked against the bytes there before any is read or allocated.
  const arrays = pad4(HEADER + shellBytes + piecesBytes);
  if (HEADER + shellBytes + piecesBytes > bytes.length || arrays + 8 * count + 8 * merges !== bytes.length) bad('sizes that do not add up to its length');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let json: unknown;
  try {
    json = JSON.parse(decoder.decode(bytes.subarray(HEADER, HEADER + shellBytes)));
  } catch {
    return bad('a shell that is not JSON');
  }
  if (!isObject(json) || !isObject(json.model)) return bad('a shell without a model');
  if (kind === 0) {
    if (json.model.type === 'BPE') bad('a BPE model without its digest');
    return { json: checkTokenizerJson(json) };
  }
  if (json.model.type !== 'BPE' || !isObject(json.model.vocab) || Object.keys(json.model.vocab).length !== 0 || !Array.isArray(json.model.merges) || json.model.merges.length !== 0) {
    bad('a BPE shell that is not emptied');
  }
  const digest = readDigest(bytes, decoder, HEADER + shellBytes, kind, piecesBytes, arrays, count, merges);
  const tokens = pieceIds(digest);
  if (tokens.size !== count) bad('a piece listed twice');
  checkBpeOptions(json.model as Obj, (piece) => tokens.has(piece));
  checkParts(json as Obj, (piece) => tokens.get(piece));
  return { json: json as Obj, bpe: { digest, tokens } };
}

function readDigest(bytes: Uint8Array, decoder: TextDecoder, at: number, kind: number, length: number, arrays: number, count: number, merges: number): BpeDigest {
  let text: string;
  let list: string[] | undefined;
  try {
    text = decoder.decode(bytes.subarray(at, at + length));
    if (kind === 2) list = JSON.parse(text) as string[];
  } catch {
    return bad('pieces that are not text');
  }
  if (list !== undefined && (!Array.isArray(list) || list.length !== count)) bad('a piece list out of shape');
  // A copy of the arrays, aligned for typed-array views (the bytes may start anywhere in their buffer).
  const copy = bytes.slice(arrays, arrays + 8 * count + 8 * merges).buffer;
  const ends = new Uint32Array(copy, 0, count);
  const ids = new Int32Array(copy, 4 * count, count);
  const pairs = new Uint32Array(copy, 8 * count, 2 * merges);
  const pieces = new Array<string>(count);
  let start = 0;
  for (let i = 0; i < count; i++) {
    const end = ends[i];
    if (end < start || end > text.length || end - start > MAX_PIECE) bad('piece ends out of order or out of range');
    const piece = list ? list[i] : text.slice(start, end);
    if (typeof piece !== 'string' || piece.length !== end - start) bad('a piece out of shape');
    pieces[i] = piece;
    start = end;
    if (ids[i] < 0 || ids[i] > MAX_ID) bad('an id out of range');
  }
  if (list === undefined && start !== text.length) bad('pieces that do not fill their text');
  for (let i = 0; i < pairs.length; i++) if (pairs[i] >= count) bad('a merge naming no piece');
  return { pieces, ids, merges: pairs };
}
