// The forward pass reusing the last run's keys and values (src/core/checkpoint/forward.ts, through
// runText on a kept model): for random tiny checkpoints of gpt2, llama (grouped-query, RoPE) and
// qwen2, a run after another gives BIT FOR BIT the attention, the logits' next tokens and their p of a
// fresh run over the same ids, whether the text shares a prefix with the last one, shares none, is a
// strict prefix of it, or is longer; and says how many positions it reused. Bit for bit because each
// position's numbers are computed by the same operations in the same order either way (every product
// sums a cell's terms in order from +0 whatever the number of rows; norms and softmax work per row;
// positions are absolute), so anything short of equality is a bug, not rounding. Both on the
// WebAssembly kernel and on the plain JavaScript products.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { useWasmKernel } from '../../../../src/core/kernels/gemm.js';
import { forward, sharedPrefix } from '../../../../src/core/checkpoint/forward.js';
import { loadModel, runBytes, runText } from '../../../../src/core/checkpoint/model.js';
import type { RunResult } from '../../../../src/core/checkpoint/types.js';
import type { Tokenizer } from '../../../../src/core/tokenizer/tokenizer.js';
import { GPT2_CONFIG, QWEN2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

after(() => useWasmKernel(true));

const LLAMA_CONFIG = { ...QWEN2_CONFIG, model_type: 'llama', num_attention_heads: 6, num_key_value_heads: 2, head_dim: 4, rope_theta: 500 };

/** One id per character (its code modulo the vocabulary). */
const chars: Tokenizer = {
  vocabSize: 40,
  encode: (text) => ({ ids: [...text].map((ch) => ch.charCodeAt(0) % 40), pieces: [...text] }),
  decodeOne: (id) => `t${id}`,
};

const bytesOf = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

function assertSameRun(got: RunResult, fresh: RunResult, what: string): void {
  assert.deepEqual(got.ids, fresh.ids, what);
  assert.equal(got.attention.length, fresh.attention.length);
  got.attention.forEach((layer, l) => assert.ok(bytesOf(layer).equals(bytesOf(fresh.attention[l])), `${what}: layer ${l}'s attention differs from a fresh run's`));
  assert.deepEqual(got.next.map((t) => [t.id, t.p]), fresh.next.map((t) => [t.id, t.p]), `${what}: next tokens`);
}

// Each text after the one before it: [text, positions the run may reuse from the previous one].
const SEQUENCE: [string, number][] = [
  ['The cat sat on the mat', 0], // nothing kept yet
  ['The cat sat on a hat', 15], // shares "The cat sat on "
  ['The cat sat on a hat.', 20], // one more character: only the last position computed
  ['A dog', 0], // shares nothing
  ['A dog ran far', 5], // longer
  ['A do', 3], // a strict prefix: the last position is computed again (its logits are not kept)
  ['A do', 3], // the same text again
];

for (const [name, config] of [['gpt2', GPT2_CONFIG], ['llama', LLAMA_CONFIG], ['qwen2', QWEN2_CONFIG]] as const) {
  for (const wasm of [true, false]) {
    test(`${name} (${wasm ? 'WebAssembly kernel' : 'JavaScript products'}): a run reusing the last run's prefix equals a fresh run bit for bit`, () => {
      useWasmKernel(wasm);
      const { configText, tensors } = tinyCheckpoint(config, 3);
      const kept = loadModel(configText, tensors, { precision: 'f64', keep: true });
      for (const [text, reused] of SEQUENCE) {
        const got = runText(kept, chars, text);
        assert.equal(got.reused, reused, `${JSON.stringify(text)}: positions reused`);
        // A fresh model each time: nothing kept, every position computed.
        const fresh = runText(loadModel(configText, tensors, { precision: 'f64' }), chars, text);
        assert.equal(fresh.reused, 0);
        assertSameRun(got, fresh, JSON.stringify(text));
      }
    });
  }
}

test('a run stopped part way (onLayer throws) leaves the kept run as it was, and the next run still equals a fresh one', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG, 4);
  const kept = loadModel(configText, tensors, { precision: 'f64', keep: true });
  runText(kept, chars, 'The cat sat');
  const before = kept.kept;
  assert.throws(() => runText(kept, chars, 'The cat sat on', { onLayer: (l) => { if (l === 0) throw new Error('stopped'); } }), /stopped/);
  assert.equal(kept.kept, before);
  const got = runText(kept, chars, 'The cat sat down');
  assert.equal(got.reused, 11);
  assertSameRun(got, runText(loadModel(configText, tensors, { precision: 'f64' }), chars, 'The cat sat down'), 'after a stopped run');
});

test('a kept model decodes each weight once over many runs; its budget counts the kept keys and values', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG, 5);
  const kept = loadModel(configText, tensors, { precision: 'f64', keep: true });
  runText(kept, chars, 'The cat');
  const decoded = kept.weights.decoded;
  assert.ok(decoded > 0);
  runText(kept, chars, 'A dog ran');
  runText(kept, chars, 'The cat sat');
  assert.equal(kept.weights.decoded, decoded);
  const single = loadModel(configText, tensors, { precision: 'f64' });
  runText(single, chars, 'The cat');
  runText(single, chars, 'A dog');
  assert.ok(single.weights.decoded >= 2 * decoded, 'a model not kept decodes on every run');
  assert.ok(runBytes(kept, 30) > runBytes(single, 30));
});

test('a model not kept reads its position table once a run, not once a token: the decodes of a run do not grow with its length', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG, 5);
  const decodesOf = (text: string) => {
    const single = loadModel(configText, tensors, { precision: 'f64' });
    runText(single, chars, text);
    return single.weights.decoded;
  };
  const short = decodesOf('The cat'), long = decodesOf('The cat sat on the mat. A dog');
  assert.ok(short > 0);
  assert.equal(long, short, `${long} decodes for 29 tokens against ${short} for 7`);
});

test('sharedPrefix, and a pass with capture (the lens) computes every position whatever it is offered', () => {
  assert.equal(sharedPrefix([1, 2, 3], [1, 2, 4, 5]), 2);
  assert.equal(sharedPrefix([1, 2], [1, 2, 3]), 2);
  assert.equal(sharedPrefix([], [1]), 0);
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG, 6);
  const m = loadModel(configText, tensors, { precision: 'f64', keep: true });
  const first = forward(m.config, m.names, m.weights, [1, 2, 3, 4], { precision: 'f64', keep: true });
  const lens = forward(m.config, m.names, m.weights, [1, 2, 3, 5], { precision: 'f64', reuse: first.kept!, capture: { layer: 1 } });
  assert.equal(lens.reused, 0);
  assert.equal(lens.captured!.residual.length, 4 * m.config.dModel);
});
