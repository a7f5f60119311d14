// Which copy of a tensor a sharded model folder gives (src/core/checkpoint-files/model-folder.ts),
// over seeded layouts: 2 to 4 shards, each tensor in the shard the index names plus copies in other
// shards, and tensors the index does not name in one or two shards. The index decides: a tensor
// it names is the copy in its shard, whatever other shards hold and in whatever order they are
// read; one it does not name is taken from the one shard holding it, and refused, naming both
// shards, when two hold it. Each copy's value says which shard it came from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readModelFolder } from '../../../../src/core/checkpoint-files/model-folder.js';
import { writeSafetensors } from '../../../../src/core/tensors/safetensors-write.js';
import { ModelError } from '../../../../src/core/checkpoint/error.js';
import { between, seeded } from '../../../support/random.js';
import { tempDir } from '../../../support/temp-dir.js';

/** The value a copy holds: its shard and its tensor. */
const mark = (shard: number, tensor: number) => shard * 100 + tensor;

test('a tensor in two shards: the copy the index names, or a refusal naming both when the index names none (seeded layouts)', () => {
  const root = tempDir('attn-shards-');
  const rand = seeded(20261129);
  let refused = 0, overridden = 0;
  for (let c = 0; c < 120; c++) {
    const dir = join(root, `case-${c}`);
    mkdirSync(dir);
    const shardCount = between(rand, 2, 4);
    const shardName = (s: number) => `model-0000${s + 1}-of-0000${shardCount}.safetensors`;
    const contents: number[][] = Array.from({ length: shardCount }, () => []);
    const weightMap: Record<string, string> = {};
    const expected = new Map<string, number>();
    const tensorCount = between(rand, 1, 6);
    for (let t = 0; t < tensorCount; t++) {
      const home = between(rand, 0, shardCount - 1);
      contents[home].push(t);
      weightMap[`t${t}`] = shardName(home);
      expected.set(`t${t}`, mark(home, t));
      for (let s = 0; s < shardCount; s++) if (s !== home && rand() < 0.4) { contents[s].push(t); overridden++; }
    }
    // Tensors the index leaves out: in one shard (taken from it) or in two (refused).
    const extra = between(rand, 0, 2);
    const twice: string[] = [];
    for (let e = 0; e < extra; e++) {
      const t = tensorCount + e;
      const first = between(rand, 0, shardCount - 1);
      contents[first].push(t);
      if (rand() < 0.5) {
        const second = (first + between(rand, 1, shardCount - 1)) % shardCount;
        contents[second].push(t);
        twice.push(`t${t}`);
      } else {
        expected.set(`t${t}`, mark(first, t));
      }
    }
    // A shard the index names no tensor of is not read; give every shard one named tensor's file.
    const named = new Set(Object.values(weightMap));
    contents.forEach((list, s) => {
      // Shuffled, so the copies are met in no fixed order.
      const order = list.map((t) => ({ t, k: rand() })).sort((a, b) => a.k - b.k).map((x) => x.t);
      writeFileSync(join(dir, shardName(s)), writeSafetensors(order.map((t) => ({ name: `t${t}`, dtype: 'F32' as const, shape: [1], data: new Float32Array([mark(s, t)]) }))));
    });
    writeFileSync(join(dir, 'config.json'), '{"model_type":"gpt2"}');
    writeFileSync(join(dir, 'tokenizer.json'), '{"model":{}}');
    writeFileSync(join(dir, 'model.safetensors.index.json'), JSON.stringify({ weight_map: weightMap }));
    const holders = twice.map((name) => [...named].filter((shard) => contents[Number(shard.slice(6, 11)) - 1].includes(Number(name.slice(1)))));
    if (holders.some((h) => h.length >= 2)) {
      refused++;
      assert.throws(() => readModelFolder(dir), (e: unknown) => {
        assert.ok(e instanceof ModelError, String(e));
        const m = /tensor "(t\d+)" is also in (\S+), and model\.safetensors\.index\.json names neither/.exec(e.message);
        assert.ok(m, e.message);
        const i = twice.indexOf(m[1]);
        assert.ok(i >= 0, `case ${c}: ${m[1]} is not one of the unnamed copies ${twice.join(', ')}`);
        for (const shard of holders[i]) assert.ok(e.message.includes(join(dir, shard)), `case ${c}: ${e.message} names ${shard}`);
        return true;
      }, `case ${c}`);
      continue;
    }
    const m = readModelFolder(dir);
    try {
      for (const [name, value] of expected) {
        // A tensor in a shard the index names no tensor of is not read at all.
        const ref = m.tensors.get(name);
        const home = [...named].find((shard) => contents[Number(shard.slice(6, 11)) - 1].includes(Number(name.slice(1))));
        if (!weightMap[name] && home === undefined) { assert.equal(ref, undefined); continue; }
        assert.ok(ref, `case ${c}: ${name} is read`);
        assert.equal(new Float32Array(ref.source.read(ref.offset, 4).slice().buffer)[0], value, `case ${c}: ${name} comes from the shard the index names`);
        if (weightMap[name]) assert.equal(m.where(name), join(dir, weightMap[name]));
      }
    } finally {
      m.close();
    }
  }
  assert.ok(refused >= 10 && overridden >= 50, `the family reaches both outcomes (${refused} refused, ${overridden} copies the index does not name)`);
});
