// "Run a Model…" lists the models in the Hugging Face cache (src/core/checkpoint-files/hf-cache.ts):
// a fake cache laid out as the hub makes it (snapshots/<commit>/ files are links into blobs/), where
// a gpt2, a llama and a qwen2 are listed as runnable, a model of a type no family computes is listed with
// the reason naming config.json's "model_type", and a model whose config links out of the cache is not
// followed (so not listed).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listCachedModels, modelType } from '../../../../src/core/checkpoint-files/hf-cache.js';
import { nodeFolderFs } from '../../../../src/core/checkpoint-files/model-location.js';
import { FAMILY_NAMES } from '../../../../src/core/checkpoint/families/index.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'attn-')));
after(() => rmSync(root, { recursive: true, force: true }));
const cache = join(root, 'hub');
const outside = join(root, 'outside');
mkdirSync(join(cache, 'blobs'), { recursive: true });
mkdirSync(outside);
writeFileSync(join(outside, 'config.json'), '{"model_type":"gpt2"}');

function model(id: string, type: string, commit = '0123abc', linkOut = false): void {
  const repo = join(cache, `models--${id.split('/').join('--')}`);
  const snap = join(repo, 'snapshots', commit);
  mkdirSync(snap, { recursive: true });
  mkdirSync(join(repo, 'refs'), { recursive: true });
  writeFileSync(join(repo, 'refs', 'main'), commit);
  const blob = join(cache, 'blobs', `${id.replace('/', '_')}-config`);
  writeFileSync(blob, JSON.stringify({ model_type: type }));
  symlinkSync(linkOut ? join(outside, 'config.json') : join('..', '..', '..', 'blobs', `${id.replace('/', '_')}-config`), join(snap, 'config.json'));
}

model('gpt2', 'gpt2');
model('meta/tiny-llama', 'llama');
model('Qwen/Qwen2-0.5B', 'qwen2', 'deadbeef');
model('google/nonesuch', 'nonesuch');
model('evil/out', 'gpt2', 'e1', true);
mkdirSync(join(cache, 'datasets--x--y'));

test('the models of the cache are listed with their id, snapshot and type; one no family runs says why', () => {
  const listed = listCachedModels(cache, nodeFolderFs);
  assert.deepEqual(listed.map((m) => [m.id, m.type, m.commit, m.unsupported === undefined]), [
    ['Qwen/Qwen2-0.5B', 'qwen2', 'deadbeef', true],
    ['google/nonesuch', 'nonesuch', '0123abc', false],
    ['gpt2', 'gpt2', '0123abc', true],
    ['meta/tiny-llama', 'llama', '0123abc', true],
  ]);
  assert.equal(listed[2].folder, join(cache, 'models--gpt2', 'snapshots', '0123abc'));
  assert.match(listed[1].unsupported ?? '', /^config\.json "model_type" is "nonesuch": Attention Lens runs /);
});

test('every family of the registry is runnable, and the reasons name the families and the config key', () => {
  for (const name of FAMILY_NAMES) assert.deepEqual(modelType(JSON.stringify({ model_type: name })), { type: name }, name);
  const { unsupported } = modelType('{"model_type":"nonesuch"}');
  for (const name of FAMILY_NAMES) assert.ok(unsupported?.includes(name), `${name} is named in: ${unsupported}`);
  assert.match(modelType('{"architectures":[]}').unsupported ?? '', /^its config\.json has no "model_type"/);
  assert.match(modelType('not json').unsupported ?? '', /^its config\.json is not JSON/);
  assert.match(modelType(undefined).unsupported ?? '', /cannot be read/);
  assert.deepEqual(listCachedModels(join(root, 'none'), nodeFolderFs), []);
});
