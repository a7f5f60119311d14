// The checks of a WordPiece (BERT) or Unigram (T5, SentencePiece's unigram) model in tokenizer.json
// before anything is built from it: each key the model reads has the type and range the Rust library
// accepts, and the sizes stay within bounds/limits.ts. A bad key is refused in one line that names it.
import { isObject, type Obj } from '../json/object.js';
import { shown } from '../json/shown.js';
import { MAX_INSERT, MAX_PIECE, MAX_VOCAB } from './bounds/limits.js';
import { TokenizerError } from './tokenizer.js';

const FILE = 'tokenizer.json';
const fail = (what: string): never => {
  throw new TokenizerError(`${FILE}: ${what}`);
};

/** WordPiece: a { piece: id } vocabulary (checked by `checkVocab`), its unk_token, prefix and word cap. */
export function checkWordPiece(model: Obj, checkVocab: (vocab: unknown) => void): void {
  checkVocab(model.vocab);
  const vocab = model.vocab as Obj;
  if (Object.hasOwn(vocab, '')) fail('the vocabulary (model.vocab) holds an empty piece, which no text can be split into');
  const unk = model.unk_token ?? '[UNK]';
  if (typeof unk !== 'string' || !Object.hasOwn(vocab, unk)) fail(`"model.unk_token" (${shown(unk)}) is not in the vocabulary`);
  const prefix = model.continuing_subword_prefix ?? '##';
  if (typeof prefix !== 'string') return fail(`"model.continuing_subword_prefix" is ${shown(prefix)}, not a string`);
  if (prefix.length > MAX_INSERT) fail(`"model.continuing_subword_prefix" is ${prefix.length.toLocaleString('en-US')} characters long, over the ${MAX_INSERT} supported`);
  const most = model.max_input_chars_per_word ?? 100;
  // A large cap is allowed: the WordPiece's work on a word is bounded by its longest piece, not by the cap.
  if (typeof most !== 'number' || !Number.isInteger(most) || most < 1) fail(`"model.max_input_chars_per_word" is ${typeof most === 'number' ? String(most) : shown(most)}, not a whole number ≥ 1`);
}

/** Unigram: a list of [piece, score] (the id is the index), unk_id, byte_fallback. */
export function checkUnigram(model: Obj): void {
  const vocab = model.vocab;
  if (!Array.isArray(vocab)) return fail('the Unigram model has no vocabulary list (model.vocab: [[piece, score], …])');
  if (vocab.length === 0) fail('the Unigram vocabulary (model.vocab) is empty');
  if (vocab.length > MAX_VOCAB) fail(`the vocabulary (model.vocab) holds ${vocab.length.toLocaleString('en-US')} pieces, over the ${MAX_VOCAB.toLocaleString('en-US')} supported (the largest real ones hold about 260,000)`);
  vocab.forEach((entry: unknown, i) => {
    const at = `model.vocab[${i}]`;
    if (!Array.isArray(entry) || entry.length !== 2) return fail(`"${at}" is ${shown(entry)}, not [piece, score]`);
    const [piece, score] = entry as unknown[];
    if (typeof piece !== 'string') fail(`"${at}[0]" is ${shown(piece)}, not a string`);
    if ((piece as string).length === 0) fail(`"${at}[0]" is an empty piece, which no text can be split into`);
    if ((piece as string).length > MAX_PIECE) fail(`"${at}[0]" is a piece of ${(piece as string).length.toLocaleString('en-US')} characters, over the ${MAX_PIECE} supported`);
    if (typeof score !== 'number' || !Number.isFinite(score)) fail(`"${at}[1]" (the score of ${shown(piece)}) is ${typeof score === 'number' ? String(score) : shown(score)}, not a finite number`);
  });
  const unk = model.unk_id;
  if (unk !== undefined && unk !== null && (typeof unk !== 'number' || !Number.isInteger(unk) || unk < 0 || unk >= vocab.length)) {
    fail(`"model.unk_id" is ${shown(unk)}, not the index of a piece (0 to ${vocab.length - 1})`);
  }
  const fallback = model.byte_fallback;
  if (fallback !== undefined && fallback !== null && typeof fallback !== 'boolean') fail(`"model.byte_fallback" is ${shown(fallback)}, not true or false`);
}

/** Every piece of a checked model with its id (a Unigram's last entry wins, as in the Rust library). */
export function modelPieces(model: Obj): Map<string, number> {
  const out = new Map<string, number>();
  if (Array.isArray(model.vocab)) (model.vocab as [string, number][]).forEach(([piece], id) => out.set(piece, id));
  else if (isObject(model.vocab)) for (const piece in model.vocab) out.set(piece, model.vocab[piece] as number);
  return out;
}
