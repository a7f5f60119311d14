// The analysis cache (src/host/analysis/cache.ts): one analysis per document version, whichever
// consumers ask for it (the diagnostics, a panel, a second panel, a hover, the linear-algebra views):
// counted with a runner that computes in place and an Analyst that counts the specs it reads and
// computes, and with the real worker (jobs counted by the runner). A new version costs one more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, posix, win32 } from 'node:path';
import { AnalysisCache, parentFolder, type AnalysedDocument } from '../../../../src/host/analysis/cache.js';
import { AnalysisRunner, Cancelled } from '../../../../src/host/analysis/runner.js';
import { WorkerService } from '../../../../src/host/workers/service.js';
import { Analyst } from '../../../../src/host/analysis/analyst.js';
import { analyze } from '../../../../src/core/index.js';
import { exampleText } from '../../../support/specs.js';
import { ROOT } from '../../../support/paths.js';

const WORKER = join(ROOT, 'dist', 'analysis-worker.js');
const TEXT = exampleText('spectrum-stretch-shear-rotate.attn.json');

/** A document as the cache reads it: an unsaved one (no folder), its URI, version and text. */
function document(version: number, text: string, uri = 'untitled:Untitled-1.attn.json'): AnalysedDocument {
  const fake = { scheme: 'untitled', fsPath: '', toString: () => uri };
  return { uri: fake as unknown as AnalysedDocument['uri'], version, getText: () => text };
}

/** Every consumer of a version at once: diagnostics, two panels, a hover, two linear-algebra views. */
function openEverything(cache: AnalysisCache, doc: AnalysedDocument) {
  const progress = () => {};
  return Promise.all([
    cache.get(doc), cache.get(doc, progress), cache.get(doc, progress),
    cache.lastGoodData(doc), cache.linalg(doc), cache.linalg(doc),
  ]);
}

test('one read and compute per version, however many consumers and views ask; a new version, one more', async () => {
  const analyst = new Analyst();
  const runner = new AnalysisRunner(undefined, undefined, analyst);
  const cache = new AnalysisCache(runner);
  const v1 = document(1, TEXT);
  const [diagnostics, panel, secondPanel, hover, spectrum, covariance] = await openEverything(cache, v1);
  assert.equal(analyst.reads, 1, 'the spec was read and computed once');
  assert.equal(runner.jobs, 2, 'one job for the result, one for the linear-algebra numbers (made from that result)');
  assert.equal(diagnostics, panel, 'the diagnostics and the panel share the analysis');
  assert.equal(secondPanel, panel, 'and so does a second panel');
  assert.ok(panel.data && panel.wire, 'the model and its serialisation');
  assert.equal(hover, panel.data, 'the hover reads the very model the panel was given');
  assert.equal(covariance, spectrum, 'two views, one set of numbers');
  assert.deepEqual(spectrum, analyze(TEXT, { linalg: true }).data!.linalg, 'the numbers the core makes');

  // The same version asked again later: nothing more.
  await openEverything(cache, v1);
  assert.equal(analyst.reads, 1);
  assert.equal(runner.jobs, 2);

  const v2 = document(2, TEXT.replace('"stretch"', '"stretched"'));
  await openEverything(cache, v2);
  assert.equal(analyst.reads, 2, 'a new version: one more read and compute');
  assert.equal(runner.jobs, 4);
});

test('a version replaced before its turn is never computed; the newest is, once', async () => {
  const analyst = new Analyst();
  const runner = new AnalysisRunner(undefined, undefined, analyst);
  const cache = new AnalysisCache(runner);
  const old = cache.get(document(1, TEXT));
  const newest = cache.get(document(2, exampleText('apple-watch-lens.attn.json')));
  await assert.rejects(old, Cancelled);
  const a = await newest;
  assert.ok(a.data);
  assert.deepEqual(a.data.inputs[0].tokens, analyze(exampleText('apple-watch-lens.attn.json')).data!.inputs[0].tokens);
  assert.equal(analyst.reads, 1);
});

test('the model the host holds is the core\'s, bit for bit, and it stays for hovers while the spec is broken', async () => {
  const cache = new AnalysisCache(new AnalysisRunner(undefined));
  const text = exampleText('multi-head-causal.attn.json');
  const good = await cache.get(document(1, text));
  const core = analyze(text).data!;
  good.data!.inputs[0].heads.forEach((h, k) => {
    const c = core.inputs[0].heads[k];
    for (const key of ['q', 'k', 'v', 'scores', 'weights', 'output'] as const) {
      assert.ok(h[key].data.every((v, i) => Object.is(v, c[key].data[i])), `head ${k} ${key}`);
    }
  });
  const broken = document(2, '{ "inputs": 3 }');
  const b = await cache.get(broken);
  assert.equal(b.data, undefined);
  assert.ok(b.problems.some((p) => p.severity === 'error'));
  assert.equal(await cache.lastGoodData(broken), good.data, 'the last good model still answers');
});

test('with the worker: one job per version for the result, one for the linear-algebra numbers', async () => {
  assert.ok(existsSync(WORKER), 'npm run test:unit builds dist/ first');
  const runner = new AnalysisRunner(new WorkerService({ analysis: { file: WORKER } }));
  const cache = new AnalysisCache(runner);
  try {
    const [panel, , , hover, spectrum] = await openEverything(cache, document(1, TEXT));
    assert.equal(runner.started, 1);
    assert.equal(runner.jobs, 2);
    assert.equal(hover, panel.data);
    assert.deepEqual(spectrum, analyze(TEXT, { linalg: true }).data!.linalg);
    await openEverything(cache, document(2, TEXT.replace('"stretch"', '"stretched"')));
    assert.equal(runner.jobs, 4);
  } finally {
    runner.dispose();
  }
});

test('a spec\'s folder is found as node:path finds it, on either platform, without node:path', () => {
  for (const p of ['/a/b/spec.attn.json', '/spec.attn.json', '/a/b/', 'spec.attn.json']) assert.equal(parentFolder(p), posix.dirname(p), p);
  for (const p of ['C:\\a\\b\\spec.attn.json', 'C:\\spec.attn.json', '\\\\server\\share\\d\\spec.attn.json']) assert.equal(parentFolder(p), win32.dirname(p), p);
});
