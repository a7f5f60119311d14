// What the model editor's norms switch and head ablation cost in the run's worker (RunAnswers, in
// this process, as dist/run-worker.js runs it): on a GPT-2-shaped checkpoint (a folder given, or
// .scratch/bench-models/gpt2 as bench:model writes it) at 128 tokens, float32, best of --repeat:
// an edit's run (the text with its last word changed: the kept beginning reused), the same text run
// again (everything reused), an ablation toggle (a head of layer 1, then of layer 12, switched off:
// the kept model starts from its last unablated run's layer inputs, so only the layers from the first
// ablated one run), its restore (a plain run, everything reused), and the norms' first read
// (the text run again with the norms' probe, then the scan's pass over every head's norms) beside
// the plain pass over the weights. Figures, not assertions: the machine is shared and noisy.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { realEngine } from '../../src/host/checkpoint-run/engine.js';
import { RunAnswers } from '../../src/host/checkpoint-run/run-answers.js';
import type { RunReport, RunRequest, RunResponse } from '../../src/protocol/checkpoint-run.js';
import { PARAGRAPH } from '../model-checkpoint.js';

type Without<T> = T extends unknown ? Omit<T, 'id'> : never;

function main(): void {
  const args = process.argv.slice(2);
  const folder = args.find((a) => !a.startsWith('--')) ?? join(process.cwd(), '.scratch', 'bench-models', 'gpt2');
  const repeat = Number(args.find((a) => a.startsWith('--repeat='))?.slice(9) ?? 3);
  if (!existsSync(join(folder, 'config.json')) || !Number.isInteger(repeat) || repeat < 1) {
    console.error(`editor-toggles: usage: node --import tsx scripts/bench/editor-toggles.ts [GPT-2 folder] [--repeat=N]; no config.json in ${folder}`);
    process.exitCode = 2;
    return;
  }
  const answers = new RunAnswers(realEngine());
  let id = 1;
  const ask = (r: Without<RunRequest>): RunResponse & { ok: true } => {
    const { response } = answers.answer({ id: id++, ...r } as RunRequest);
    if (!response.ok) throw new Error((response as { error: string }).error);
    return response as RunResponse & { ok: true };
  };
  const text = PARAGRAPH.repeat(4);
  // The last of the 128 tokens changed: the kept beginning is reused.
  const edited = `${text.split(' ').slice(0, 100).join(' ')} end`;
  const run = (t: string, ablate?: { layer: number; head: number }[]) =>
    ask({ op: 'run', folder, text: t, maxTokens: 128, ...(ablate ? { ablate: { heads: ablate, labels: ablate.map((h) => `${h.layer + 1}.${h.head + 1}`), mode: 'zero' as const } } : {}) });
  const time = (f: () => void) => { const t0 = performance.now(); f(); return performance.now() - t0; };
  const best: Record<string, number> = {};
  const keep = (name: string, ms: number) => { best[name] = Math.min(best[name] ?? Infinity, ms); };
  const { shape } = (run(text) as { run: RunReport }).run; // the load
  const { layers, heads } = shape;
  const last = layers - 1;
  for (let k = 0; k < repeat; k++) {
    keep('a new text (nothing reused): the reference', time(() => { run(`${k} ${text}`); }));
    keep('edit (last word changed)', time(() => { run(edited); }));
    keep('the same text again', time(() => { run(text); }));
    keep('ablation toggle (head 1.1)', time(() => { run(text, [{ layer: 0, head: 0 }]); }));
    keep(`ablation toggle (head ${layers}.1)`, time(() => { run(text, [{ layer: last, head: 0 }]); }));
    keep('restore (plain run, all reused)', time(() => { run(text); }));
    keep('pass over the weights (every head)', time(() => { ask({ op: 'pass', from: 0, to: layers * heads, options: {} }); }));
    keep('norms: first read (run + pass over every head)', time(() => { ask({ op: 'pass', from: 0, to: layers * heads, options: { norms: true } }); }));
    keep('norms: a head again (kept)', time(() => { ask({ op: 'head', layer: 5, head: 3, options: { norms: true } }); ask({ op: 'valueNorms', layer: 5, head: 3 }); }));
  }
  answers.close();
  console.log(`${folder}, 128 tokens, float32, best of ${repeat} (ms):`);
  for (const [name, ms] of Object.entries(best)) console.log(`  ${name.padEnd(50)} ${ms.toFixed(1)}`);
}

try {
  main();
} catch (e) {
  // A folder that cannot run 128 tokens (a model's own refusal): its one line, no stack.
  console.error(`editor-toggles: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
