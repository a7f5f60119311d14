// Where a model spec's "model" may point (src/core/checkpoint-files/model-location.ts): beside the spec or below
// it, a model id in the Hugging Face cache (refs/main's snapshot, else the newest), or an absolute path
// in a trusted workspace only. An untrusted workspace never reads outside the workspace and the cache:
// an absolute path or ".." is a problem before anything is read, and a link leading out is refused.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hfCacheRoot, nodeFolderFs, resolveModelFolder, type FolderFs, type ModelWhere } from '../../../../src/core/checkpoint-files/model-location.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'attn-')));
after(() => rmSync(root, { recursive: true, force: true }));

const workspace = join(root, 'ws');
const specs = join(workspace, 'specs');
const cache = join(root, 'hub');
const outside = join(root, 'outside');
for (const d of [join(specs, 'models', 'tiny'), outside, join(cache, 'blobs')]) mkdirSync(d, { recursive: true });
writeFileSync(join(specs, 'models', 'tiny', 'config.json'), '{"model_type":"gpt2"}');
writeFileSync(join(outside, 'config.json'), '{"model_type":"gpt2"}');
writeFileSync(join(cache, 'blobs', 'abc'), '{"model_type":"gpt2"}');

/** A cached model as the hub lays it out: snapshots/<commit>/config.json → ../../blobs/abc. */
function cached(id: string, commits: string[], main?: string): void {
  const repo = join(cache, `models--${id.split('/').join('--')}`);
  for (const [k, c] of commits.entries()) {
    mkdirSync(join(repo, 'snapshots', c), { recursive: true });
    symlinkSync(join('..', '..', '..', 'blobs', 'abc'), join(repo, 'snapshots', c, 'config.json'));
    const t = new Date(Date.UTC(2024, 0, 1 + k));
    utimesSync(join(repo, 'snapshots', c), t, t);
  }
  if (main) {
    mkdirSync(join(repo, 'refs'), { recursive: true });
    writeFileSync(join(repo, 'refs', 'main'), main);
  }
}
cached('gpt2', ['c1', 'c2']);
cached('org/name', ['aaa', 'bbb'], 'aaa');

/** The disk, counting every call: a refusal before reading makes none. */
function counting(): { fs: FolderFs; calls: string[] } {
  const calls: string[] = [];
  const fs = Object.fromEntries(Object.entries(nodeFolderFs).map(([k, f]) => [k, (...a: unknown[]) => { calls.push(`${k} ${String(a[0])}`); return (f as (...x: unknown[]) => unknown)(...a); }])) as unknown as FolderFs;
  return { fs, calls };
}

const where = (over: Partial<ModelWhere> = {}): ModelWhere => ({ specFolder: specs, workspaceFolders: [workspace], cacheRoot: cache, trusted: false, fs: nodeFolderFs, ...over });

test('a folder beside the spec, or below it, is found (trusted or not)', () => {
  for (const trusted of [false, true]) {
    const at = resolveModelFolder('models/tiny', where({ trusted }));
    assert.deepEqual(at, { folder: join(specs, 'models', 'tiny'), how: 'beside' });
  }
});

test('a model id is found in the cache: refs/main\'s snapshot, else the newest', () => {
  assert.deepEqual(resolveModelFolder('gpt2', where()), { folder: join(cache, 'models--gpt2', 'snapshots', 'c2'), how: 'cache', commit: 'c2' });
  assert.deepEqual(resolveModelFolder('org/name', where()), { folder: join(cache, 'models--org--name', 'snapshots', 'aaa'), how: 'cache', commit: 'aaa' });
  // An unsaved spec (no folder) still finds a cached model.
  assert.equal((resolveModelFolder('gpt2', where({ specFolder: undefined })) as { how: string }).how, 'cache');
  const none = resolveModelFolder('nobody/here', where());
  assert.ok('problem' in none);
  assert.match(none.problem, /no folder "nobody\/here" beside the spec, and no model "nobody\/here" in the Hugging Face cache/);
});

test('untrusted: an absolute path or ".." is a problem, and nothing is read', () => {
  for (const model of [outside, '../..', 'models/../../../outside']) {
    const { fs, calls } = counting();
    const at = resolveModelFolder(model, where({ fs }));
    assert.ok('problem' in at, model);
    assert.match(at.problem, model === outside ? /trusted workspace only/ : /"\.\.", going up, is not allowed/);
    assert.deepEqual(calls, [], `${model}: nothing asked of the disk`);
  }
});

test('trusted: an absolute path is read; ".." is still refused (the tensor files\' rule)', () => {
  assert.deepEqual(resolveModelFolder(outside, where({ trusted: true })), { folder: outside, how: 'absolute' });
  assert.ok('problem' in resolveModelFolder(join(outside, 'nothing'), where({ trusted: true })));
  assert.ok('problem' in resolveModelFolder('../outside', where({ trusted: true })));
});

test('untrusted: a folder beside the spec that is a link out of the workspace, or holds one, is refused', () => {
  symlinkSync(outside, join(specs, 'models', 'away'));
  const away = resolveModelFolder('models/away', where());
  assert.ok('problem' in away);
  assert.match(away.problem, /leads outside the workspace/);
  // Trusted, the same link is followed.
  assert.deepEqual(resolveModelFolder('models/away', where({ trusted: true })), { folder: outside, how: 'beside' });
  // A folder in the workspace whose weights are a link out.
  mkdirSync(join(specs, 'models', 'mixed'));
  symlinkSync(join(outside, 'config.json'), join(specs, 'models', 'mixed', 'config.json'));
  const mixed = resolveModelFolder('models/mixed', where());
  assert.ok('problem' in mixed);
  assert.match(mixed.problem, /config\.json leads outside/);
  // A link into the cache is allowed (the cache is the other place an untrusted spec may read).
  symlinkSync(join(cache, 'models--gpt2', 'snapshots', 'c1'), join(specs, 'models', 'cachelink'));
  assert.equal((resolveModelFolder('models/cachelink', where()) as { how: string }).how, 'beside');
});

test('a cached snapshot whose file links out of the cache is not followed', () => {
  cached('evil', ['e1']);
  symlinkSync(join(outside, 'config.json'), join(cache, 'models--evil', 'snapshots', 'e1', 'model.safetensors'));
  const at = resolveModelFolder('evil', where({ trusted: true }));
  assert.ok('problem' in at);
  assert.match(at.problem, /model\.safetensors leads outside the Hugging Face cache/);
});

test('the cache root: HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache/huggingface/hub', () => {
  assert.equal(hfCacheRoot({ HF_HUB_CACHE: '/a' }, '/home/u'), '/a');
  assert.equal(hfCacheRoot({ HF_HOME: '/h' }, '/home/u'), join('/h', 'hub'));
  assert.equal(hfCacheRoot({}, '/home/u'), join('/home/u', '.cache', 'huggingface', 'hub'));
});
