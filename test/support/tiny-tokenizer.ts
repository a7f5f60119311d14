// Tiny byte-level BPE tokenizers for tests and benches, written as a Hugging Face tokenizer.json
// (GPT-2's layout: 256 byte pieces in GPT-2's byte order, then merges, then <|endoftext|> last).
// The merges are generated, not learned: each joins an earlier piece with one more letter, so every
// merge names pieces of the vocabulary and vocabSize 50,257 gives GPT-2's shape (<|endoftext|> = 50,256).

/** GPT-2's bytes_to_unicode: byte b → the printable character that stands for it (space → "Ġ", "\n" → "Ċ"). */
export function byteToUnicode(): string[] {
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const chars = new Array<string>(256);
  for (const b of printable) chars[b] = String.fromCharCode(b);
  let next = 0;
  for (let b = 0; b < 256; b++) if (chars[b] === undefined) chars[b] = String.fromCharCode(256 + next++);
  return chars;
}

/** A byte string's pieces as ByteLevel writes them ("a cat" → "aĠcat"). */
export function byteLevel(text: string): string {
  const chars = byteToUnicode();
  return Array.from(new TextEncoder().encode(text), (b) => chars[b]).join('');
}

export interface TinyTokenizer {
  /** tokenizer.json's object (JSON.stringify it for TokenizerFiles.tokenizerJson). */
  json: Record<string, unknown>;
  /** piece → id, <|endoftext|> included. */
  vocab: Map<string, number>;
  /** The merges in rank order. */
  merges: [string, string][];
}

export interface TinyOptions {
  /** Total ids, <|endoftext|> included (at least 257). */
  vocabSize: number;
  /** Merges to put first (rank 0, 1, …), as byte-level pieces, e.g. [["Ġ", "c"], ["Ġc", "at"]]. */
  merges?: [string, string][];
  /** Write merges as "a b" strings (older files) instead of ["a", "b"] pairs. */
  mergesAsStrings?: boolean;
}

/** The letters generated merges add: space and lowercase letters, byte-level ("Ġ", "a" … "z"). */
const LETTERS = ['Ġ', ...'abcdefghijklmnopqrstuvwxyz'];

/** A GPT-2-style tokenizer.json with `vocabSize` ids: bytes, the given merges, generated merges, <|endoftext|>. */
export function tinyTokenizer(options: TinyOptions): TinyTokenizer {
  const { vocabSize } = options;
  if (!Number.isInteger(vocabSize) || vocabSize < 257) throw new RangeError('vocabSize must be at least 257 (256 bytes and <|endoftext|>)');
  const vocab = new Map<string, number>();
  // GPT-2's vocabulary begins with the 256 byte pieces in bytes_to_unicode's printable-first order.
  const chars = byteToUnicode();
  const order = [...chars].sort((a, b) => a.charCodeAt(0) - b.charCodeAt(0));
  for (const c of order) vocab.set(c, vocab.size);
  const merges: [string, string][] = [];
  const room = vocabSize - 1;
  const add = (a: string, b: string): boolean => {
    if (vocab.size >= room || vocab.has(a + b) || !vocab.has(a) || !vocab.has(b)) return false;
    vocab.set(a + b, vocab.size);
    merges.push([a, b]);
    return true;
  };
  for (const [a, b] of options.merges ?? []) {
    if (!add(a, b)) throw new RangeError(`the merge ${a} ${b} does not fit (a piece is unknown, the pair is taken, or the vocabulary is full)`);
  }
  // Breadth first: every piece so far (in id order) followed by each letter, until the vocabulary is full.
  const grown = [...LETTERS];
  for (let i = 0; vocab.size < room && i < grown.length; i++) {
    for (const letter of LETTERS) if (add(grown[i], letter)) grown.push(grown[i] + letter);
  }
  const endOfText = vocab.size;
  vocab.set('<|endoftext|>', endOfText);
  const byteLevelConfig = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true };
  const json = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [{ id: endOfText, content: '<|endoftext|>', single_word: false, lstrip: false, rstrip: false, normalized: true, special: true }],
    normalizer: null,
    pre_tokenizer: byteLevelConfig,
    post_processor: { ...byteLevelConfig, trim_offsets: false },
    decoder: byteLevelConfig,
    model: {
      type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '',
      fuse_unk: false, byte_fallback: false, ignore_merges: false,
      vocab: Object.fromEntries(vocab),
      merges: options.mergesAsStrings ? merges.map(([a, b]) => `${a} ${b}`) : merges.map(([a, b]) => [a, b]),
    },
  };
  return { json, vocab, merges };
}

/** tokenizer.json's text for a GPT-2-shaped vocabulary of `vocabSize` ids (50,257 for GPT-2 small). */
export function tinyTokenizerJson(vocabSize: number): string {
  return JSON.stringify(tinyTokenizer({ vocabSize }).json);
}
