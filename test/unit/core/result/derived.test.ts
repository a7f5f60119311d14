// What the result model derives instead of keeping (src/core/result/derived.ts): a lean model (the
// one the analysis worker keeps) shares every tensor but the n × n ones, which it makes again when
// read, bit for bit the compute's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../../../src/core/index.js';
import { derivedHead, leanData } from '../../../../src/core/result/derived.js';
import { exampleText } from '../../../support/specs.js';

test('a lean model shares Q, K, V and the outputs, and makes the scores and weights again, the same bits', () => {
  for (const name of ['multi-head-causal.attn.json', 'mouse-two-contexts.attn.json', 'apple-watch-raw.attn.json']) {
    const data = analyze(exampleText(name)).data!;
    const lean = leanData(data);
    data.inputs.forEach((input, i) => {
      const l = lean.inputs[i];
      assert.equal(l.embeddings, input.embeddings, 'shared, not copied');
      assert.equal(l.output, input.output);
      input.heads.forEach((h, k) => {
        const g = l.heads[k];
        for (const key of ['q', 'k', 'v', 'output'] as const) assert.equal(g[key], h[key], `${name} head ${k} ${key} shared`);
        assert.ok(Object.getOwnPropertyDescriptor(g, 'scores')?.get, 'scores are a getter');
        assert.notEqual(g.scores, h.scores, 'made again, not kept');
        for (const key of ['scores', 'weights'] as const) {
          assert.ok(g[key].data.every((v, j) => Object.is(v, h[key].data[j])), `${name} input ${i} head ${k} ${key}: the same bits`);
        }
      });
    });
  }
});

test('a derived head makes its weights once, on the first read', () => {
  const head = analyze(exampleText('apple-watch-lens.attn.json')).data!.inputs[0].heads[0];
  const derived = derivedHead(head);
  assert.equal(derived.weights, derived.weights);
  assert.equal(derived.scores, derived.scores);
});

test('a lean head keeps its n value norms and makes its n × n value-weighted norms again when read, the same bits', () => {
  const data = analyze(exampleText('multi-head-causal.attn.json')).data!;
  const lean = leanData(data);
  data.inputs[0].heads.forEach((h, k) => {
    const g = lean.inputs[0].heads[k];
    assert.equal(g.valueNorms, h.valueNorms, 'shared, not copied');
    assert.ok(Object.getOwnPropertyDescriptor(g, 'norms')?.get, 'norms are a getter');
    assert.notEqual(g.norms, h.norms, 'made again, not kept');
    assert.ok(g.norms!.data.every((v, j) => Object.is(v, h.norms!.data[j])), `head ${k} norms: the same bits`);
    assert.equal(g.norms, g.norms, 'made once');
  });
  // Without W_O a lean head has no norms at all.
  const plain = leanData(analyze(exampleText('apple-watch-lens.attn.json')).data!);
  assert.equal(plain.inputs[0].heads[0].norms, undefined);
  assert.equal('norms' in plain.inputs[0].heads[0], false);
});
