// One case of bench:long-run, in a process of its own so its peak memory is its run's alone (the
// parent samples it from /proc): the model run's worker as dist/run-worker.js makes it (RunAnswers,
// the real engine, the kernel's threads), one run of the long text, then the grid's reads (every
// 'pass' answer in the editor scan's ranges), then a head opened as the head view opens it (its
// 'picture', its map where the run has one, the first exact 'window', the map's first coarse 'tile'
// and a level-0 one; beside them the same coarse tile by the generic reader path, tileFromSource over
// the run's source, as a run's tile was answered before it had maps). Prints one JSON line, then
// waits for its stdin to close (the parent reads its high-water mark meanwhile).
import { join } from 'node:path';
import { readModelFolder } from '../../src/core/checkpoint-files/model-folder.js';
import { loadModel, mostTokens } from '../../src/core/checkpoint/model.js';
import { installProductHelper } from '../../src/core/kernels/product-helper.js';
import { MAX_WINDOW_CELLS } from '../../src/core/model-attention/data.js';
import { kernelThreads } from '../../src/core/threads/kernel-thread.js';
import { keptRunBudget, realEngine } from '../../src/host/checkpoint-run/engine.js';
import { headRanges } from '../../src/host/model-editor/scan.js';
import { RunAnswers } from '../../src/host/checkpoint-run/run-answers.js';
import { sinksOf, tileFromSource, type HeadMap } from '../../src/core/model-attention/tiles.js';
import type { AttentionSource } from '../../src/core/tensors/attention-source.js';
import type { RunReport, RunRequest, RunResponse } from '../../src/protocol/checkpoint-run.js';
import { ROOT } from './checkpoints.js';
import { longText, type CaseRequest, type CaseResult } from './long-run.js';

type Without<T> = T extends unknown ? Omit<T, 'id'> : never;

/** The most tokens the editor's budget lets a dense run of the kept model in `dir` take. */
function mostDense(dir: string): number {
  const folder = readModelFolder(dir);
  try {
    const model = loadModel(folder.configText, folder.tensors, { keep: true, where: folder.where });
    return mostTokens(model, keptRunBudget(model));
  } finally {
    folder.close();
  }
}

function runCase(request: CaseRequest): CaseResult {
  installProductHelper(kernelThreads(join(ROOT, 'dist', 'kernel-worker.js')));
  const tokens = request.attention === 'most-dense' ? mostDense(request.dir) : request.tokens;
  // The long run as the editor runs it (the engine's own choice: q and k past the dense size); the
  // dense ones told to keep every head, as today's path did at any length.
  const attention = request.attention === 'qk' ? 'auto' : 'dense';
  // The run's source kept aside (not wrapped: the worker answers tiles from the run behind it) for the generic path's figure.
  const real = realEngine(undefined, { attention });
  let source: AttentionSource | undefined;
  const answers = new RunAnswers({ ...real, run: (...args) => { const r = real.run(...args); source = r.qk?.source; return r; } });
  let id = 1;
  // An op this build's worker does not know (a 'tile' before tiles) is answered by nothing.
  const ask = (r: Without<RunRequest>): RunResponse => answers.answer({ id: id++, ...r } as RunRequest)?.response;
  const okOf = (r: RunResponse): RunResponse & { ok: true } => {
    if (!r.ok) throw new Error((r as { error: string }).error);
    return r as RunResponse & { ok: true };
  };
  const label = request.attention === 'most-dense' ? 'dense (most the budget allows)' : request.attention;
  const t0 = performance.now();
  const first = ask({ op: 'run', folder: request.dir, text: longText(tokens), maxTokens: tokens });
  const runMs = performance.now() - t0;
  if (!first.ok) return { tokens, attention: label, refused: (first as { error: string }).error };
  const run = (first as { run: RunReport }).run;
  // The engine's own choice said: a run that kept q and k says why it has no whole heads.
  const kept = request.attention === 'qk' && run.wholeHeads === undefined ? 'dense (the engine\'s choice)' : label;
  const { layers, tokens: n } = run.shape;
  // The grid: the editor's scan asks these ranges of heads (one reader: a run's document has no helpers).
  const g0 = performance.now();
  const ranges = headRanges(run.shape);
  for (const [from, to] of ranges) okOf(ask({ op: 'pass', from, to, options: {} }));
  const gridMs = performance.now() - g0;
  // A head of the middle layer opened: its picture, then the first exact window (the last queries, the
  // first keys: the longest rows), then a tile of the map where this build has them.
  const layer = Math.floor(layers / 2), head = 1;
  const p0 = performance.now();
  const picture = (okOf(ask({ op: 'picture', layer, head, options: {} })) as unknown as { picture: { res: number } }).picture;
  const pictureMs = performance.now() - p0;
  // The head's map (a run that keeps q and k: its sinks from 64 rows, its maxima from the forward's column maxima).
  const m0 = performance.now();
  const mapAnswer = ask({ op: 'map', layer, head, options: {} } as Without<RunRequest>);
  const mapMs = performance.now() - m0;
  const map = mapAnswer?.ok ? (mapAnswer as { map: HeadMap | null }).map : null;
  const side = Math.min(n, Math.floor(Math.sqrt(MAX_WINDOW_CELLS)));
  const w0 = performance.now();
  okOf(ask({ op: 'window', layer, head, i0: n - side, rows: side, j0: 0, cols: side, options: {} }));
  const windowMs = performance.now() - w0;
  const tile = tryTile(ask, layer, head, n);
  // The map's deepest level where the hover reads: the last 256 queries on the first 256 keys (the sink among them).
  const deep = n > 256 ? tryTile(ask, layer, head, n, 0, n - 256, 0) : {};
  // The reference: the coarse tile as the generic reader path computes it from the same source.
  let referenceTileMs: number | undefined;
  if (source && map) {
    const r0 = performance.now();
    tileFromSource(source, layer, head, coarsest(n), 0, 0, 256, 256, sinksOf(source, layer, head));
    referenceTileMs = performance.now() - r0;
  }
  answers.close();
  return {
    tokens: n, attention: kept, loadMs: run.timings.loadMs, forwardMs: run.timings.forwardMs, runMs,
    gridMs, passes: ranges.length, pictureMs, pictureRes: picture.res, windowMs, ...tile,
    ...(map ? { mapMs, sinks: map.sinks.length, columnMaxMB: (layers * run.shape.heads * n * 4) / 2 ** 20 } : {}),
    ...(deep.tileMs !== undefined ? { deepTileMs: deep.tileMs } : {}),
    ...(referenceTileMs !== undefined ? { referenceTileMs } : {}),
  };
}

/** The deepest level whose blocks of 2^level tokens cover the head in 256 × 256 cells. */
function coarsest(n: number): number {
  let level = 0;
  while (n / 2 ** level > 256) level++;
  return level;
}

/** A tile of the head's map (by default the coarsest level's top-left 256 × 256 blocks), or why this build answers none. */
function tryTile(ask: (r: Without<RunRequest>) => RunResponse, layer: number, head: number, n: number, level = coarsest(n), i0 = 0, j0 = 0): Pick<CaseResult, 'tileMs' | 'tileNote'> {
  const t0 = performance.now();
  let r: RunResponse | undefined;
  try {
    r = ask({ op: 'tile', layer, head, level, i0, j0, rows: 256, cols: 256, options: {} } as unknown as Without<RunRequest>);
  } catch (e) {
    return { tileNote: `no tiles: ${e instanceof Error ? e.message : String(e)}` };
  }
  const tileMs = performance.now() - t0;
  if (!r) return { tileNote: 'no tiles in this build' };
  if (!r.ok) return { tileNote: `no tiles: ${(r as { error: string }).error}` };
  return { tileMs };
}

const request = JSON.parse(process.argv[2] ?? '{}') as CaseRequest;
const result = runCase(request);
process.stdout.write(`${JSON.stringify(result)}\n`);
// Held until the parent has read this process's high-water mark (it closes our stdin).
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
