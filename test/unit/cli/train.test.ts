// attn train when the spec's own numbers overflow (src/cli/train.ts): before the first step nothing
// can be learnt, so it says that in one line and exits 1; it never prints "-1 step(s)" or a weight
// "NaN → NaN", nor blames the rate. Embeddings drawn from 1e1 to 1e300: each run either trains with
// only finite numbers printed, or refuses in that one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attn, tempSpec } from '../../support/cli.js';
import { between, seeded } from '../../support/random.js';

const spec = (size: number) => JSON.stringify({
  embeddings: { a: [size, 0], b: [0, size] }, inputs: [{ name: 'x', tokens: ['a', 'b'] }], scale: 'none',
  heads: [{ name: 'h', wq: [[1, 0], [0, 1]], wk: [[1, 0], [0, 1]], wv: [[1, 0], [0, 1]] }],
  train: { head: 'h', learn: ['wq'], targets: [{ input: 0, query: 'a', key: 'b' }], steps: 3, rate: 0.01 },
});

test('40 specs with embeddings from 1e1 to 1e300: trained with finite numbers, or refused before the first step in one line', async () => {
  const rand = seeded(40);
  let refused = 0, trained = 0;
  for (let c = 0; c < 40; c++) {
    const size = 10 ** between(rand, 1, 300);
    const r = await attn('train', tempSpec(spec(size)));
    assert.doesNotMatch(r.out + r.err, /NaN|-1 step|Infinity/, `1e${Math.log10(size)}`);
    if (r.code === 0) { trained++; continue; }
    refused++;
    assert.equal(r.code, 1);
    if (r.out === '') assert.match(r.err, /: the loss of target 1 of 1 \("a" → "b" in input "x"\) overflows before the first step \(the spec's numbers are too large as they are, so no rate can train them\): use smaller embeddings or W_Q and W_K in head "h"$/);
    else assert.match(r.err, /the numbers overflowed at step [1-9]\d*: stopped, with the last finite weights/, 'a step was taken: its report, then why it stopped');
  }
  assert.ok(refused > 0 && trained >= 0, `refused ${refused}, trained ${trained}`);
});
