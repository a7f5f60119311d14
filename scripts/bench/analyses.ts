// bench:model's analyses: each of `attn run`'s analyses beyond the pattern (--norms, --logit-lens,
// --target, --ablate, --patch-from over every head, --generate) on one model and text, beside a plain
// run of the same in the same bench: the forward's time (which includes the analysis) and the whole
// run's, best of `repeats`, with their ratios to the plain run's and the goals the analyses are held to.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attnRun } from './runs.js';

interface Case { label: string; flags: string[]; goal?: (plainMs: number, layerHeads: number) => number; goalText?: string }

/** The cases on a model of `layers` × `heads` (GPT-2 ids 262 " the" and 290 " and" as target and contrast). */
function cases(layers: number, heads: number, corruptedFile: string): Case[] {
  const patchRuns = layers * heads + 2;
  return [
    { label: 'plain run', flags: [] },
    { label: '--norms', flags: ['--norms'], goal: (p) => 1.3 * p, goalText: '≤ 1.3 × plain' },
    { label: '--logit-lens', flags: ['--logit-lens'], goal: (p) => 1.3 * p, goalText: '≤ 1.3 × plain' },
    { label: '--target --contrast', flags: ['--target', '262', '--contrast', '290'], goal: (p) => 1.1 * p, goalText: '≤ 1.1 × plain' },
    { label: '--ablate 5.1', flags: ['--ablate', '5.1', '--target', '262'] },
    { label: '--ablate 1.1 --ablation mean', flags: ['--ablate', '1.1', '--ablation', 'mean'] },
    { label: `--patch-from (${layers * heads} heads)`, flags: ['--target', '262', '--contrast', '290', '--patch-from', corruptedFile], goal: (p) => patchRuns * p, goalText: `≤ ${patchRuns} × plain` },
    { label: '--generate 16', flags: ['--generate', '16'] },
  ];
}

export function benchAnalyses(dir: string, text: string, scratch: string, n: number, layers: number, heads: number, cli: string, repeats = 3): string[] {
  const textFile = join(scratch, 'analyses-text.txt');
  writeFileSync(textFile, text);
  // The corrupted text: the same words but the first (the same count of tokens once cut to n).
  const corrupted = text.replace(/^\S+/, 'A');
  const lines = [`analyses on ${dir} at ${n} tokens (forward includes the analysis; best of ${repeats}):`, '  case                          forward ms   × plain   whole ms   × plain   peak MB   goal'];
  // Round after round over every case (not each case's repeats together), so a busy spell of the
  // machine falls on every case alike; each case's best.
  const all = cases(layers, heads, corrupted);
  const best = new Map<Case, { forwardMs: number; wallMs: number; peakMB: number }>(), refused = new Map<Case, string>();
  for (let r = 0; r < repeats; r++) {
    for (const c of all) {
      if (refused.has(c)) continue;
      const o = attnRun(dir, textFile, n, 'f32', undefined, cli, c.flags);
      if ('refused' in o) { refused.set(c, String(o.refused)); continue; }
      const was = best.get(c);
      if (!was || o.forwardMs < was.forwardMs) best.set(c, { forwardMs: o.forwardMs, wallMs: o.wallMs, peakMB: o.peakMB });
    }
  }
  const plain = best.get(all[0]) ?? { forwardMs: NaN, wallMs: NaN, peakMB: NaN };
  for (const c of all) {
    const b = best.get(c);
    if (!b) { lines.push(`  ${c.label.padEnd(30)}refused: ${refused.get(c)}`); continue; }
    const goal = c.goal ? `${c.goalText} ${b.forwardMs <= c.goal(plain.forwardMs, layers * heads) ? '✓' : '✗'}` : '';
    lines.push(`  ${c.label.padEnd(30)}${String(b.forwardMs).padStart(10)}   ${(b.forwardMs / plain.forwardMs).toFixed(2).padStart(7)}   ${b.wallMs.toFixed(0).padStart(8)}   ${(b.wallMs / plain.wallMs).toFixed(2).padStart(7)}   ${b.peakMB.toFixed(0).padStart(7)}   ${goal}`);
  }
  return lines;
}
