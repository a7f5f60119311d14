// The Precompiled normalizer of SentencePiece files (T5, XLM-R, ALBERT, mBART: their Unigram
// tokenizer.json carries it), as the Rust library reads it. "precompiled_charsmap" is base64 of
// [u32 little-endian: the trie's size in bytes][the trie: u32 units of a darts-clone double array over
// UTF-8 bytes][the replacements, each ending in a 0 byte]. The text is read by grapheme cluster: one of
// fewer than 6 UTF-8 bytes is replaced whole by the rule of its shortest prefix that has one; otherwise
// (or with no rule) each character is replaced by its own rule or kept. Ours: the library's stand-in is
// NFKC with a few replacements, which is not what the file says.
import { TokenizerError } from '../tokenizer.js';

export type Normalize = (text: string) => string;

const hasLeaf = (unit: number) => ((unit >>> 8) & 1) === 1;
const valueOf = (unit: number) => unit & 0x7fffffff;
const labelOf = (unit: number) => (unit & 0x800000ff) >>> 0;
const offsetOf = (unit: number) => (unit >>> 10) << ((unit & (1 << 9)) >>> 6);

/** The normalizer a precompiled_charsmap describes; `key` names it in the refusal of a blob that cannot be read. */
export function precompiled(charsmap: unknown, key: string): Normalize {
  const refuse = (why: string) => new TokenizerError(`tokenizer.json: "${key}" ${why}`);
  if (typeof charsmap !== 'string') throw refuse('is not a base64 string');
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(charsmap), (c) => c.charCodeAt(0));
  } catch {
    throw refuse('is not base64');
  }
  if (bytes.length < 4) throw refuse('is too short to hold a trie');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const trieBytes = view.getUint32(0, true);
  if (trieBytes % 4 !== 0 || 4 + trieBytes > bytes.length) throw refuse(`gives its trie ${trieBytes} bytes, which the blob of ${bytes.length} does not hold`);
  const units = new Uint32Array(trieBytes / 4);
  for (let i = 0; i < units.length; i++) units[i] = view.getUint32(4 + 4 * i, true);
  const blob = bytes.subarray(4 + trieBytes);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const replacements = new Map<number, string>();
  const replacement = (index: number): string => {
    let text = replacements.get(index);
    if (text === undefined) {
      if (index >= blob.length) throw refuse(`has a rule pointing past its replacements (at ${index})`);
      let end = blob.indexOf(0, index);
      if (end < 0) end = blob.length;
      try {
        text = decoder.decode(blob.subarray(index, end));
      } catch {
        throw refuse(`has a replacement that is not UTF-8 (at ${index})`);
      }
      replacements.set(index, text);
    }
    return text;
  };
  const unit = (pos: number) => (pos < units.length ? units[pos] : 0xffffffff);
  /** The rule of the shortest prefix of `key` that has one (darts-clone's common prefix search, first hit). */
  const firstRule = (key: Uint8Array): string | undefined => {
    if (units.length === 0) return undefined;
    let pos = offsetOf(units[0]);
    for (const c of key) {
      if (c === 0) break;
      pos ^= c;
      const u = unit(pos);
      if (labelOf(u) !== c) return undefined;
      pos ^= offsetOf(u);
      if (hasLeaf(u)) return replacement(valueOf(unit(pos)));
    }
    return undefined;
  };
  const encoder = new TextEncoder();
  const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
  return (text) => {
    let out = '';
    for (const { segment } of segmenter.segment(text)) {
      const whole = encoder.encode(segment);
      const rule = whole.length < 6 ? firstRule(whole) : undefined;
      if (rule !== undefined) { out += rule; continue; }
      for (const c of segment) out += firstRule(encoder.encode(c)) ?? c;
    }
    return out;
  };
}
