// BERT's WordPiece model, as the Rust library defines it: each word is split greedily from the left
// into the longest pieces of the vocabulary, every piece after the first looked up with the
// continuing-subword prefix ("##"); a word with a place where no piece fits, or longer than
// max_input_chars_per_word characters, is the unk token alone. Ours rather than the library's because
// the library tries every end of the word from the last one, a cost of the word's length squared per
// piece: under a cap of 1e9 one long word would hang it. Here only the piece lengths the vocabulary
// holds are tried, so a word costs at most its length times the longest piece, and the work of one text
// has a budget besides.
import { TokenizerError } from '../tokenizer.js';

export interface WordPieceConfig {
  vocab: Record<string, number>;
  unk_token?: string;
  continuing_subword_prefix?: string;
  max_input_chars_per_word?: number;
}

/**
 * Characters looked up per character split so far, on top of a fixed allowance (bert-base-uncased needs
 * a few hundred at most): a vocabulary made to cost more is refused as soon as it does, not after the text.
 */
const WORK_PER_CHAR = 1024;
const WORK_BASE = 1 << 20;

/** The pieces of each word, as strings of the vocabulary (the unk token for a word that cannot be split). */
export function wordPieceModel(config: WordPieceConfig): (words: string[]) => string[] {
  const unk = config.unk_token ?? '[UNK]';
  const prefix = config.continuing_subword_prefix ?? '##';
  const most = config.max_input_chars_per_word ?? 100;
  // The lengths (in code points) of the pieces that can start a word, and of those that continue one.
  const firstLengths = new Set<number>();
  const nextLengths = new Set<number>();
  for (const piece in config.vocab) {
    firstLengths.add(codePoints(piece));
    if (piece.startsWith(prefix)) nextLengths.add(codePoints(piece) - codePoints(prefix));
  }
  const first = [...firstLengths].filter((n) => n > 0).sort((a, b) => b - a);
  const next = [...nextLengths].filter((n) => n > 0).sort((a, b) => b - a);
  const has = (piece: string) => Object.hasOwn(config.vocab, piece);

  return (words) => {
    let work = 0;
    let done = 0;
    const chars = words.reduce((sum, w) => sum + w.length, 0);
    const out: string[] = [];
    for (const word of words) {
      const ends = boundaries(word);
      const count = ends.length - 1;
      if (count > most) { out.push(unk); continue; }
      const pieces: string[] = [];
      let start = 0;
      while (start < count) {
        let found: string | undefined;
        for (const length of start === 0 ? first : next) {
          if (start + length > count) continue;
          const piece = (start === 0 ? '' : prefix) + word.slice(ends[start], ends[start + length]);
          work += piece.length;
          if (has(piece)) { found = piece; start += length; break; }
        }
        if (work > WORK_BASE + WORK_PER_CHAR * (done + start)) {
          throw new TokenizerError(`tokenizer.json: the WordPiece model (at "model.vocab") took over ${WORK_PER_CHAR} steps a character on words of ${chars.toLocaleString('en-US')} characters: such a vocabulary is not supported`);
        }
        if (found === undefined) { pieces.length = 0; pieces.push(unk); break; }
        pieces.push(found);
      }
      out.push(...pieces);
      done += count;
    }
    return out;
  };
}

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    n++;
  }
  return n;
}

/** The UTF-16 index where each code point starts, and the length at the end. */
function boundaries(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    out.push(i);
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  out.push(s.length);
  return out;
}
