// bench:model's two kinds of process: `attn run` as a user runs it (the bundled CLI, dist/attn.js, a
// fresh node under /usr/bin/time for its peak resident memory), and the Python references
// (reference_forward.py) under Debian's python3 with numpy and torch, OpenBLAS's tuning variables
// unset in that command only.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PYTHON, ROOT } from './checkpoints.js';
import type { MatrixShape } from './shapes.js';

export const CLI = join(ROOT, 'dist', 'attn.js');
const REFERENCE = join(__dirname, 'reference_forward.py');

/** Whether this build's `attn run` takes --precision (its usage names it). */
export function precisionAccepted(cli = CLI): boolean {
  const r = spawnSync(process.execPath, [cli, 'run', '--help'], { encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`.includes('--precision');
}

export interface OursRun {
  /** f32, f64, or "f64 (default)" where the CLI has no --precision. */
  precision: string;
  loadMs: number; tokenizeMs: number; forwardMs: number; wallMs: number; peakMB: number;
}

export type OursOutcome = OursRun | { precision: string; refused: string; wallMs: number; peakMB: number };

/** The timings line every `attn run` summary ends with. */
export function readTimings(stdout: string): { loadMs: number; tokenizeMs: number; forwardMs: number } | undefined {
  const m = /load (\d+) ms, tokenize (\d+) ms, forward (\d+) ms/.exec(stdout);
  return m ? { loadMs: Number(m[1]), tokenizeMs: Number(m[2]), forwardMs: Number(m[3]) } : undefined;
}

/** `/usr/bin/time -f %M`'s answer in a file: the child's peak resident set in KB (its last line). */
export function readPeakKb(text: string): number | undefined {
  const last = text.trim().split('\n').at(-1);
  return last !== undefined && /^\d+$/.test(last) ? Number(last) : undefined;
}

/** One `attn run DIR --text-file F --max-tokens n` of the bundled CLI (or `cli`) in a fresh process; `precision` passed as --precision when given. */
export function attnRun(dir: string, textFile: string, n: number, precision: string | undefined, out?: string, cli = CLI, extra: readonly string[] = []): OursOutcome {
  const scratch = mkdtempSync(join(tmpdir(), 'attn-bench-time-'));
  try {
    const timeFile = join(scratch, 'time');
    const args = ['-o', timeFile, '-f', '%M', process.execPath, cli, 'run', dir, '--text-file', textFile, '--max-tokens', String(n),
      ...(precision ? ['--precision', precision] : []), ...(out ? ['--out', out] : []), ...extra];
    const t = performance.now();
    const r = spawnSync('/usr/bin/time', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const wallMs = performance.now() - t;
    const peakMB = (readPeakKb(readFileSync(timeFile, 'utf8')) ?? NaN) / 1024;
    const label = precision ?? 'f64 (default)';
    const timings = r.status === 0 ? readTimings(r.stdout) : undefined;
    if (!timings) return { precision: label, refused: (r.stderr || r.stdout).trim().split('\n')[0] || `exit ${r.status}`, wallMs, peakMB };
    return { precision: label, ...timings, wallMs, peakMB };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export interface Reference {
  threadpools: { internal_api: string; version: string; num_threads: number; threading_layer: string; architecture: string }[];
  loadMs: number;
  numpy: { forwardMs: number; firstMs: number; calls: number };
  sgemm: { gflops: number; shapes: { n: number; k: number; m: number; gflops: number }[] };
  finite: boolean;
  torch?: { forwardMs: number; firstMs: number; threads: number; version: string };
  agree?: { logits: number; logitScale: number; attention: number };
  ours: ({ label: string } & Record<string, number | string>)[];
  peakMB: number;
}

export interface ReferenceRequest {
  dir: string; ids: number[]; matrices: MatrixShape[];
  attention: { label: string; file: string }[];
  numpyCalls: number; torchWarmCalls: number;
}

/** The numpy and torch forwards, numpy's sgemm, their agreement, and Δ against our attention files. */
export function reference(request: ReferenceRequest): Reference {
  const scratch = mkdtempSync(join(tmpdir(), 'attn-bench-ref-'));
  try {
    const file = join(scratch, 'request.json');
    writeFileSync(file, JSON.stringify(request));
    const env = { ...process.env };
    delete env.OPENBLAS_CORETYPE;
    delete env.OPENBLAS_L2_SIZE;
    const r = spawnSync(PYTHON, [REFERENCE, file], { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`the numpy/torch reference failed: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    return JSON.parse(r.stdout) as Reference;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
