// The Unigram model (T5, XLM-R, SentencePiece's unigram files), as the Rust library defines it: each
// word is cut into the pieces whose scores sum highest (Viterbi over the places where pieces of the
// vocabulary start and end). A character that no one-character piece covers is the unk piece, scored
// 10 below the lowest score; neighbouring unk pieces are fused into one; with byte_fallback a fused unk
// is written as its UTF-8 bytes (<0xE6>…) when the vocabulary has them all. Ties go to the path found
// first, scanning starts from the left and, at one start, lengths from the shortest, as Rust does.
// Ours rather than the library's: the library has no byte_fallback and scores a literal unk piece as
// an unknown character.
import { TokenizerError } from '../tokenizer.js';

export interface UnigramConfig {
  vocab: [string, number][];
  unk_id?: number | null;
  byte_fallback?: boolean | null;
}

/** Rust's kUnkPenalty: an unknown character scores this much below the lowest piece. */
const UNK_PENALTY = 10;
/**
 * Trie steps per character read so far, on top of a fixed allowance (real vocabularies take a handful,
 * a few dozen on runs of one character such as Gemma's 31 spaces): a vocabulary made to cost more is
 * refused as soon as it does, not after the whole text.
 */
const WORK_PER_CHAR = 128;
const WORK_BASE = 1 << 20;

interface TrieNode { id: number; next: Map<number, TrieNode> | undefined }

const byteToken = (b: number) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`;

/** The pieces of each word as strings of the vocabulary (byte pieces included, the unk piece for what has no id). */
export function unigramModel(config: UnigramConfig): (words: string[]) => string[] {
  const { vocab } = config;
  const unkId = config.unk_id ?? undefined;
  const ids = new Map<string, number>();
  const root: TrieNode = { id: -1, next: undefined };
  let minScore = Infinity;
  vocab.forEach(([piece, score], id) => {
    ids.set(piece, id);
    if (score < minScore) minScore = score;
    let node = root;
    for (const c of piece) {
      const cp = c.codePointAt(0) as number;
      node.next ??= new Map();
      let child = node.next.get(cp);
      if (child === undefined) { child = { id: -1, next: undefined }; node.next.set(cp, child); }
      node = child;
    }
    node.id = id;
  });
  // A piece listed twice is found by its last id, with that id's score (Rust's token → id map).
  const finish = (node: TrieNode) => {
    if (node.id >= 0) node.id = ids.get(vocab[node.id][0]) as number;
    node.next?.forEach(finish);
  };
  finish(root);
  const unkScore = minScore - UNK_PENALTY;
  const unkPiece = unkId === undefined ? undefined : vocab[unkId][0];

  const encodeWord = (word: string, spend: (steps: number, at: number) => void): string[] => {
    const n = word.length;
    const score = new Float64Array(n + 1);
    const from = new Int32Array(n + 1).fill(-1);
    const idAt = new Int32Array(n + 1);
    for (let start = 0; start < n; start = nextStart(word, start)) {
      const here = score[start];
      const single = nextStart(word, start);
      let hasSingle = false;
      let node: TrieNode | undefined = root;
      let steps = 0;
      for (let i = start; i < n && node?.next;) {
        const cp = word.codePointAt(i) as number;
        i += cp > 0xffff ? 2 : 1;
        steps++;
        node = node.next.get(cp);
        if (node === undefined) break;
        if (node.id < 0) continue;
        const candidate = here + vocab[node.id][1];
        if (from[i] < 0 || candidate > score[i]) { score[i] = candidate; from[i] = start; idAt[i] = node.id; }
        if (i === single) hasSingle = true;
      }
      spend(steps, start);
      if (!hasSingle) {
        if (unkId === undefined) throw new TokenizerError('tokenizer.json: the text has a character that no piece of the Unigram vocabulary covers, and "model.unk_id" is not set');
        const candidate = here + unkScore;
        if (from[single] < 0 || candidate > score[single]) { score[single] = candidate; from[single] = start; idAt[single] = unkId; }
      }
    }
    // Back from the end: unk pieces next to each other become one.
    const pieces: string[] = [];
    let unkRun = '';
    for (let end = n; end > 0;) {
      const start = from[end];
      const text = word.slice(start, end);
      if (idAt[end] === unkId) unkRun = text + unkRun;
      else {
        if (unkRun !== '') { pieces.push(unkRun); unkRun = ''; }
        pieces.push(text);
      }
      end = start;
    }
    if (unkRun !== '') pieces.push(unkRun);
    pieces.reverse();
    return pieces.flatMap((text) => (ids.has(text) ? [text] : unknown(text)));
  };

  // What has no id: its bytes when byte_fallback has them all, else the unk piece.
  const encoder = new TextEncoder();
  const unknown = (text: string): string[] => {
    if (config.byte_fallback === true) {
      const bytes = [...encoder.encode(text)].map(byteToken);
      if (bytes.every((b) => ids.has(b))) return bytes;
    }
    return [unkPiece as string];
  };

  return (words) => {
    const chars = words.reduce((sum, w) => sum + w.length, 0);
    let work = 0;
    let done = 0;
    const spend = (steps: number, at: number) => {
      work += steps;
      if (work > WORK_BASE + WORK_PER_CHAR * (done + at)) {
        throw new TokenizerError(`tokenizer.json: the Unigram model (at "model.vocab") took over ${WORK_PER_CHAR} steps a character on words of ${chars.toLocaleString('en-US')} characters: such a vocabulary is not supported`);
      }
    };
    return words.flatMap((word) => {
      const pieces = encodeWord(word, spend);
      done += word.length;
      return pieces;
    });
  };
}

function nextStart(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? i + 2 : i + 1;
}
