// The tiny GPT-2 folder (tiny-folder.ts) with its tokenizer as tokenizer.json (made from its vocab.json
// and merges.txt, which are then removed), for the tests of the tokenizer cache, which keys tokenizer.json.
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { vocabMergesTokenizerJson } from '../../src/core/tokenizer/gpt2-files.js';
import { writeTinyGpt2 } from './tiny-folder.js';

export function writeTinyGpt2Json(dir: string): string {
  writeTinyGpt2(dir);
  const { json } = vocabMergesTokenizerJson(readFileSync(join(dir, 'vocab.json'), 'utf8'), readFileSync(join(dir, 'merges.txt'), 'utf8'));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(json));
  unlinkSync(join(dir, 'vocab.json'));
  unlinkSync(join(dir, 'merges.txt'));
  return dir;
}
