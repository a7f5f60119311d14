// Which file "Open Model Attention" opens: the one given, else the active tab's or the active text
// editor's when it is a model file; anything else (a spec, a webview's tab, a forged input) is none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MODEL_FILE, modelTarget } from '../../../../src/host/model-editor/command-target.js';

class FakeUri { constructor(readonly path: string) {} }
const isUri = (x: unknown): x is FakeUri => x instanceof FakeUri;

test('the given file first, then the active tab\'s model file, then the active text editor\'s', () => {
  const given = new FakeUri('/a/x.json'), tab = new FakeUri('/m/model.safetensors'), text = new FakeUri('/m/a.npy');
  assert.equal(modelTarget(given, isUri, { uri: tab }, text), given, 'the explorer\'s choice, as it is');
  assert.equal(modelTarget(undefined, isUri, { uri: tab }, text), tab, 'the binary page\'s file');
  assert.equal(modelTarget(undefined, isUri, { uri: new FakeUri('/s/spec.attn.json') }, text), text);
  assert.equal(modelTarget(undefined, isUri, { viewType: 'attentionLens.panel' }, undefined), undefined, 'a webview tab has no file');
  assert.equal(modelTarget(undefined, isUri, undefined, new FakeUri('/s/spec.attn.json')), undefined, 'a spec is no model file');
  assert.equal(modelTarget(undefined, isUri, { uri: new FakeUri('/m/W.NPZ') }, undefined)?.path, '/m/W.NPZ');
});

test('whatever a tab input holds, a target is a URI of a model file or none', () => {
  const path = fc.oneof(fc.string(), fc.constantFrom('/a.safetensors', '/b.npy', '/c.npz', '/d.npz.json', '/e.safetensors/', ''));
  const input = fc.oneof(fc.anything(), path.map((p) => ({ uri: new FakeUri(p) })), path.map((p) => ({ uri: { path: p } })));
  fc.assert(fc.property(input, fc.option(path.map((p) => new FakeUri(p))), (tab, text) => {
    const got = modelTarget(undefined, isUri, tab, text ?? undefined);
    if (got === undefined) return;
    assert.ok(isUri(got), 'a URI, never a look-alike object');
    assert.match(got.path, MODEL_FILE);
  }), { seed: 30, numRuns: 1000 });
});
