// A GPT-2 folder without tokenizer.json: vocab.json + merges.txt, read into the tokenizer.json that
// Hugging Face's converter writes for them (GPT2TokenizerFast): a byte-level BPE with GPT-2's regex,
// no normalizer, nothing added around the text, and <|endoftext|> split out of the text as a special
// token when the vocabulary has it (the slow GPT-2 tokenizer never splits its special tokens either).
import { isObject, type Obj } from '../json/object.js';
import { parseJsonFile, type ModelSources } from './check-json.js';
import { TokenizerError } from './tokenizer.js';

const END_OF_TEXT = '<|endoftext|>';

/** The tokenizer.json that vocab.json + merges.txt stand for; its messages name those two files (merges by line). */
export function vocabMergesTokenizerJson(vocabJson: string, mergesTxt: string): { json: Obj; sources: ModelSources } {
  const vocab = parseJsonFile(vocabJson, 'vocab.json');
  if (!isObject(vocab)) throw new TokenizerError('vocab.json: is not a JSON object of { piece: id }');
  const merges: string[] = [];
  const lines: number[] = [];
  mergesTxt.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // The first line is "#version: 0.2"; the file ends with a newline.
    if (line === '' || line.startsWith('#version')) return;
    merges.push(line);
    lines.push(i + 1);
  });
  const sources: ModelSources = { vocab: 'vocab.json', merges: 'merges.txt', mergeAt: (i) => `line ${lines[i]}` };
  const endOfText = vocab[END_OF_TEXT];
  const added = typeof endOfText === 'number' && Object.hasOwn(vocab, END_OF_TEXT)
    ? [{ id: endOfText, content: END_OF_TEXT, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }]
    : [];
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true };
  const json: Obj = {
    added_tokens: added,
    normalizer: null,
    pre_tokenizer: byteLevel,
    post_processor: null,
    decoder: byteLevel,
    model: { type: 'BPE', dropout: null, unk_token: null, fuse_unk: false, byte_fallback: false, vocab, merges },
  };
  return { json, sources };
}
