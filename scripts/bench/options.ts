// bench:model's command line: which shapes, which lengths, and the whole bench's time budget (a
// Llama-1B-shaped run of 1,024 tokens may take many minutes on a slow kernel: what the budget cannot
// hold is skipped and said so).
import { SHAPES, type ShapeKey } from './shapes.js';

export interface BenchOptions { shapes: ShapeKey[]; tokens: number[]; budgetS: number; cli?: string }

export const BENCH_USAGE = 'usage: npm run bench:model -- [--shapes gpt2,qwen,llama] [--tokens 128,1024] [--budget SECONDS (default 1800)] [--cli PATH/attn.js (another build\'s CLI)]';

const DEFAULTS: BenchOptions = { shapes: SHAPES.map((s) => s.key), tokens: [128, 1024], budgetS: 1800 };

/** The options, or a sentence saying what is wrong with the command line. */
export function readOptions(argv: readonly string[]): BenchOptions | string {
  const o: BenchOptions = { ...DEFAULTS };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i], value = argv[i + 1];
    if (flag !== '--shapes' && flag !== '--tokens' && flag !== '--budget' && flag !== '--cli') return `unknown option ${JSON.stringify(flag)}`;
    if (value === undefined || value.startsWith('--')) return `${flag} needs a value`;
    i++;
    if (flag === '--shapes') {
      const keys = value.split(',');
      const bad = keys.find((k) => !SHAPES.some((s) => s.key === k));
      if (bad !== undefined) return `--shapes: ${JSON.stringify(bad)} is not one of ${SHAPES.map((s) => s.key).join(', ')}`;
      o.shapes = SHAPES.map((s) => s.key).filter((k) => keys.includes(k));
    } else if (flag === '--tokens') {
      const counts = value.split(',').map(Number);
      if (counts.some((c) => !Number.isInteger(c) || c < 1 || c > 1024)) return `--tokens takes whole numbers from 1 to 1024 (GPT-2's context), got ${JSON.stringify(value)}`;
      o.tokens = [...new Set(counts)].sort((a, b) => a - b);
    } else if (flag === '--cli') {
      o.cli = value;
    } else {
      const s = Number(value);
      if (!(s > 0) || !Number.isFinite(s)) return `--budget takes a number of seconds > 0, got ${JSON.stringify(value)}`;
      o.budgetS = s;
    }
  }
  return o;
}

/**
 * Seconds one shape-and-length is expected to take: our runs at the slowest rate seen so far for their
 * precision (or `fallbackGflops`), plus the references' seven forwards at `referenceGflops`.
 */
export function estimateS(flops: number, runs: readonly { gflops: number | undefined }[], fallbackGflops: number, referenceGflops: number): number {
  const ours = runs.reduce((s, r) => s + flops / 1e9 / (r.gflops ?? fallbackGflops), 0);
  return ours + (7 * flops) / 1e9 / referenceGflops;
}
