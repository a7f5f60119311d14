// A stand-in for the tokenizer (issue 21's tokenizer branch builds the real one behind this same
// entry point, tokenizerFrom): GPT-2's byte-level BPE only, from tokenizer.json's model.vocab and
// model.merges or from vocab.json + merges.txt, with GPT-2's pre-tokenizing pattern. It lets the
// runner and `attn run` be built and tested before that branch lands; the merge takes that branch's file.
import { TokenizerError, type Encoding, type Tokenizer, type TokenizerFiles } from './tokenizer.js';

/** GPT-2's printable stand-ins for the 256 bytes (a space is "Ġ", a newline "Ċ"). */
function byteChars(): string[] {
  const chars: string[] = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    chars.push(String.fromCharCode(printable ? b : 256 + extra++));
  }
  return chars;
}

const PATTERN = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

function parse(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TokenizerError(`${file}: not valid JSON`);
  }
}

export function tokenizerFrom(files: TokenizerFiles): Tokenizer {
  let vocab: Record<string, number>, merges: string[];
  if (files.tokenizerJson !== undefined) {
    const json = parse(files.tokenizerJson, 'tokenizer.json') as { model?: { type?: string; vocab?: Record<string, number>; merges?: (string | [string, string])[] } };
    if (json.model?.type !== 'BPE' || !json.model.vocab || !json.model.merges) throw new TokenizerError('tokenizer.json: the stand-in tokenizer reads byte-level BPE models only');
    vocab = json.model.vocab;
    merges = json.model.merges.map((m) => (typeof m === 'string' ? m : m.join(' ')));
  } else if (files.vocabJson !== undefined && files.mergesTxt !== undefined) {
    vocab = parse(files.vocabJson, 'vocab.json') as Record<string, number>;
    merges = files.mergesTxt.split('\n').filter((l) => l && !l.startsWith('#version'));
  } else {
    throw new TokenizerError('tokenizer.json: no such file (nor vocab.json with merges.txt)');
  }
  const ranks = new Map(merges.map((m, i) => [m, i]));
  const pieceOf = new Map(Object.entries(vocab).map(([piece, id]) => [id, piece]));
  const chars = byteChars();
  const byteOf = new Map(chars.map((c, b) => [c, b]));
  const encoder = new TextEncoder();
  const bpe = (word: string[]): string[] => {
    for (;;) {
      let best = -1, rank = Infinity;
      for (let i = 0; i < word.length - 1; i++) {
        const r = ranks.get(`${word[i]} ${word[i + 1]}`);
        if (r !== undefined && r < rank) { rank = r; best = i; }
      }
      if (best < 0) return word;
      word = [...word.slice(0, best), word[best] + word[best + 1], ...word.slice(best + 2)];
    }
  };
  return {
    vocabSize: pieceOf.size,
    encode(text: string): Encoding {
      const pieces: string[] = [];
      for (const match of text.matchAll(PATTERN)) {
        pieces.push(...bpe([...encoder.encode(match[0])].map((b) => chars[b])));
      }
      const ids = pieces.map((p) => {
        const id = vocab[p];
        if (id === undefined) throw new TokenizerError(`tokenizer.json: the piece ${JSON.stringify(p)} is not in the vocabulary`);
        return id;
      });
      return { ids, pieces };
    },
    decodeOne(id: number): string {
      const piece = pieceOf.get(id);
      if (piece === undefined) return '';
      const bytes = [...piece].map((c) => byteOf.get(c));
      if (bytes.some((b) => b === undefined)) return piece;
      return new TextDecoder().decode(new Uint8Array(bytes as number[]));
    },
  };
}
