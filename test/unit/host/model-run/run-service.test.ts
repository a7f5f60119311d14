// The model run's worker service (src/host/model-run/run-service.ts) with a fake engine: a run's
// attention becomes an attention file in memory that the model reader's requests read back exactly
// (every head, its shape and tokens); an engine's refusal is one line marked as the run's error; a
// head asked for the lens comes back as the engine cut it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cancelledBy, RunService, runAttentionBytes } from '../../../../src/host/model-run/run-service.js';
import type { Engine } from '../../../../src/host/model-run/engine.js';
import type { RunResult } from '../../../../src/core/transformer/types.js';
import type { RunResponse } from '../../../../src/protocol/model-run.js';
import { fakeHeadLens } from '../../../support/head-lens.js';

const L = 2, H = 3, N = 4;

function fakeRun(text: string): RunResult {
  const attention = Array.from({ length: L }, (_, l) => {
    const a = new Float32Array(H * N * N);
    for (let h = 0; h < H; h++) for (let i = 0; i < N; i++) for (let j = 0; j <= i; j++) a[h * N * N + i * N + j] = 1 / (i + 1) + (l * H + h) * 0 + (j === i ? 0 : 0);
    return a;
  });
  attention[1][N * N + 3 * N] = 0.25; // one different weight, in layer 2 head 2
  return {
    model: { type: 'gpt2', layers: L, heads: H, kvHeads: H, dModel: 8, headDim: 4, vocab: 50, contextLength: 16 },
    ids: [1, 2, 3, 4], pieces: ['The', 'Ġcat', 'Ġsat', 'Ġon'], tokens: text.split(/(?= )/).slice(0, N),
    attention, next: [{ id: 9, token: ' the', p: 0.5 }], timings: { loadMs: 1, tokenizeMs: 1, forwardMs: 2 },
  };
}

const engine = (fail?: string): Engine => ({
  run: (_folder, text) => { if (fail) throw Object.assign(new Error(fail), { name: 'ModelError' }); return fakeRun(text); },
  lens: (layer, head) => ({ ...fakeHeadLens({ n: N, dModel: 8, headDim: 4, rotary: false, biases: true }), layer, head }),
  close: () => {},
});

const ok = (r: RunResponse) => { assert.ok(r.ok, JSON.stringify(r)); return r as Extract<RunResponse, { ok: true }> & Record<string, unknown>; };

test('a run becomes an attention file whose heads read back exactly, with the tokens', () => {
  const service = new RunService(engine());
  const run = ok(service.answer({ id: 1, op: 'run', folder: '/m', text: 'The cat sat on' }).response).run as { shape: { layers: number; heads: number; tokens: number; tokenTexts: string[] }; next: unknown[] };
  assert.equal(run.shape.layers, L);
  assert.equal(run.shape.heads, H);
  assert.equal(run.shape.tokens, N);
  assert.deepEqual(run.shape.tokenTexts, ['The', ' cat', ' sat', ' on']);
  assert.deepEqual(run.next, [{ id: 9, token: ' the', p: 0.5 }]);
  const head = ok(service.answer({ id: 2, op: 'head', layer: 1, head: 1, options: {} }).response).weights as Float32Array;
  assert.deepEqual([...head], [...fakeRun('a b c d').attention[1].subarray(N * N, 2 * N * N)]);
  const pass = ok(service.answer({ id: 3, op: 'pass', from: 0, to: L * H, options: {} }).response).pass as { stats: unknown[] };
  assert.equal(pass.stats.length, L * H);
  const lens = ok(service.answer({ id: 4, op: 'lens', layer: 1, head: 2 }).response).lens as { layer: number; head: number };
  assert.deepEqual([lens.layer, lens.head], [1, 2]);
});

test('an engine\'s refusal is an error reply marked as the run\'s (shown as it is); reads before a run say so', () => {
  const service = new RunService(engine('config.json: model_type "bert" is not one we run'));
  const r = service.answer({ id: 1, op: 'run', folder: '/m', text: 'x' }).response;
  assert.deepEqual(r, { id: 1, ok: false, error: 'config.json: model_type "bert" is not one we run', tensorError: true });
  const read = service.answer({ id: 2, op: 'head', layer: 0, head: 0, options: {} }).response;
  assert.equal(read.ok, false);
});

test('the run\'s attention file is [layers, heads, n, n] F32 with the tokens in __metadata__', () => {
  const bytes = runAttentionBytes(fakeRun('The cat sat on'));
  const size = new DataView(bytes.buffer).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + size)));
  assert.deepEqual(header.attention.shape, [L, H, N, N]);
  assert.equal(header.attention.dtype, 'F32');
  assert.deepEqual(JSON.parse(header.__metadata__.tokens), ['The', ' cat', ' sat', ' on']);
});

test('a run the cancel flag names answers \'cancelled\' (asked between layers); a later run goes on', () => {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const asked: number[] = [];
  const stopping: Engine = {
    ...engine(),
    run: (_folder, text, _max, stopped) => {
      for (let layer = 0; layer < 3; layer++) {
        asked.push(layer);
        if (stopped?.()) throw Object.assign(new Error('the run was stopped'), { name: 'RunStopped' });
      }
      return fakeRun(text);
    },
  };
  const service = new RunService(stopping, cancelledBy(flag));
  Atomics.store(flag, 0, 1);
  assert.deepEqual(service.answer({ id: 1, op: 'run', folder: '/m', text: 'The cat sat on' }).response, { id: 1, ok: false, cancelled: true, error: 'cancelled', tensorError: false });
  assert.deepEqual(asked, [0]);
  const next = ok(service.answer({ id: 2, op: 'run', folder: '/m', text: 'The cat sat on' }).response).run as { shape: { tokens: number } };
  assert.equal(next.shape.tokens, N);
});
