// "Run a Model…" lists the supported models in the Hugging Face cache (src/core/checkpoint-files/hf-cache.ts):
// a fake cache laid out as the hub makes it (snapshots/<commit>/ files are links into blobs/), where
// a gpt2, a llama and a qwen2 are listed, a t5 is not, and a model whose config links out of the
// cache is not followed (so not listed).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listCachedModels, modelType } from '../../../../src/core/checkpoint-files/hf-cache.js';
import { nodeFolderFs } from '../../../../src/core/checkpoint-files/model-location.js';

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
model('google/t5', 't5');
model('evil/out', 'gpt2', 'e1', true);
mkdirSync(join(cache, 'datasets--x--y'));

test('the supported models of the cache are listed with their id, snapshot and type; others are not', () => {
  const listed = listCachedModels(cache, nodeFolderFs);
  assert.deepEqual(listed.map((m) => [m.id, m.type, m.commit]), [
    ['Qwen/Qwen2-0.5B', 'qwen2', 'deadbeef'],
    ['gpt2', 'gpt2', '0123abc'],
    ['meta/tiny-llama', 'llama', '0123abc'],
  ]);
  assert.equal(listed[1].folder, join(cache, 'models--gpt2', 'snapshots', '0123abc'));
});

test('a missing cache lists nothing; model_type is read from the config\'s JSON only', () => {
  assert.deepEqual(listCachedModels(join(root, 'none'), nodeFolderFs), []);
  assert.equal(modelType('{"model_type":"llama"}'), 'llama');
  assert.equal(modelType('{"model_type":"t5"}'), undefined);
  assert.equal(modelType('not json'), undefined);
  assert.equal(modelType(undefined), undefined);
});
