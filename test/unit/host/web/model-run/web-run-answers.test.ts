// The web's run answers (the run worker's and the host thread's): files that come anew for the same
// folder (the model's files changed) replace the loaded model, never run beside the old one; a run
// over the web's budget says whose budget it is; the host's thread runs only a small model on few
// tokens; and every request a run worker failed to start for is asked again on the thread.
import '../../../../support/vscode/register.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEB_RUN_BYTES, WebRunAnswers } from '../../../../../src/host/web/model-run/web-run-answers.js';
import { THREAD_RUN_LIMITS } from '../../../../../src/host/web/model-run/thread-lane.js';
import { FallbackRunLane } from '../../../../../src/host/web/model-run/run-lanes.js';
import type { RunLane } from '../../../../../src/host/checkpoint-run/client.js';
import { WorkerStartError } from '../../../../../src/host/workers/start-error.js';
import type { RunRequest, RunResponse } from '../../../../../src/protocol/checkpoint-run.js';
import { ROOT } from '../../../../support/paths.js';

const EXAMPLE = join(ROOT, 'examples', 'models', 'induction-gpt2');
const FOLDER = 'file:///ws/models/induction-gpt2';
const TEXT = 'The cat sat on the mat. The cat';
const file = (name: string) => new Uint8Array(readFileSync(join(EXAMPLE, name)));
const example = () => ({ 'config.json': file('config.json'), 'model.safetensors': file('model.safetensors'), 'tokenizer.json': file('tokenizer.json') });

type Answer = RunResponse & { error?: string; run?: { next: { token: string }[]; ids: number[] } };
const run = (answers: WebRunAnswers, id: number, extra: Partial<Extract<RunRequest, { op: 'run' }>> = {}) =>
  answers.answer({ id, op: 'run', folder: FOLDER, text: TEXT, ...extra } as RunRequest).response as Answer;

test('files that come anew for the same folder replace the loaded model', () => {
  const answers = new WebRunAnswers(new Int32Array(1));
  assert.equal(run(answers, 1, { files: example() }).run?.next[0].token, ' sat');
  const broken = { ...example(), 'config.json': new TextEncoder().encode('{ broken') };
  const again = run(answers, 2, { files: broken });
  assert.equal(again.ok, false, 'the new files are the ones run');
  assert.match(again.error ?? '', /config\.json/);
  assert.equal(run(answers, 3, { files: example() }).run?.next[0].token, ' sat');
});

test('a run over the web\'s budget says it is VS Code for the Web\'s budget', () => {
  assert.equal(WEB_RUN_BYTES, 2 ** 30);
  const answers = new WebRunAnswers(new Int32Array(1), { budget: 64 * 1024 });
  const refused = run(answers, 1, { files: example() });
  assert.equal(refused.ok, false);
  assert.match(refused.error ?? '', /over the budget of .*\(the 0\.1 MiB VS Code for the Web gives a model run, weights included; VS Code on the desktop gives more\)$/);
});

test('the host\'s thread runs a small model only, on few tokens', () => {
  assert.equal(THREAD_RUN_LIMITS.files?.most, 32 * 2 ** 20);
  const small = new WebRunAnswers(new Int32Array(1), { files: { most: 100_000, why: 'here' } });
  const refused = run(small, 1, { files: example() });
  assert.equal(refused.ok, false);
  assert.match(refused.error ?? '', /^file:\/\/\/ws\/models\/induction-gpt2: the model's files are 0\.\d MiB, over the 0\.1 MiB run here$/);
  const few = new WebRunAnswers(new Int32Array(1), { tokens: 4 });
  const cut = run(few, 1, { files: example() }).run as { ids: number[]; note?: string } | undefined;
  assert.equal(cut?.ids.length, 4);
  assert.equal(cut?.note, 'VS Code for the Web ran the first 4 tokens only: without a Web Worker the run is on the extension host\'s own thread');
  const lower = run(few, 2, { maxTokens: 2 }).run as { ids: number[]; note?: string } | undefined;
  assert.equal(lower?.ids.length, 2, 'a lower maxTokens stays');
  assert.equal(lower?.note, undefined);
});

test('every request waiting when the run worker fails to start is asked again on the thread', async () => {
  let fail!: () => void;
  const failed = new Promise<void>((resolve) => { fail = resolve; });
  const worker: RunLane<unknown> = {
    started: 0, alive: false, fail: () => false, dispose: () => {},
    ask: async () => { await failed; throw new WorkerStartError('the run worker could not start: script blocked'); },
  };
  const lane = new FallbackRunLane<unknown>(worker, {}, () => {});
  try {
    const first = lane.ask({ op: 'run', folder: FOLDER, text: TEXT, files: example() });
    const second = lane.ask({ op: 'run', folder: FOLDER, text: 'A dog ran. A dog' });
    fail();
    assert.equal((await first as Answer).run?.next[0].token, ' sat');
    assert.equal((await second as Answer).run?.next[0].token, ' ran');
  } finally {
    lane.dispose();
  }
});
