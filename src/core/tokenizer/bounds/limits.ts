// The sizes a tokenizer.json may have, each far above what real files hold (GPT-2: 50,257 pieces;
// Llama 3: 128,256 with 256 added tokens; the largest vocabularies about 262,000: 524,288 pieces take
// the library some 5 s to build on a loaded machine) and low enough that
// building and running the tokenizer stays within seconds and well under 2 GB. A file over one is refused
// by its key rather than read for minutes.

/** Pieces in model.vocab (and merges in model.merges). */
export const MAX_VOCAB = 1 << 19;
/** The largest id a piece or added token may have. */
export const MAX_ID = (1 << 22) - 1;
/** Characters in one vocabulary piece or added token. */
export const MAX_PIECE = 1024;
/** Entries in added_tokens, and their characters in all. */
export const MAX_ADDED = 65_536;
export const MAX_ADDED_CHARS = 1 << 20;
/** Characters a rule may insert: a Replace's content, a Prepend, a Metaspace replacement (real files: one). */
export const MAX_INSERT = 64;
/** Characters in a pattern. */
export const MAX_PATTERN = 8192;
/** A stage may make its text at most GROWTH × the text it was given, plus SLACK characters. */
export const GROWTH = 8;
export const SLACK = 1024;

export const grown = (input: number) => GROWTH * input + SLACK;
/** NFKC and NFKD may make a character 18 (U+FDFA, the most Unicode has), so a real text is never refused for them. */
export const NFK_GROWTH = 18;
