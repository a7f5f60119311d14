// The model run's worker answers (src/host/checkpoint-run/run-answers.ts) with a fake engine: a run's
// attention is read where it lies, and the model reader's requests read it back exactly (every head,
// its shape and tokens), bit for bit what the same attention saved as a file and read back answers,
// with no file's bytes made on the way; an engine's refusal is one line marked as the run's error; a
// head asked for the lens comes back as the engine cut it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cancelledBy, RunAnswers } from '../../../../src/host/checkpoint-run/run-answers.js';
import { attentionOf } from '../../../../src/core/files/open.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { writeSafetensors } from '../../../../src/core/tensors/safetensors-write.js';
import type { AttentionSource } from '../../../../src/core/tensors/attention-source.js';
import { answerRead } from '../../../../src/host/model-editor/read-answer.js';
import type { Engine } from '../../../../src/host/checkpoint-run/engine.js';
import type { RunResult } from '../../../../src/core/checkpoint/types.js';
import type { RunResponse } from '../../../../src/protocol/checkpoint-run.js';
import { fakeHeadLens } from '../../../support/head-lens.js';

const L = 2, H = 3, N = 4;

function fakeRun(text: string): RunResult {
  const attention = Array.from({ length: L }, () => {
    const a = new Float32Array(H * N * N);
    for (let h = 0; h < H; h++) for (let i = 0; i < N; i++) for (let j = 0; j <= i; j++) a[h * N * N + i * N + j] = 1 / (i + 1);
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

test('a run answers its shape, tokens and next tokens; its heads, passes and lens are read from it', () => {
  const answers = new RunAnswers(engine());
  const run = ok(answers.answer({ id: 1, op: 'run', folder: '/m', text: 'The cat sat on' }).response).run as { shape: { layers: number; heads: number; tokens: number; tokenTexts: string[] }; next: unknown[] };
  assert.equal(run.shape.layers, L);
  assert.equal(run.shape.heads, H);
  assert.equal(run.shape.tokens, N);
  assert.deepEqual(run.shape.tokenTexts, ['The', ' cat', ' sat', ' on']);
  assert.deepEqual(run.next, [{ id: 9, token: ' the', p: 0.5 }]);
  const head = ok(answers.answer({ id: 2, op: 'head', layer: 1, head: 1, options: {} }).response).weights as Float32Array;
  assert.deepEqual([...head], [...fakeRun('a b c d').attention[1].subarray(N * N, 2 * N * N)]);
  const pass = ok(answers.answer({ id: 3, op: 'pass', from: 0, to: L * H, options: {} }).response).pass as { stats: unknown[] };
  assert.equal(pass.stats.length, L * H);
  const lens = ok(answers.answer({ id: 4, op: 'lens', layer: 1, head: 2 }).response).lens as { layer: number; head: number };
  assert.deepEqual([lens.layer, lens.head], [1, 2]);
});

test('an encoder\'s run answers its masked guesses and its note beside an empty "next"', () => {
  const masked = [{ position: 2, guesses: [{ id: 7, token: 'cat', p: 0.5 }] }];
  const encoder: Engine = { ...engine(), run: (_folder, text) => ({ ...fakeRun(text), next: [], masked, note: 'why' }) };
  const run = ok(new RunAnswers(encoder).answer({ id: 1, op: 'run', folder: '/m', text: 'The cat sat on' }).response).run as Record<string, unknown>;
  assert.deepEqual([run.next, run.masked, run.note], [[], masked, 'why']);
  const decoder = ok(new RunAnswers(engine()).answer({ id: 1, op: 'run', folder: '/m', text: 'The cat sat on' }).response).run as Record<string, unknown>;
  assert.ok(!('masked' in decoder) && !('note' in decoder));
});

test('a word the tokenizer spelled out is said among the run\'s notes, which the model views show with their warnings', () => {
  const spelled: Engine = { ...engine(), run: (_folder, text) => ({ ...fakeRun(text), tokens: [' ', 'q', 'u', 'x'] }) };
  const run = ok(new RunAnswers(spelled).answer({ id: 1, op: 'run', folder: '/m', text: ' qux' }).response).run as { shape: { notes?: string[] } };
  assert.equal(run.shape.notes?.length, 1);
  assert.match(run.shape.notes![0], /^"qux" is not in the model's vocabulary: the tokenizer spelled it out letter by letter/);
  const plain = ok(new RunAnswers(engine()).answer({ id: 1, op: 'run', folder: '/m', text: 'The cat sat on' }).response).run as { shape: { notes?: string[] } };
  assert.equal(plain.shape.notes, undefined);
});

test('an engine\'s refusal is an error reply marked as the run\'s (shown as it is); reads before a run say so', () => {
  const answers = new RunAnswers(engine('config.json: model_type "bert" is not one we run'));
  const r = answers.answer({ id: 1, op: 'run', folder: '/m', text: 'x' }).response;
  assert.deepEqual(r, { id: 1, ok: false, error: 'config.json: model_type "bert" is not one we run', tensorError: true });
  const read = answers.answer({ id: 2, op: 'head', layer: 0, head: 0, options: {} }).response;
  assert.equal(read.ok, false);
});

test('the run\'s attention is [layers, heads, n, n] F32 with the tokens', () => {
  const answers = new RunAnswers(engine());
  const run = ok(answers.answer({ id: 1, op: 'run', folder: '/m', text: 'The cat sat on' }).response).run as { shape: { layers: number; heads: number; tokens: number; dtype: string; tokenTexts: string[] } };
  assert.deepEqual([run.shape.layers, run.shape.heads, run.shape.tokens], [L, H, N]);
  assert.equal(run.shape.dtype, 'F32');
  assert.deepEqual(run.shape.tokenTexts, ['The', ' cat', ' sat', ' on']);
});

/** Every read request the views make of a run: the grid's passes, each head, a picture, a window, the rollout. */
function requests(layers: number, heads: number) {
  const options = {};
  return [
    { op: 'pass' as const, from: 0, to: layers * heads, options },
    { op: 'pass' as const, from: 1, to: layers * heads - 1, options: { softmax: true } },
    ...Array.from({ length: layers * heads }, (_, k) => ({ op: 'head' as const, layer: Math.floor(k / heads), head: k % heads, options })),
    { op: 'picture' as const, layer: 1, head: 2, options },
    { op: 'window' as const, layer: 1, head: 0, i0: 3, rows: 5, j0: 2, cols: 7, options },
    { op: 'rollout' as const, options },
  ];
}

test('a run\'s answers are bit for bit those of its attention saved as a file and read back: pass, head, picture, window, rollout', () => {
  const n = 12;
  const attention = Array.from({ length: L }, (_, l) => {
    const a = new Float32Array(H * n * n);
    let s = 7 + l;
    for (let r = 0; r < H * n; r++) {
      let sum = 0;
      for (let j = 0; j < n; j++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; a[r * n + j] = Math.exp(4 * s / 2 ** 32); sum += a[r * n + j]; }
      for (let j = 0; j < n; j++) a[r * n + j] /= sum;
    }
    return a;
  });
  const tokens = Array.from({ length: n }, (_, i) => ['a', ' b', ' a', ' c'][i % 4]);
  const run: RunResult = { ...fakeRun('x'), ids: tokens.map((_, i) => i), pieces: tokens, tokens, attention };
  const answers = new RunAnswers({ ...engine(), run: () => run });
  const shape = ok(answers.answer({ id: 1, op: 'run', folder: '/m', text: 'x' }).response).run as { shape: unknown };
  const file = attentionOf(memorySource('the run', writeSafetensors([{ name: 'attention', dtype: 'F32', shape: [L, H, n, n], data: attention }], { tokens: JSON.stringify(tokens) })));
  assert.deepEqual(shape.shape, { file: 'the run', dtype: 'F32', layers: L, heads: H, tokens: n, tokenTexts: tokens, thumb: n });
  const bits = (x: unknown): unknown => (ArrayBuffer.isView(x) ? Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString('hex')
    : Array.isArray(x) ? x.map(bits) : x && typeof x === 'object' ? Object.fromEntries(Object.entries(x).filter(([k]) => k !== 'ms').map(([k, v]) => [k, bits(v)])) : x);
  for (const [k, r] of requests(L, H).entries()) {
    const fromRun = ok(answers.answer({ id: 10 + k, ...r }).response);
    const fromFile = answerRead(file, { id: 10 + k, ...r }).response;
    assert.deepEqual(bits(fromRun), bits(fromFile), r.op);
  }
});

test('a run makes no file: every head\'s rows read are views of the run\'s own layers, no buffer the size of its attention', () => {
  const run = fakeRun('The cat sat on');
  /** Every row block the held attention handed out, with the head it is of. */
  const handed: { layer: number; head: number; first: number; bytes: Uint8Array }[] = [];
  const made: number[] = [];
  const original = globalThis.Uint8Array;
  const size = L * H * N * N * 4;
  // Every Uint8Array made while the run is kept and read: none holds the attention's bytes (a file would be more).
  globalThis.Uint8Array = new Proxy(original, { construct(target, args) { const a = Reflect.construct(target, args) as Uint8Array; if (a.buffer.byteLength >= size) made.push(a.buffer.byteLength); return a; } });
  try {
    const answers = new RunAnswers({ ...engine(), run: () => run });
    ok(answers.answer({ id: 1, op: 'run', folder: '/m', text: 'x' }).response);
    const held = (answers as unknown as { attention: AttentionSource }).attention;
    const rowBytes = held.rowBytes.bind(held);
    held.rowBytes = (layer, head, first, rows) => {
      const bytes = rowBytes(layer, head, first, rows);
      handed.push({ layer, head, first, bytes });
      return bytes;
    };
    ok(answers.answer({ id: 2, op: 'pass', from: 0, to: L * H, options: {} }).response);
    for (let k = 0; k < L * H; k++) {
      const [layer, head] = [Math.floor(k / H), k % H];
      const weights = ok(answers.answer({ id: 3 + k, op: 'head', layer, head, options: {} }).response).weights as Float32Array;
      assert.deepEqual([...weights], [...run.attention[layer].subarray(head * N * N, (head + 1) * N * N)]);
    }
  } finally {
    globalThis.Uint8Array = original;
  }
  assert.deepEqual(made, [], 'no buffer the size of the attention was made');
  const heads = new Set(handed.map((r) => r.layer * H + r.head));
  assert.equal(heads.size, L * H, 'every head\'s rows were read');
  for (const r of handed) {
    const layer = run.attention[r.layer];
    assert.equal(r.bytes.buffer, layer.buffer, `layer ${r.layer} head ${r.head}: a view of the run's own layer`);
    assert.equal(r.bytes.byteOffset, layer.byteOffset + (r.head * N * N + r.first * N) * 4, `layer ${r.layer} head ${r.head}: at its own rows`);
  }
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
  const answers = new RunAnswers(stopping, cancelledBy(flag));
  Atomics.store(flag, 0, 1);
  assert.deepEqual(answers.answer({ id: 1, op: 'run', folder: '/m', text: 'The cat sat on' }).response, { id: 1, ok: false, cancelled: true, error: 'cancelled', tensorError: false });
  assert.deepEqual(asked, [0]);
  const next = ok(answers.answer({ id: 2, op: 'run', folder: '/m', text: 'The cat sat on' }).response).run as { shape: { tokens: number } };
  assert.equal(next.shape.tokens, N);
});

test('a run request\'s precision reaches the engine (float32 when it names none), and the run says it', () => {
  const asked: unknown[] = [];
  const precise: Engine = { ...engine(), run: (_folder, text, _max, _stopped, precision) => { asked.push(precision); return { ...fakeRun(text), model: { ...fakeRun(text).model, precision: precision ?? 'f32' } }; } };
  const answers = new RunAnswers(precise);
  const f64 = ok(answers.answer({ id: 1, op: 'run', folder: '/m', text: 'The cat sat on', precision: 'f64' }).response).run as { model: { precision: string } };
  const plain = ok(answers.answer({ id: 2, op: 'run', folder: '/m', text: 'The cat sat on' }).response).run as { model: { precision: string } };
  assert.deepEqual([asked, f64.model.precision, plain.model.precision], [['f64', undefined], 'f64', 'f32']);
});

test('a run asked for more passes the request to the engine and reports its attribution, patching and generated tokens', () => {
  const asked: unknown[] = [];
  const attribution = { target: 7, contrast: 9, heads: [[0.5, -0.25, 0], [1, 0, 0]], attentionBias: [0, 0], mlps: [0.1, 0.2], embed: 0.3, normBias: 0, total: 1.85 };
  const analysing: Engine = {
    ...engine(),
    run: (_folder, text, _max, _stopped, _precision, analysis) => {
      asked.push(analysis);
      return { ...fakeRun(text), analyses: { attribution, patching: [[1, 0, 0], [0, 0, 0]], generated: [{ id: 4, token: ' on' }] } };
    },
  };
  const answers = new RunAnswers(analysing);
  const request = { target: ' sat', contrast: '9', patchFrom: 'A dog sat on', generate: 1 };
  const run = ok(answers.answer({ id: 1, op: 'run', folder: '/m', text: 'The cat sat on', analysis: request }).response).run as Record<string, unknown>;
  assert.deepEqual(asked, [request]);
  assert.deepEqual(run.attribution, attribution);
  assert.deepEqual(run.patching, [[1, 0, 0], [0, 0, 0]]);
  assert.deepEqual(run.generated, [{ id: 4, token: ' on' }]);
  // A run asked for nothing more reports none of them.
  const plain = ok(new RunAnswers(engine()).answer({ id: 2, op: 'run', folder: '/m', text: 'The cat sat on' }).response).run as Record<string, unknown>;
  assert.deepEqual([plain.attribution, plain.patching, plain.generated], [undefined, undefined, undefined]);
});

test('the logit lens is the engine\'s, asked after a run; a runner without one says so', () => {
  const lens = [[[{ id: 1, token: 'a', p: 1 }]]];
  let asks = 0;
  const answers = new RunAnswers({ ...engine(), logitLens: () => { asks++; return lens; } });
  assert.match((answers.answer({ id: 1, op: 'logitLens' }).response as { error: string }).error, /no run yet/);
  answers.answer({ id: 2, op: 'run', folder: '/m', text: 'The cat sat on' });
  assert.deepEqual(ok(answers.answer({ id: 3, op: 'logitLens' }).response).logitLens, lens);
  assert.equal(asks, 1);
  const bare = new RunAnswers(engine());
  bare.answer({ id: 1, op: 'run', folder: '/m', text: 'The cat sat on' });
  assert.match((bare.answer({ id: 2, op: 'logitLens' }).response as { error: string }).error, /no logit lens/);
});

test('a step narrows what the views read to the run\'s first tokens; the next run shows all of its own', () => {
  const answers = new RunAnswers(engine());
  answers.answer({ id: 1, op: 'run', folder: '/m', text: 'The cat sat on' });
  const shape = ok(answers.answer({ id: 2, op: 'step', tokens: 2 }).response).shape as { tokens: number; tokenTexts: string[] };
  assert.equal(shape.tokens, 2);
  assert.deepEqual(shape.tokenTexts, ['The', ' cat']);
  const head = ok(answers.answer({ id: 3, op: 'head', layer: 0, head: 0, options: {} }).response).weights as Float32Array;
  assert.deepEqual([...head], [1, 0, 0.5, 0.5]);
  // Back to the whole run, and a new run is read whole.
  assert.equal((ok(answers.answer({ id: 4, op: 'step', tokens: N }).response).shape as { tokens: number }).tokens, N);
  answers.answer({ id: 5, op: 'step', tokens: 1 });
  const again = ok(answers.answer({ id: 6, op: 'run', folder: '/m', text: 'The cat sat on' }).response).run as { shape: { tokens: number } };
  assert.equal(again.shape.tokens, N);
  assert.match((answers.answer({ id: 7, op: 'step', tokens: 9 }).response as { error: string }).error, /outside/);
});
