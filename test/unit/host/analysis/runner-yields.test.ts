// Without a worker (the web, where the runtime gives none), the runner computes on the host's thread
// between the host's own events: run() returns before anything is computed, each analysis is one
// slice, and an event that arrives while one is computed runs before the next one starts, so a queue
// of long analyses (the 64-token, 8-head example, the training view) never holds the host in one go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnalysisRunner } from '../../../../src/host/analysis/runner.js';
import { Analyst } from '../../../../src/host/analysis/analyst.js';
import type { WorkerRequest } from '../../../../src/protocol/analysis-worker.js';
import type { Progress } from '../../../../src/core/attention/attention.js';
import type { WireAnalysis } from '../../../../src/core/result/analyze-wire.js';
import { exampleText } from '../../../support/specs.js';

/** What happened on the host's thread, in order. */
const events: string[] = [];

/** The host's Analyst, noting each slice it computes and, as if a keystroke came meanwhile, queuing a host event. */
class NotingAnalyst extends Analyst {
  override answer(request: Omit<WorkerRequest, 'id'>, onProgress?: Progress): WireAnalysis {
    const name = JSON.parse(request.text).title as string;
    events.push(`computed ${name}`);
    afterThisEvent(() => events.push(`host event during ${name}`));
    return super.answer(request, onProgress);
  }
}

function afterThisEvent(f: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(f);
  else setTimeout(f, 0);
}

/** Starts a test's record with the host events an earlier test left queued run. */
async function freshEvents(): Promise<void> {
  await new Promise<void>((r) => afterThisEvent(r));
  events.length = 0;
}

const SPECS = ['long-64-tokens-8-heads.attn.json', 'learn-value.attn.json', 'learn-apple-watch.attn.json'];

test('without a worker, long analyses run one per event: the host\'s events come between them', async () => {
  await freshEvents();
  const runner = new AnalysisRunner(undefined, () => {}, new NotingAnalyst());
  const texts = SPECS.map(exampleText);
  const titles = texts.map((t) => JSON.parse(t).title as string);
  const done = texts.map((text, i) => runner.run(`doc${i}`, text));
  assert.deepEqual(events, [], 'run() computes nothing before the caller\'s event ends');
  const results = await Promise.all(done);
  for (const r of results) assert.ok(r.wire, 'each is drawn');
  await new Promise<void>((r) => afterThisEvent(r)); // the last one's host event, queued after it
  assert.deepEqual(events, titles.flatMap((t) => [`computed ${t}`, `host event during ${t}`]));
  runner.dispose();
});

test('without a worker, a newer version queued behind a long analysis replaces the older one before it is computed', async () => {
  await freshEvents();
  const runner = new AnalysisRunner(undefined, () => {}, new NotingAnalyst());
  const long = runner.run('long', exampleText(SPECS[0]));
  const older = runner.run('training', exampleText(SPECS[1]));
  const newer = runner.run('training', exampleText(SPECS[2]));
  await assert.rejects(older, /replaced by a newer version/);
  await Promise.all([long, newer]);
  const computed = events.filter((e) => e.startsWith('computed'));
  assert.equal(computed.length, 2, computed.join(', '));
  assert.equal(runner.jobs, 2, 'the replaced version was never computed');
  runner.dispose();
});

test('without a worker and with the web\'s prepare step (its tensor files read first), still one analysis per event', async () => {
  await freshEvents();
  let prepared = 0;
  const prepare = async (request: Omit<WorkerRequest, 'id'>) => { prepared++; return request; };
  const runner = new AnalysisRunner(undefined, () => {}, new NotingAnalyst(), prepare);
  const texts = SPECS.map(exampleText);
  const titles = texts.map((t) => JSON.parse(t).title as string);
  const done = texts.map((text, i) => runner.run(`doc${i}`, text));
  assert.deepEqual(events, [], 'run() computes nothing before the caller\'s event ends');
  await Promise.all(done);
  await new Promise<void>((r) => afterThisEvent(r));
  assert.equal(prepared, SPECS.length);
  assert.deepEqual(events, titles.flatMap((t) => [`computed ${t}`, `host event during ${t}`]));
  runner.dispose();
});
