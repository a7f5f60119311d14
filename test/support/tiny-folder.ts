// A tiny GPT-2 checkpoint folder on disk, as Hugging Face lays one out: config.json, model.safetensors
// (F32, random, from tinyCheckpoint) and vocab.json + merges.txt (GPT-2's 256 byte characters, a few
// merges). For the host's tests of a model spec's run and of the lens on a real head.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeSafetensors } from '../../src/core/tensors/safetensors-write.js';
import { GPT2_CONFIG, tinyCheckpoint } from './tiny-checkpoint.js';

/** GPT-2's printable stand-ins for the 256 bytes (a space is "Ġ"). */
function byteChars(): string[] {
  const chars: string[] = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    chars.push(String.fromCharCode(printable ? b : 256 + extra++));
  }
  return chars;
}

export const TINY_MERGES = ['Ġ c', 'a t', 'Ġc at', 'T h', 'Th e'];

export function writeTinyGpt2(dir: string, seed = 1): string {
  mkdirSync(dir, { recursive: true });
  const vocab: Record<string, number> = {};
  byteChars().forEach((c, i) => { vocab[c] = i; });
  for (const m of TINY_MERGES) vocab[m.replace(' ', '')] = Object.keys(vocab).length;
  const config = { ...GPT2_CONFIG, vocab_size: Object.keys(vocab).length };
  const { configText, tensors } = tinyCheckpoint(config, seed);
  const out = [...tensors.values()].map((t) => {
    const count = t.shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(t.source.read(t.offset, count * 4).slice().buffer);
    return { name: t.name, dtype: 'F32' as const, shape: t.shape, data };
  });
  writeFileSync(join(dir, 'config.json'), configText);
  writeFileSync(join(dir, 'model.safetensors'), writeSafetensors(out));
  writeFileSync(join(dir, 'vocab.json'), JSON.stringify(vocab));
  writeFileSync(join(dir, 'merges.txt'), `#version: 0.2\n${TINY_MERGES.join('\n')}\n`);
  return dir;
}
