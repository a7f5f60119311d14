// npm run bench:long-run: a long text through a whole model in the model editor's worker path
// (RunAnswers with the real engine and the kernel's threads, as dist/run-worker.js runs them), on a
// random BF16 checkpoint of the Llama-3.2-1B shape (16 layers × 32 heads, 8 kv heads of 64, d 2048,
// ffn 8192, vocabulary 128,256, tied, its llama3 RoPE scaling and 131,072 positions), written once
// under .scratch/bench-models/ as bench:model writes it (N(0, 0.02²) weights, so the run stays
// finite). Each case runs in a fresh process whose peak resident memory this process samples from
// /proc (VmRSS every 20 ms, and the kernel's VmHWM before the child exits), so the figure is that
// run's alone. Per case: the run's forward time, then the grid (every 'pass' answer the editor's scan
// asks, in its ranges) after the forward ends, then opening a head (its 'picture', the first exact
// 'window', and a 'tile' where the build has tiles). The cases: 8,192 tokens with the run keeping
// q and k ('qk'), beside today's dense path (every head's n × n kept) at 4,096 tokens — refused on
// this shape by the budget, said so — at the most tokens the editor's budget lets a dense run
// take, and q and k at 4,096 too (the same length both ways). Goals (judged at the long run): peak ≤ the weights as stored + 1.5 GB, grid ≤ 2 s, head ≤ 300 ms. --quick: 2 layers
// (a folder of its own), to try it out. Figures, not assertions: the machine is shared and noisy.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCheckpoint, ROOT } from './checkpoints.js';
import { shapeOf, type Shape, type ShapeKey } from './shapes.js';
import { PARAGRAPH } from '../model-checkpoint.js';

export const LONG_RUN_USAGE = 'usage: npm run bench:long-run -- [--quick (2 layers)] [--tokens N (the long run, default 8192)] [--dense N (the dense run, default 4096)]';

export interface LongRunOptions { quick: boolean; tokens: number; dense: number }

/** The options, or a sentence saying what is wrong with the command line. */
export function readLongRunOptions(argv: readonly string[]): LongRunOptions | string {
  const o: LongRunOptions = { quick: false, tokens: 8192, dense: 4096 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--quick') { o.quick = true; continue; }
    if (flag !== '--tokens' && flag !== '--dense') return `unknown option ${JSON.stringify(flag)}`;
    const value = Number(argv[++i]);
    if (!Number.isInteger(value) || value < 1 || value > 131072) return `${flag} takes a whole number of tokens from 1 to 131072, got ${JSON.stringify(argv[i])}`;
    if (flag === '--tokens') o.tokens = value; else o.dense = value;
  }
  return o;
}

/** What one case asks of its child process. */
export interface CaseRequest { dir: string; tokens: number; attention: 'dense' | 'qk' | 'most-dense' }

/** What the child says of its case (all times in ms). */
export interface CaseResult {
  tokens: number; attention: string; refused?: string; loadMs?: number; forwardMs?: number; runMs?: number;
  gridMs?: number; passes?: number; pictureMs?: number; pictureRes?: number; windowMs?: number; tileMs?: number; tileNote?: string;
  headDenseMs?: number;
  /** A run's head map: the 'map' answer, its sinks, the column maxima the run keeps for all heads (MB). */
  mapMs?: number; sinks?: number; columnMaxMB?: number;
  /** The map's level-0 tile (the last 256 queries on the first 256 keys), and the coarse tile by the generic reader path. */
  deepTileMs?: number; referenceTileMs?: number;
}

/** The checkpoint's shape: the real one, or two of its layers for --quick (in a folder of their own). */
export function benchShape(quick: boolean): Shape {
  const llama = shapeOf('llama')!;
  if (!quick) return llama;
  // The folder's name is the key: two layers get their own folder beside the whole shape's.
  return { ...llama, key: 'llama-2-layers' as ShapeKey, label: 'Llama-3.2-1B shape, 2 layers', config: { ...llama.config, num_hidden_layers: 2 } };
}

/** A text of more than `tokens` Llama-3 tokens: the paragraph again and again, each copy numbered (not one repeated string). */
export function longText(tokens: number): string {
  const parts: string[] = [];
  // The paragraph is about 45 tokens; a copy's number adds two or three.
  for (let k = 0; k * 40 < tokens + 200; k++) parts.push(`${k}. ${PARAGRAPH}`);
  return parts.join('');
}

/** KB of a /proc/PID/status field, or undefined once the process is gone. */
function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** One case in a fresh process, its resident memory sampled from here: the child's result and its peak (MB). */
function runCase(request: CaseRequest): Promise<CaseResult & { peakMB: number; sampledMB: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'long-run-case.ts'), JSON.stringify(request)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    let sampled = 0, hwm = 0, out = '';
    const sample = () => { sampled = Math.max(sampled, statusKb(child.pid!, 'VmRSS') ?? 0); };
    const timer = setInterval(sample, 20);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      // The result's line: the child waits (its stdin open) while its high-water mark is read.
      if (out.includes('\n') && hwm === 0) {
        sample();
        hwm = statusKb(child.pid!, 'VmHWM') ?? 0;
        child.stdin.end();
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      const line = out.split('\n')[0];
      if (code !== 0 || !line) { reject(new Error(`the ${request.attention} case of ${request.tokens} tokens exited with ${code}`)); return; }
      resolve({ ...(JSON.parse(line) as CaseResult), peakMB: hwm / 1024, sampledMB: sampled / 1024 });
    });
  });
}

const GB = 1024;
const mb = (v: number | undefined) => (v === undefined ? '—' : `${Math.round(v)}`);
const ms = (v: number | undefined) => (v === undefined ? '—' : v < 10 ? v.toFixed(1) : `${Math.round(v)}`);

/** The table's lines and the goals' lines, each figure beside its goal. */
export function report(weightsMB: number, cases: readonly (CaseResult & { peakMB: number; sampledMB: number })[], judged: number): string[] {
  const mapped = cases.some((c) => c.mapMs !== undefined);
  const lines = [`weights as stored: ${mb(weightsMB)} MB; peak goal ≤ ${mb(weightsMB + 1.5 * GB)} MB, grid ≤ 2000 ms, head (picture${mapped ? ' + map' : ''} + window${cases.some((c) => c.tileMs !== undefined) ? ' + tile' : ''}) ≤ 300 ms`];
  lines.push(['case', 'tokens', 'load ms', 'forward ms', 'run ms', 'grid ms (passes)', 'picture ms (side)', ...(mapped ? ['map ms (sinks)'] : []), 'window ms', 'tile ms', ...(mapped ? ['level-0 tile ms', 'generic tile ms'] : []), 'peak MB (VmHWM; sampled VmRSS)'].join(' | '));
  for (const c of cases) {
    const peak = `${mb(c.peakMB)} (${mb(c.sampledMB)})`;
    if (c.refused) { lines.push(`${c.attention} | ${c.tokens} | refused: ${c.refused} | peak ${peak}`); continue; }
    const map = mapped ? [c.mapMs !== undefined ? `${ms(c.mapMs)} (${c.sinks})` : '—'] : [];
    const tiles = mapped ? [ms(c.deepTileMs), ms(c.referenceTileMs)] : [];
    lines.push([c.attention, c.tokens, ms(c.loadMs), ms(c.forwardMs), ms(c.runMs), `${ms(c.gridMs)} (${c.passes})`, `${ms(c.pictureMs)} (${c.pictureRes})`, ...map, ms(c.windowMs), c.tileMs !== undefined ? ms(c.tileMs) : (c.tileNote ?? '—'), ...tiles, peak].join(' | '));
  }
  for (const c of cases) {
    if (c.refused || c.attention !== 'qk' || c.tokens !== judged) continue;
    const head = (c.pictureMs ?? 0) + (c.mapMs ?? 0) + (c.windowMs ?? 0) + (c.tileMs ?? 0);
    const goal = (met: boolean, text: string) => lines.push(`${met ? '✓' : '✗'} ${c.attention} ${c.tokens} tokens: ${text}`);
    goal(c.peakMB <= weightsMB + 1.5 * GB, `peak ${mb(c.peakMB)} MB = weights + ${((c.peakMB - weightsMB) / GB).toFixed(2)} GB (goal ≤ weights + 1.5 GB)`);
    goal((c.gridMs ?? Infinity) <= 2000, `grid ${ms(c.gridMs)} ms after the forward (goal ≤ 2000 ms)`);
    goal(head <= 300, `head ${ms(head)} ms: picture ${ms(c.pictureMs)}${c.mapMs !== undefined ? ` + map ${ms(c.mapMs)}` : ''} + window ${ms(c.windowMs)}${c.tileMs !== undefined ? ` + tile ${ms(c.tileMs)}` : ''} (goal ≤ 300 ms)`);
    // The map's own figures beside their reference (not goals of their own).
    if (c.mapMs !== undefined) lines.push(`  ${c.attention} ${c.tokens} tokens: the head answer with its map ${ms((c.pictureMs ?? 0) + c.mapMs)} ms (picture ${ms(c.pictureMs)} + map ${ms(c.mapMs)}, ${c.sinks} sinks); first coarse tile ${ms(c.tileMs)} ms (the generic reader path: ${ms(c.referenceTileMs)} ms); level-0 tile ${ms(c.deepTileMs)} ms; column maxima kept ${mb(c.columnMaxMB)} MB`);
  }
  return lines;
}

async function main(): Promise<void> {
  const o = readLongRunOptions(process.argv.slice(2));
  if (typeof o === 'string') {
    console.error(`long-run: ${o}\n${LONG_RUN_USAGE}`);
    process.exitCode = 2;
    return;
  }
  const shape = benchShape(o.quick);
  const { dir, written, bytes } = ensureCheckpoint(shape);
  console.log(`${shape.label}: ${dir} (${written ? 'written now' : 'reused'}, ${(bytes / 2 ** 30).toFixed(2)} GB)`);
  const cases: (CaseResult & { peakMB: number; sampledMB: number })[] = [];
  // Today's dense path first (its refusal is quick), then the dense run that fits, then q and k at
  // the dense length (the same length both ways) and the long run.
  const requests: CaseRequest[] = [
    { dir, tokens: o.dense, attention: 'dense' }, { dir, tokens: o.dense, attention: 'most-dense' },
    ...(o.dense !== o.tokens ? [{ dir, tokens: o.dense, attention: 'qk' as const }] : []), { dir, tokens: o.tokens, attention: 'qk' },
  ];
  for (const request of requests) {
    const t0 = performance.now();
    const c = await runCase(request);
    cases.push(c);
    console.log(`  ${request.attention} ${c.tokens} tokens: ${c.refused ? `refused (${c.refused})` : `forward ${ms(c.forwardMs)} ms, grid ${ms(c.gridMs)} ms`}, peak ${mb(c.peakMB)} MB (${((performance.now() - t0) / 1000).toFixed(0)} s in all)`);
  }
  for (const line of report(bytes / 2 ** 20, cases, o.tokens)) console.log(line);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(`long-run: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  });
}
