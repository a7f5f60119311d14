// What the model runner asks of a tokenizer, and nothing more: the ids of a text with their vocabulary
// strings, and one id written back as text. Kept apart from the library behind it, so the forward
// pass, the CLI and the host depend on this contract, not on how tokenizer.json is interpreted.
// This file is pure (no node:fs): the texts of the files come in as strings.

/** The files a model folder may hold for its tokenizer, already read (with a byte budget) by core/files. */
export interface TokenizerFiles {
  /** tokenizer.json's text. */
  tokenizerJson?: string;
  /** The SHA-256 (hex) of the bytes tokenizer.json's text was decoded from, when the reader hashed them (for the cache). */
  tokenizerJsonSha256?: string;
  /** tokenizer_config.json's text, when the folder has one (it may name the BOS token and whether to add it). */
  tokenizerConfigJson?: string;
  /** A GPT-2 folder without tokenizer.json: vocab.json and merges.txt. */
  vocabJson?: string;
  mergesTxt?: string;
  /** A BERT folder without tokenizer.json: vocab.txt (with tokenizer_config.json's switches when present). */
  vocabTxt?: string;
}

export interface Encoding {
  /** The ids, as tokenizer.json's rules make them (its post-processor's BOS included). */
  ids: number[];
  /** Each id's string in the vocabulary, e.g. "Ġcat". */
  pieces: string[];
}

export interface Tokenizer {
  /**
   * The text's ids; with `limit`, only the first `limit` of them, found without tokenizing more of a long
   * text than they take.
   */
  encode(text: string, limit?: number): Encoding;
  /** One id decoded alone, e.g. " cat"; a piece that is part of a character decodes to what it can. */
  decodeOne(id: number): string;
  /** An id's string in the vocabulary ("Ġcat"), where the tokenizer can say it (a generated id has no encoding to read it from). */
  pieceOf?(id: number): string | undefined;
  /** How many ids the tokenizer knows (added tokens included). */
  readonly vocabSize: number;
}

/** A tokenizer that cannot be built: the message names the file at fault and says what is wrong. */
export class TokenizerError extends Error {
  override name = 'TokenizerError';
}
