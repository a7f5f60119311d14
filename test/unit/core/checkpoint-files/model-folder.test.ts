// A model folder read from disk (src/core/checkpoint-files/model-folder.ts): config.json, the weights of one
// file or of the shards an index names (each tensor found where the index says), the tokenizer's
// files (tokenizer.json first, else vocab.json + merges.txt), and the refusals that keep every read
// inside the folder and within a budget.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readModelFolder } from '../../../../src/core/checkpoint-files/model-folder.js';

const root = mkdtempSync(join(tmpdir(), 'attn-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A safetensors file of F32 tensors named `names`, each [2] = [1, 2]. */
function safetensors(path: string, names: string[]): void {
  const header: Record<string, unknown> = {};
  names.forEach((n, i) => { header[n] = { dtype: 'F32', shape: [2], data_offsets: [i * 8, i * 8 + 8] }; });
  const text = Buffer.from(JSON.stringify(header));
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(text.length));
  const data = Buffer.from(new Float32Array(names.flatMap(() => [1, 2])).buffer);
  writeFileSync(path, Buffer.concat([size, text, data]));
}

function folder(name: string, files: Record<string, string>, shards: Record<string, string[]> = {}): string {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  for (const [f, names] of Object.entries(shards)) safetensors(join(dir, f), names);
  return dir;
}

test('shards by the index: every tensor from its shard, the files read listed, tokenizer.json with its config', () => {
  const dir = folder('sharded', {
    'config.json': '{"model_type":"gpt2"}', 'tokenizer.json': '{"model":{}}', 'tokenizer_config.json': '{}',
    'model.safetensors.index.json': JSON.stringify({ weight_map: { a: 'one.safetensors', b: 'two.safetensors', c: 'two.safetensors' } }),
  }, { 'one.safetensors': ['a'], 'two.safetensors': ['b', 'c'] });
  const m = readModelFolder(dir);
  try {
    assert.deepEqual([...m.tensors.keys()].sort(), ['a', 'b', 'c']);
    assert.equal(m.where('c'), join(dir, 'two.safetensors'));
    // With the hash of the bytes read, which keys the tokenizer cache.
    const sha = createHash('sha256').update('{"model":{}}').digest('hex');
    assert.deepEqual(m.tokenizerFiles, { tokenizerJson: '{"model":{}}', tokenizerJsonSha256: sha, tokenizerConfigJson: '{}' });
    assert.deepEqual(m.files.map((f) => f.slice(dir.length + 1)).sort(), ['config.json', 'model.safetensors.index.json', 'one.safetensors', 'tokenizer.json', 'tokenizer_config.json', 'two.safetensors']);
    assert.equal(m.configText, '{"model_type":"gpt2"}');
  } finally {
    m.close();
  }
});

test('vocab.json + merges.txt when there is no tokenizer.json', () => {
  const dir = folder('vocab', { 'config.json': '{}', 'vocab.json': '{"a":0}', 'merges.txt': '#version: 0.2\n' }, { 'model.safetensors': ['x'] });
  const m = readModelFolder(dir);
  m.close();
  assert.deepEqual(m.tokenizerFiles, { vocabJson: '{"a":0}', mergesTxt: '#version: 0.2\n' });
});

test('BERT\'s vocab.txt, with tokenizer_config.json, when there is neither tokenizer.json nor vocab.json', () => {
  const dir = folder('bert', { 'config.json': '{}', 'vocab.txt': '[UNK]\na\n', 'tokenizer_config.json': '{}' }, { 'model.safetensors': ['x'] });
  const m = readModelFolder(dir);
  m.close();
  assert.deepEqual(m.tokenizerFiles, { vocabTxt: '[UNK]\na\n', tokenizerConfigJson: '{}' });
});

test('refusals: no weights, a shard outside the folder, a folder named as a shard, a config over its budget, a config that is a folder', () => {
  assert.throws(() => readModelFolder(folder('none', { 'config.json': '{}', 'tokenizer.json': '{}' })), /model\.safetensors: no such file \(nor model\.safetensors\.index\.json\)/);
  for (const bad of ['../one.safetensors', 'sub/one.safetensors', '/etc/one.safetensors', '.hidden.safetensors', 'one.bin']) {
    const dir = folder(`bad-${Math.random().toString(36).slice(2)}`, { 'config.json': '{}', 'tokenizer.json': '{}', 'model.safetensors.index.json': JSON.stringify({ weight_map: { a: bad } }) });
    assert.throws(() => readModelFolder(dir), /a shard must be a plain \.safetensors file name in the model folder/, bad);
  }
  assert.throws(() => readModelFolder(folder('big', { 'config.json': ' '.repeat(4 * 1024 * 1024 + 1) })), /config\.json: more than 4194304 bytes/);
  const dir = join(root, 'dir-config');
  mkdirSync(join(dir, 'config.json'), { recursive: true });
  assert.throws(() => readModelFolder(dir), /config\.json: not a regular file/);
});

test('reading a sharded folder and closing it leaves no file open (an editor re-reads a folder at every load)', () => {
  // Before: each shard was opened once to see that it exists and never closed: one descriptor lost per shard per load.
  const dir = folder('no-leak', {
    'config.json': '{"model_type":"gpt2"}', 'tokenizer.json': '{"model":{}}',
    'model.safetensors.index.json': JSON.stringify({ weight_map: { a: 'one.safetensors', b: 'two.safetensors' } }),
  }, { 'one.safetensors': ['a'], 'two.safetensors': ['b'] });
  const open = () => readdirSync('/proc/self/fd').length;
  const before = open();
  for (let i = 0; i < 5; i++) readModelFolder(dir).close();
  assert.equal(open(), before);
});
