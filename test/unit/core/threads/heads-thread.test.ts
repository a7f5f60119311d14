// The two-thread compute (src/core/threads/heads-thread.ts) gives exactly what one thread gives: every
// intermediate of every head to the bit, the identity heads' Q, K, V as the embeddings themselves, the
// same mask object, and the warnings in the same order; and it declines work too small to hand over,
// or with no worker script where its entry point said.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { computeAttention, type AttentionResult } from '../../../../src/core/attention/attention.js';
import { HeadsThread, headsThread } from '../../../../src/core/threads/heads-thread.js';
import { zeros } from '../../../../src/core/linalg/matrix.js';
import type { HeadSpec, Spec } from '../../../../src/core/spec/spec.js';
import { lcgMatrix } from '../../../support/random.js';
import { sourceHeadsThread } from '../../../support/heads-thread.js';
import { tempDir } from '../../../support/temp-dir.js';

const random = lcgMatrix;

const n = 384, dModel = 128;
const x = random(n, dModel, 1);
const weight = (cols: number, seed: number) => ({ matrix: random(dModel, cols, seed), identity: false });
const identity = () => {
  const m = zeros(dModel, dModel);
  for (let i = 0; i < dModel; i++) m.data[i * dModel + i] = 1;
  return { matrix: m, identity: true };
};
// Five heads: the helper takes the last two, the identity head among them.
const heads: HeadSpec[] = [
  { name: 'a', wq: weight(16, 2), wk: weight(16, 3), wv: weight(8, 4) },
  { name: 'b', wq: weight(4, 5), wk: weight(4, 6), wv: weight(12, 7) },
  { name: 'c', wq: weight(32, 8), wk: weight(32, 9), wv: weight(32, 10) },
  { name: 'd', wq: weight(16, 11), wk: weight(16, 12), wv: weight(16, 13) },
  { name: 'raw', wq: identity(), wk: identity(), wv: identity() },
];
// Query 3 sees no key: a warning in every head, five in head order.
const mask = Array.from({ length: n }, (_, i) => Array.from({ length: n }, () => i !== 3));

function spec(tokens = n, woCols = 10): Spec {
  return {
    dModel, features: Array.from({ length: dModel }, (_, i) => `d${i}`), featuresGiven: false, embeddings: new Map(),
    inputs: [{ name: 'long', mask: mask.slice(0, tokens).map((r) => r.slice(0, tokens)), tokens: Array.from({ length: tokens }, (_, i) => ({ text: `t${i}`, embedding: x.data.slice(i * dModel, (i + 1) * dModel), inline: true })) }],
    heads, headsGiven: true, wo: { matrix: random(8 + 12 + 32 + 16 + dModel, woCols, 14), identity: false },
    scale: { kind: 'sqrt_dk' }, mask: 'causal', views: {},
  };
}

const thread = sourceHeadsThread();
after(async () => {
  await thread.close();
});

function sameBits(actual: AttentionResult, expected: AttentionResult): void {
  const input = actual.inputs[0], want = expected.inputs[0];
  assert.equal(input.heads.length, want.heads.length);
  input.heads.forEach((h, i) => {
    const w = want.heads[i];
    assert.equal(h.name, w.name);
    assert.equal(h.divisor, w.divisor);
    for (const key of ['q', 'k', 'v', 'scores', 'scaled', 'weights', 'output'] as const) {
      assert.deepEqual(h[key].data, w[key].data, `head ${h.name} ${key}`);
      assert.equal(h[key].rows, w[key].rows);
      assert.equal(h[key].cols, w[key].cols);
    }
    // The value-weighted norms (the spec has W_O), made after the heads come back: the same bits.
    assert.ok(h.valueNorms && h.norms && w.valueNorms && w.norms, `head ${h.name} has norms`);
    assert.deepEqual(h.valueNorms.data, w.valueNorms.data, `head ${h.name} valueNorms`);
    assert.deepEqual(h.norms.data, w.norms.data, `head ${h.name} norms`);
    assert.equal(h.masked, input.heads[0].masked, 'one mask object for every head');
  });
  assert.deepEqual(input.concat.data, want.concat.data);
  assert.deepEqual(input.output.data, want.output.data);
  assert.deepEqual(actual.warnings, expected.warnings);
}

test('two threads give every intermediate of every head, and the warnings, exactly as one thread does', () => {
  const alone = computeAttention(spec());
  const progress: number[] = [];
  const helped = computeAttention(spec(), { helper: thread, onProgress: (done, total) => progress.push(done, total) });
  assert.ok(thread.handedOver() >= 1, 'the later heads went to the worker');
  sameBits(helped, alone);
  assert.deepEqual(progress, [1, 5, 2, 5, 3, 5, 4, 5, 5, 5]);
  assert.equal(helped.warnings.length, 5);
  assert.deepEqual(helped.warnings.map((w) => w.head), [0, 1, 2, 3, 4]);
  // The identity head's projections are the embeddings themselves, as on one thread.
  assert.equal(helped.inputs[0].heads[4].q, helped.inputs[0].x);
  assert.equal(helped.inputs[0].heads[4].v, helped.inputs[0].x);
  // And again, on the worker already running.
  sameBits(computeAttention(spec(), { helper: thread }), alone);
});

test('a wide W_O: the later rows of concat · W_O are computed on the worker, to the bit', () => {
  // 192 rows × 196 × 1,500: over the hand-over's threshold.
  const alone = computeAttention(spec(n, 1500));
  const before = thread.handedOver();
  const helped = computeAttention(spec(n, 1500), { helper: thread });
  assert.equal(thread.handedOver() - before, 2, 'the later heads and the later rows of the output');
  sameBits(helped, alone);
  assert.equal(helped.inputs[0].output.cols, 1500);
});

test('too little work stays on the calling thread', () => {
  const before = thread.handedOver();
  const small = computeAttention(spec(4), { helper: thread });
  assert.equal(thread.handedOver(), before);
  sameBits(small, computeAttention(spec(4)));
});

test('a worker script that is not there: nothing handed over, the same bits on one thread', async () => {
  const missing = new HeadsThread(join(tempDir('heads-'), 'heads-worker.js'));
  const alone = computeAttention(spec());
  sameBits(computeAttention(spec(), { helper: missing }), alone);
  assert.equal(missing.handedOver(), 0);
  await missing.close();
});

test('ATTN_THREADS=1 gives an entry point no helper; otherwise one on the script it names', async () => {
  const before = process.env.ATTN_THREADS;
  try {
    process.env.ATTN_THREADS = '1';
    assert.equal(headsThread('dist/heads-worker.js'), undefined);
    delete process.env.ATTN_THREADS;
    const helper = headsThread('dist/heads-worker.js');
    assert.ok(helper instanceof HeadsThread);
    await helper.close();
  } finally {
    if (before === undefined) delete process.env.ATTN_THREADS;
    else process.env.ATTN_THREADS = before;
  }
});
