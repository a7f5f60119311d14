// The analyses' PyTorch reference (test/reference/analyses.py, Debian's python3-torch, no transformers
// library) as the CLI's tests use it: every family's tiny checkpoints generated into one folder (the
// scripts of test/reference and families/), `attn run --json` with an analysis's flags, the
// reference's answer for the same ids, and the comparisons (a tolerance scaled by the number's size,
// since float32 keeps about seven digits of a logit of 10 as of one of 0.1). Without torch a test fails
// (it never skips).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attn } from './cli.js';
import { ROOT } from './paths.js';
import { tempDir } from './temp-dir.js';

export const PYTHON = '/usr/bin/python3';
const REFERENCE = join(ROOT, 'test', 'reference');
export const ANALYSES = join(REFERENCE, 'analyses.py');
const GENERATORS = ['torch_forward.py', 'families/phi_neox.py', 'families/gemma.py', 'families/rotary.py'];

/** The text every case runs, and texts of the same token count (12 with the byte-level tokenizer the cases share). */
export const TEXT = 'the cat sat on the mat. the cat';
/** Differs from TEXT at the last token. */
export const CORRUPTED = 'the cat sat on the mat. the sat';
/** Differs from TEXT only before the last token. */
export const EARLIER = 'the sat sat on the mat. the cat';

/** Every family's cases the analyses are tested on (one decoder or more of each reference's families). */
export const DECODERS = ['gpt2-plain', 'gpt2-prefix', 'llama-mha', 'llama-gqa', 'qwen2', 'phi3-mini-4k', 'phi3-window-5', 'pythia-160m',
  'pythia-70m', 'gemma-2b', 'gemma-2-2b', 'gemma-3-1b-pt', 'gemma-3-4b-pt', 'qwen3', 'mistral-window', 'qwen2-window', 'llama3-scaled'] as const;

export function python(script: string, ...args: string[]): string {
  const r = spawnSync(PYTHON, [script, ...args], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  assert.equal(r.status, 0, `${PYTHON} ${script} ${args.join(' ')} failed: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

/** Every reference's cases written into one new temporary folder: case name → folder. */
export function generateCases(): Map<string, string> {
  const probe = spawnSync(PYTHON, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
  assert.equal(probe.status, 0, `this test needs PyTorch and numpy for ${PYTHON} (Debian's python3-torch and python3-numpy; scripts/setup.mjs --for test installs them): ${probe.error?.message ?? probe.stderr}`);
  const root = tempDir('attn-analyses-');
  const cases = new Map<string, string>();
  for (const script of GENERATORS) {
    const dir = join(root, script.replace(/\W/g, '-'));
    for (const name of JSON.parse(python(join(REFERENCE, script), 'generate', dir)) as string[]) cases.set(name, join(dir, name));
  }
  return cases;
}

export type Dtype = 'float32' | 'float64';
/**
 * The reference's dtype the runs are held to, in either precision: float64, the exact answer, so a
 * float32 run's difference is its own rounding alone (the reference's float32 mode, checked against the
 * families' float32 forwards by `check`, would add its own rounding to it).
 */
export const EXACT: Dtype = 'float64';
/** The contract's tolerances: 1e-5 in float32, 1e-9 in float64. */
export const toleranceOf = (precision: 'f32' | 'f64') => (precision === 'f32' ? 1e-5 : 1e-9);

export interface Request {
  dir: string; ids: number[]; dtype: Dtype;
  norms?: boolean; logitLens?: boolean; target?: number; contrast?: number | null;
  ablate?: [number, number][]; ablation?: 'zero' | 'mean'; patchFrom?: number[]; generate?: number;
}

export interface Ranked { id: number; p: number; token?: string }

export interface Attribution {
  target: number; contrast: number | null;
  heads: number[][]; attentionBias: number[]; mlps: number[];
  embed: number; normBias: number; headBias?: number; total: number;
}

export interface Reference {
  next: Ranked[]; logits: number[]; attention: number[][][][];
  norms?: number[][][][]; valueNorms?: number[][][]; logitLens?: Ranked[][][];
  /** logitScale: max(1, the target's and contrast's |logit|, every |part|), what float32 rounds relative to. */
  attribution?: Attribution & { direct: number; residualError: number; logitScale: number };
  ablation?: { next: Ranked[]; logitDiff: number; baseLogitDiff: number; target: number; logitScale: number };
  patching?: (number | null)[][]; mClean?: number; mCorrupted?: number; patchingScale?: number;
  generated?: number[];
}

/** The reference's answers to every request, in one Python process. */
export function reference(requests: Request[]): Reference[] {
  const file = join(tempDir('attn-analyses-req-'), 'request.json');
  writeFileSync(file, JSON.stringify(requests));
  return JSON.parse(python(ANALYSES, 'analyze', file)) as Reference[];
}

/** The hooked pass against each family's own forward: the largest weight and p differences. */
export function check(requests: { dir: string; ids: number[]; dtype: Dtype }[]): { weight: number; p: number }[] {
  const file = join(tempDir('attn-analyses-req-'), 'request.json');
  writeFileSync(file, JSON.stringify(requests));
  return JSON.parse(python(ANALYSES, 'check', file)) as { weight: number; p: number }[];
}

/** What `attn run --json` prints, the parts these tests read. */
export interface RunJson {
  model: { type: string; layers: number; heads: number; kvHeads: number; vocab: number; precision: string };
  ids: number[]; tokens: string[]; pieces: string[];
  attention: number[][][][];
  next: Ranked[];
  norms?: number[][][][];
  logitLens?: Ranked[][][];
  attribution?: Attribution;
  ablation?: { heads: string[]; mode: string; next: Ranked[]; logitDiff: number; baseLogitDiff: number };
  patching?: number[][];
  generated?: { id: number; token: string }[];
}

/** `attn run DIR --text TEXT --json --precision P …extra`, which must succeed; its JSON. */
export async function runJson(dir: string, precision: 'f32' | 'f64', text: string, ...extra: string[]): Promise<RunJson> {
  const r = await attn('run', dir, '--text', text, '--json', '--precision', precision, ...extra);
  assert.equal(r.code, 0, `attn run ${dir} ${extra.join(' ')}: ${r.err}`);
  return JSON.parse(r.out) as RunJson;
}

/**
 * Tracks the worst difference seen, scaled: |ours − theirs| / scale must stay under the tolerance, the
 * scale max(1, |theirs|) unless a caller knows better (a norm α‖v W_O‖: max(1, ‖v W_O‖), since α
 * itself agrees to the tolerance; a logit difference or attribution part: the logits' size, which its
 * rounding follows; a patching score: what a logit difference's error becomes in it).
 */
export class Worst {
  worst = 0;
  where = '';
  constructor(readonly tolerance: number, readonly label: string) {}

  see(ours: number | null | undefined, theirs: number | null | undefined, where: string, scale?: number): void {
    if (theirs === null || theirs === undefined) {
      assert.equal(ours ?? null, null, `${this.label} ${where}: the reference has no value, ours ${ours}`);
      return;
    }
    assert.equal(typeof ours, 'number', `${this.label} ${where}: ${JSON.stringify(ours)} is not a number (reference ${theirs})`);
    assert.ok(Number.isFinite(ours), `${this.label} ${where}: ${ours}`);
    const d = Math.abs((ours as number) - theirs) / (scale ?? Math.max(1, Math.abs(theirs)));
    if (d > this.worst) { this.worst = d; this.where = `${where}: ours ${ours}, reference ${theirs}`; }
  }

  done(): number {
    assert.ok(this.worst <= this.tolerance, `${this.label}: differs from the reference by ${this.worst} (over ${this.tolerance}) at ${this.where}`);
    return this.worst;
  }
}

/**
 * Five ranked tokens against the reference's five: each rank's p, and each rank's id where the
 * reference's p there is not tied (within 100 tolerances) with a neighbour's.
 */
export function compareRanked(ours: Ranked[], theirs: Ranked[], worst: Worst, where: string): void {
  assert.equal(ours.length, 5, `${where}: ${ours.length} ranked tokens`);
  ours.forEach((t, r) => {
    worst.see(t.p, theirs[r].p, `${where} rank ${r + 1}`);
    const tied = (r > 0 && theirs[r - 1].p - theirs[r].p < 100 * worst.tolerance) || (r < 4 && theirs[r].p - theirs[r + 1].p < 100 * worst.tolerance);
    if (!tied) assert.equal(t.id, theirs[r].id, `${where} rank ${r + 1}: id ${t.id}, the reference's ${theirs[r].id} (p ${theirs[r].p})`);
  });
}

/**
 * Every attribution part against the reference's (and the head bias where either has one), each
 * difference relative to `scale` (the reference's logitScale: a part is a difference of logits' shares,
 * rounded in float32 relative to the logits' size, not its own).
 */
export function compareAttribution(ours: Attribution, theirs: Attribution, worst: Worst, where: string, scale: number): void {
  assert.equal(ours.target, theirs.target, `${where}: target`);
  assert.equal(ours.contrast, theirs.contrast, `${where}: contrast`);
  assert.equal(ours.heads.length, theirs.heads.length, `${where}: layers`);
  ours.heads.forEach((row, l) => {
    assert.equal(row.length, theirs.heads[l].length, `${where}: heads in layer ${l}`);
    row.forEach((v, h) => worst.see(v, theirs.heads[l][h], `${where} heads[${l}][${h}]`, scale));
    worst.see(ours.attentionBias[l], theirs.attentionBias[l], `${where} attentionBias[${l}]`, scale);
    worst.see(ours.mlps[l], theirs.mlps[l], `${where} mlps[${l}]`, scale);
  });
  assert.equal(ours.attentionBias.length, theirs.attentionBias.length);
  assert.equal(ours.mlps.length, theirs.mlps.length);
  worst.see(ours.embed, theirs.embed, `${where} embed`, scale);
  worst.see(ours.normBias, theirs.normBias, `${where} normBias`, scale);
  worst.see(ours.headBias ?? 0, theirs.headBias ?? 0, `${where} headBias`, scale);
  worst.see(ours.total, theirs.total, `${where} total`, scale);
}

/** The sum of every part of an attribution (the head bias where there is one). */
export function partsSum(a: Attribution): number {
  let sum = a.embed + a.normBias + (a.headBias ?? 0);
  a.heads.forEach((row, l) => { sum += row.reduce((s, v) => s + v, 0) + a.attentionBias[l] + a.mlps[l]; });
  return sum;
}
