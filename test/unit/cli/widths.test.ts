// Every command's cost grows with an input's width (features, inputs, tokens, heads), so each must
// estimate it from the shapes first. Seeded specs of random widths go through attn validate,
// compute, analyze and render --view compare, in a child whose heap is capped at 2 GB: each case
// either finishes within the bound or is refused in clean lines (FILE:LINE:COL or "attn …:"), never
// a stack trace. A case that hangs or aborts is named by the last case the child began.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { between, seeded } from '../../support/random.js';
import { tempDir } from '../../support/temp-dir.js';
import { ROOT } from '../../support/paths.js';

/** Each case's bound: a command a user waits for. */
const BOUND_MS = 20_000;
const CASES = 36;

/** A whole number in [lo, hi], drawn evenly on a log scale (widths from 1 to 150,000 alike). */
const logBetween = (rand: () => number, lo: number, hi: number) => Math.round(Math.exp(Math.log(lo) + rand() * (Math.log(hi) - Math.log(lo))));

function specText(rand: () => number): { text: string; shape: string } {
  const features = logBetween(rand, 1, 150_000), inputs = logBetween(rand, 1, 256), tokens = logBetween(rand, 1, 96), heads = logBetween(rand, 1, 12);
  const dk = logBetween(rand, 1, 64);
  const words = ['cat', 'dog', 'mouse', 'keyboard'];
  const embeddings = Object.fromEntries(words.map((w, k) => [w, Array.from({ length: features }, (_, i) => ((i * 7 + k) % 5) - 2)]));
  const spec = {
    features: Array.from({ length: features }, (_, i) => `f${i}`),
    embeddings,
    inputs: Array.from({ length: inputs }, (_, i) => ({ name: `in${i}`, tokens: Array.from({ length: tokens }, (_, t) => words[(t + i) % words.length]) })),
    heads: Array.from({ length: heads }, (_, h) => ({ name: `h${h}`, wq: { init: 'xavier', shape: [features, dk] }, wk: { init: 'xavier', shape: [features, dk] }, wv: { init: 'xavier', shape: [features, dk] } })),
  };
  // A quarter of them write W_Q out with every other row a number short: d_model rows, each named.
  const ragged = rand() < 0.25;
  if (ragged) spec.heads[0] = { ...spec.heads[0], wq: Array.from({ length: features }, (_, i) => (i % 2 ? [0] : [0, 0])) } as unknown as typeof spec.heads[0];
  return { text: JSON.stringify(spec), shape: `${features} features × ${inputs} inputs × ${tokens} tokens × ${heads} heads of d_k ${dk}${ragged ? ', W_Q ragged' : ''}` };
}

const COMMANDS = [['validate'], ['compute', '--json'], ['analyze'], ['render', '--view', 'compare']] as const;

test(`${CASES} specs of random widths through validate, compute, analyze and render compare: done within ${BOUND_MS / 1000} s or refused in clean lines, under a 2 GB heap`, () => {
  const rand = seeded(3030);
  const dir = tempDir('attn-widths-');
  const cases: { argv: string[]; shape: string }[] = [];
  for (let k = 0; k < CASES; k++) {
    const { text, shape } = specText(rand);
    const file = join(dir, `w${k}.attn.json`);
    writeFileSync(file, text);
    const command = COMMANDS[between(rand, 0, COMMANDS.length - 1)];
    cases.push({ argv: [command[0], file, ...command.slice(1)], shape });
  }
  const list = join(dir, 'cases.json');
  writeFileSync(list, JSON.stringify(cases));
  const child = spawnSync(process.execPath, ['--max-old-space-size=2048', '--import', 'tsx', join(ROOT, 'test', 'support', 'widths-child.ts'), list],
    { cwd: ROOT, encoding: 'utf8', timeout: CASES * BOUND_MS, maxBuffer: 64 * 1024 * 1024 });
  const lines = child.stdout.split('\n').filter(Boolean);
  const started = lines.filter((l) => l.startsWith('start ')).length;
  const last = cases[started - 1];
  assert.ok(child.signal === null && child.status === 0,
    `the child ${child.signal ? `was killed (${child.signal})` : `exited ${child.status}`} during case ${started - 1}: attn ${last?.argv.join(' ')} (${last?.shape}): ${child.stderr.slice(0, 600)}\n${lines.slice(-8).join('\n').slice(0, 3000)}`);
  const results = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { k: number; code: number; ms: number; outBytes: number; err: string });
  assert.equal(results.length, CASES);
  const seen = { done: 0, refused: 0 };
  for (const r of results) {
    const c = cases[r.k];
    const what = `case ${r.k}: attn ${c.argv.join(' ')} (${c.shape})`;
    assert.ok(r.ms < BOUND_MS, `${what} took ${Math.round(r.ms)} ms`);
    assert.doesNotMatch(r.err, /\n\s+at |internal error|Invalid string length|heap/i, what);
    if (r.code === 0) { seen.done++; assert.ok(r.outBytes > 0, what); continue; }
    seen.refused++;
    assert.ok(r.code === 1 || r.code === 2, `${what}: exit ${r.code}`);
    for (const line of r.err.split('\n')) assert.match(line, new RegExp(`^(${c.argv[1].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(:\\d+:\\d+)?: |attn \\w+: )`), `${what}: ${line}`);
  }
  if (process.env.WIDTHS_SUMMARY) for (const r of results) console.log(r.k, cases[r.k].argv[0], cases[r.k].shape, r.code, Math.round(r.ms), r.err.split('\n')[0].slice(0, 150));
  assert.ok(seen.done > 0 && seen.refused > 0, `both kinds drawn: ${JSON.stringify(seen)}`);
});
