// npm run bench:model: `attn run` (the bundled CLI, a fresh process per run, as a user runs it) on
// three model shapes of random weights (GPT-2 small F32; Qwen2.5-0.5B's and Llama-3.2-1B's in BF16,
// scripts/bench/shapes.ts), at 128 and 1,024 tokens: load, tokenize, forward, the whole run's wall
// time, its peak resident memory and the forward's GFLOP/s at its own shapes; beside, in the same run,
// a float32 numpy forward of the same weights and ids, numpy's sgemm at the forward's matrix shapes,
// and Debian's PyTorch warm (scripts/bench/reference_forward.py); the ratios, the references'
// agreement with each other and with our attention, and the goals checked. Where `attn run` takes
// --precision, float32 is measured, and float64 at 128 tokens (its attention checked too). The
// weights are written once under .scratch/bench-models/ and reused. Figures, not assertions.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tokenizerFrom } from '../src/core/tokenizer/index.js';
import { ensureCheckpoint } from './bench/checkpoints.js';
import { gflops, isRun, type Measured } from './bench/goals.js';
import { BENCH_USAGE, estimateS, readOptions } from './bench/options.js';
import { goalLines, table } from './bench/report.js';
import { attnRun, CLI, precisionAccepted, reference, type Reference } from './bench/runs.js';
import { forwardFlops, layerMatrices, modelConfig, shapeOf, type Shape } from './bench/shapes.js';
import { PARAGRAPH } from './model-checkpoint.js';
import { benchAnalyses } from './bench/analyses.js';

/** The first n ids of the text, as `attn run --max-tokens n` takes them (the same tokenizer files, the same limit). */
function idsOf(dir: string, text: string, n: number): number[] {
  const config = join(dir, 'tokenizer_config.json');
  const tokenizer = tokenizerFrom({
    tokenizerJson: readFileSync(join(dir, 'tokenizer.json'), 'utf8'),
    ...(existsSync(config) ? { tokenizerConfigJson: readFileSync(config, 'utf8') } : {}),
  });
  return tokenizer.encode(text, n).ids.slice(0, n);
}

const poolsLine = (r: Reference) => r.threadpools.map((p) => `${p.internal_api} ${p.version} ${p.threading_layer}, ${p.num_threads} threads, ${p.architecture}`).join('; ');

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  if (typeof options === 'string') {
    console.error(`bench:model: ${options}\n${BENCH_USAGE}`);
    process.exitCode = 2;
    return;
  }
  const cli = options.cli ?? CLI;
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run node scripts/build.mjs first`);
  const started = performance.now();
  const elapsedS = () => (performance.now() - started) / 1000;
  const withPrecision = precisionAccepted(cli);
  console.log(`${cli}: attn run ${withPrecision ? 'takes --precision: float32 measured, float64 too at 128 tokens' : 'has no --precision: its one (float64) forward measured'}; budget ${options.budgetS} s`);
  const shapes = options.shapes.map((k) => shapeOf(k)!);
  const folders = new Map<Shape, string>();
  for (const s of shapes) {
    const t = performance.now();
    const c = ensureCheckpoint(s);
    folders.set(s, c.dir);
    console.log(`${s.label}: ${c.written ? `written in ${((performance.now() - t) / 1000).toFixed(1)} s` : 'reused'} (${(c.bytes / 1e9).toFixed(2)} GB, ${s.dtype}) ${c.dir}`);
  }
  const scratch = mkdtempSync(join(tmpdir(), 'attn-bench-model-'));
  const measured: Measured[] = [], skipped: string[] = [];
  const seen = new Map<string, number>();
  let pools = '';
  let analyses: string[] = [];
  try {
    const text = PARAGRAPH.repeat(60);
    const textFile = join(scratch, 'text.txt');
    writeFileSync(textFile, text);
    // The shorter runs of every shape first: a budget cut falls on the longest ones.
    for (const n of options.tokens) {
      for (const s of shapes) {
        const dir = folders.get(s)!, c = modelConfig(s), flops = forwardFlops(c, n);
        const precisions: (string | undefined)[] = withPrecision ? ['f32', ...(n === 128 ? ['f64'] : [])] : [undefined];
        const expected = estimateS(flops.total, precisions.map((p) => ({ gflops: seen.get(p ?? 'f64') })), 2, 30);
        if (elapsedS() + expected > options.budgetS) {
          skipped.push(`${s.label} at ${n} tokens: expected ${Math.round(expected)} s (at the rates measured so far), ${Math.max(0, Math.round(options.budgetS - elapsedS()))} s of the budget left`);
          console.log(`skipped: ${skipped.at(-1)}`);
          continue;
        }
        const ids = idsOf(dir, text, n);
        if (ids.length < n) throw new Error(`the bench text tokenizes to ${ids.length} ids with ${s.label}'s tokenizer, fewer than ${n}`);
        const m: Measured = { shape: s.key, label: s.label, n, flops, ours: [] };
        const attention: { label: string; file: string }[] = [];
        for (const p of precisions) {
          // At 128 tokens the attention is written (a few MB) and checked against numpy's.
          const out = n === 128 ? join(scratch, `attention-${p ?? 'default'}.safetensors`) : undefined;
          const o = attnRun(dir, textFile, n, p, out, cli);
          m.ours.push(o);
          if (isRun(o)) {
            const rate = gflops(flops.total, o.forwardMs), key = p ?? 'f64';
            seen.set(key, Math.min(seen.get(key) ?? Infinity, rate));
            if (out) attention.push({ label: `attn ${o.precision}`, file: out });
          }
        }
        m.ref = reference({ dir, ids, matrices: layerMatrices(c), attention, numpyCalls: 3, torchWarmCalls: 3 });
        pools ||= poolsLine(m.ref);
        measured.push(m);
        console.log(table([m]).slice(1).join('\n'));
      }
    }
    // The analyses beyond the pattern, on GPT-2 small at 128 tokens, beside its plain run.
    const gpt2 = shapes.find((s) => s.key === 'gpt2');
    if (gpt2 && options.tokens.includes(128) && elapsedS() < options.budgetS) {
      const c = modelConfig(gpt2);
      analyses = benchAnalyses(folders.get(gpt2)!, PARAGRAPH.repeat(4), scratch, 128, c.layers, c.heads, cli);
      console.log(analyses.join('\n'));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`\nnumpy's BLAS (threadpoolctl): ${pools || '—'}; bench ${Math.round(elapsedS())} s`);
  console.log('GFLOP/s: the forward\'s FLOPs (2·n per layer-matrix weight, the causal half of attention\'s QKᵀ and weights·V, the head at the last position) over its time.\n');
  for (const line of table(measured)) console.log(line);
  if (skipped.length > 0) console.log(`\nskipped (--budget ${options.budgetS} s):\n${skipped.map((x) => `  ${x}`).join('\n')}`);
  if (analyses.length > 0) console.log(`\n${analyses.join('\n')}`);
  console.log('\ngoals:');
  for (const line of goalLines(measured)) console.log(`  ${line}`);
}

main().catch((e: unknown) => { console.error(e instanceof Error ? e.message : e); process.exitCode = 1; });
