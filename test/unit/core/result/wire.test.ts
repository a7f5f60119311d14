// The result model on the wire (src/core/result/wire.ts): one header and one buffer, decoded in
// the webview to the very numbers the core computed, with the derived parts (softmax weights,
// scaled scores) recomputed bit for bit, and shared arrays (identity weights) sent once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { analyze } from '../../../../src/core/index.js';
import { dataToJson } from '../../../../src/core/result/result-json.js';
import { decodeAttention, encodeAttention, maskBits, maskFromBits } from '../../../../src/core/result/wire.js';
import { weightsFromScores } from '../../../../src/core/result/derived.js';
import { scaledAt, weightAt, weightsRowOf, type AttentionData, type Matrix } from '../../../../src/core/result/attention-data.js';
import { exampleFiles, exampleText } from '../../../support/specs.js';

const same = (a: Matrix, b: Matrix, what: string) => {
  assert.equal(a.rows, b.rows, what);
  assert.equal(a.cols, b.cols, what);
  assert.ok(a.data.every((v, i) => Object.is(v, b.data[i])), `${what}: every number identical`);
};

function roundTrip(data: AttentionData): AttentionData {
  const { header, buffer } = encodeAttention(data);
  // What postMessage does to the header: structured clone (here, JSON, which is stricter).
  return decodeAttention(JSON.parse(JSON.stringify(header)), buffer.slice(0));
}

for (const file of exampleFiles()) {
  test(`${file.split('/').pop()}: decoded result equals the core's, bit for bit, weights included`, () => {
    const a = analyze(readFileSync(file, 'utf8'), { json: true });
    if (!a.data) return; // an example with errors on purpose is covered by its own test
    const back = roundTrip(a.data);
    a.data.inputs.forEach((input, i) => {
      const b = back.inputs[i];
      assert.deepEqual(b.tokens, input.tokens);
      same(b.embeddings, input.embeddings, 'embeddings');
      same(b.output, input.output, 'output');
      same(b.concat, input.concat, 'concat');
      input.heads.forEach((h, k) => {
        const g = b.heads[k];
        for (const key of ['q', 'k', 'v', 'scores', 'weights', 'output'] as const) same(g[key], h[key], `input ${i} head ${k} ${key}`);
        assert.deepEqual(Array.from(g.masked), Array.from(h.masked));
      });
    });
    // The JSON a person reads is the same whether made before or after the wire.
    assert.deepEqual(dataToJson(back), a.json);
  });
}

test('weights are recomputed exactly as the core computed them (softmax of scores ÷ divisor, masked keys left out)', () => {
  const data = analyze(exampleText('multi-head-causal.attn.json')).data!;
  for (const h of data.inputs[0].heads) same(weightsFromScores(h.scores, h.divisor, h.masked), h.weights, h.name);
  const h = data.inputs[0].heads[0];
  assert.equal(scaledAt(h, 0, 1), null, 'causal: the first query cannot see the second key');
  assert.equal(scaledAt(h, 1, 0), h.scores.data[h.scores.cols] / h.divisor);
});

test('identity weights are a flag and their Q, K, V the embeddings themselves: sent once, not three times', () => {
  const data = analyze(exampleText('apple-watch-raw.attn.json')).data!;
  const { header, buffer } = encodeAttention(data);
  const input = header.inputs[0], head = input.heads[0];
  assert.equal(head.q.at, input.embeddings.at);
  assert.equal(head.k.at, input.embeddings.at);
  assert.equal(head.v.at, input.embeddings.at);
  for (const m of header.matrices.filter((w) => w.identity)) assert.equal(m.values, undefined);
  const back = decodeAttention(header, buffer);
  const wq = back.matrices.find((m) => m.role === 'wq')!;
  assert.equal(weightAt(wq, 1, 1), 1);
  assert.equal(weightAt(wq, 1, 0), 0);
});

test('nothing n × n travels but the mask: the scores and weights are derived from Q and K, bit for bit', () => {
  const n = 40, d = 4, heads = 3;
  const tokens = Array.from({ length: n }, (_, i) => `t${i}`);
  const embeddings = Object.fromEntries(tokens.map((t, i) => [t, [Math.sin(i), Math.cos(i), i / n, 1]]));
  const w = Array.from({ length: d }, (_, i) => Array.from({ length: 2 }, (_, j) => ((i + 2 * j) % 3) - 1));
  const spec = { embeddings, inputs: [{ tokens }], heads: Array.from({ length: heads }, () => ({ wq: w, wk: w, wv: w })) };
  const data = analyze(JSON.stringify(spec)).data!;
  const { buffer } = encodeAttention(data);
  // Per head: q, k, v, output (n × 2 each); per input: embeddings (n × d), concat
  // (n × 6, also the output: no W_O), the mask (n × n bits, padded to 8 bytes); and each head's W_Q,
  // W_K, W_V (d × 2): the reader gives every head its own matrices, so 3 × 3 of them.
  const expected = 8 * (heads * 4 * n * 2 + n * d + n * 2 * heads + heads * 3 * d * 2) + Math.ceil(Math.ceil((n * n) / 8) / 8) * 8;
  assert.equal(buffer.byteLength, expected);
  const back = decodeAttention(encodeAttention(data).header, buffer);
  data.inputs[0].heads.forEach((h, k) => {
    same(back.inputs[0].heads[k].scores, h.scores, `head ${k} scores`);
    same(back.inputs[0].heads[k].weights, h.weights, `head ${k} weights`);
  });
});

test('a mask travels as one bit per cell, ⌈n² / 8⌉ bytes, and reads back cell for cell, whatever n and pattern', () => {
  let seed = 3;
  for (const n of [1, 3, 7, 8, 9, 64, 65]) {
    const masked = new Uint8Array(n * n);
    for (let c = 0; c < n * n; c++) masked[c] = (seed = (seed * 1103515245 + 12345) % 2147483648) % 3 === 0 ? 1 : 0;
    const bits = maskBits(masked, n);
    assert.equal(bits.length, Math.ceil((n * n) / 8), `n = ${n}`);
    assert.deepEqual(Array.from(maskFromBits(bits, n)), Array.from(masked), `n = ${n}`);
  }
  // A spec's own mask (not causal) through the whole message.
  const spec = { embeddings: { a: [1, 0], b: [0, 1], c: [1, 1] }, inputs: [{ tokens: ['a', 'b', 'c'], mask: [[1, 0, 1], [1, 1, 0], [0, 1, 1]] }] };
  const data = analyze(JSON.stringify(spec)).data!;
  const { header, buffer } = encodeAttention(data);
  const back = decodeAttention(header, buffer);
  assert.deepEqual(Array.from(back.inputs[0].masked), [0, 1, 0, 0, 0, 1, 1, 0, 0]);
  assert.deepEqual(Array.from(back.inputs[0].masked), Array.from(data.inputs[0].masked));
  same(back.inputs[0].heads[0].weights, data.inputs[0].heads[0].weights, 'weights under the spec\'s mask');
});

test('a hover\'s row of weights, made from q_i, K and the mask alone, is the core\'s row bit for bit; decoded heads derive scores only when read', () => {
  for (const file of exampleFiles()) {
    const data = analyze(readFileSync(file, 'utf8')).data;
    if (!data) continue;
    for (const input of data.inputs) {
      for (const h of input.heads) {
        for (let i = 0; i < input.tokens.length; i++) {
          const mine = weightsRowOf(h, i), core = h.weights.data.subarray(i * input.tokens.length, (i + 1) * input.tokens.length);
          assert.ok(mine.every((v, j) => Object.is(v, core[j])), `${file} query ${i}`);
        }
      }
    }
  }
  const data = analyze(exampleText('multi-head-causal.attn.json')).data!;
  const { header, buffer } = encodeAttention(data);
  const back = decodeAttention(header, buffer);
  const head = back.inputs[0].heads[1];
  assert.equal(Object.getOwnPropertyDescriptor(head, 'weights')?.get !== undefined, true, 'weights are a getter');
  assert.equal(head.weights, head.weights, 'made once, then the same array');
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a header taken apart field by field, as an attacker would
type Loose = Record<string, any>;

test('a malformed header is refused with the field named, before any view reads past the buffer or draws from an untrusted size', () => {
  const data = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  const { header, buffer } = encodeAttention(data);
  const text = JSON.stringify(header);
  const wv = header.matrices.findIndex((m) => m.role === 'wv' && m.identity);
  const wq = header.matrices.findIndex((m) => m.role === 'wq' && !m.identity);
  const cases: [string, (h: Loose) => void, RegExp][] = [
    ['negative offset', (h) => { h.inputs[0].heads[0].q.at = -8; }, /inputs\[0\]\.heads\[0\]\.q\.at is not a byte offset/],
    ['offset not a multiple of 8', (h) => { h.inputs[0].heads[0].k.at = 4; }, /inputs\[0\]\.heads\[0\]\.k\.at is not a byte offset/],
    ['huge offset', (h) => { h.inputs[0].embeddings.at = 1e300; }, /inputs\[0\]\.embeddings\.at is not a byte offset/],
    ['non-integer rows', (h) => { h.inputs[0].heads[0].v.rows = 2.5; }, /inputs\[0\]\.heads\[0\]\.v has no whole-number shape/],
    ['past the end', (h) => { h.inputs[0].output.at = h.bytes - 8; }, /inputs\[0\]\.output \(\d+ × \d+\) runs past the end of the data/],
    ['mask past the end', (h) => { h.inputs[0].masked.at = h.bytes; }, /inputs\[0\]\.masked runs past the end of the data/],
    ['an identity of 1e9 rows', (h) => { h.matrices[wv].rows = 1e9; h.matrices[wv].cols = 1e9; }, new RegExp(`matrices\\[${wv}\\] \\(wv\\) has 1000000000 rows, expected d_model 3`)],
    ['an identity not square', (h) => { h.matrices[wv].cols = 2; }, new RegExp(`matrices\\[${wv}\\] is an identity of 3 × 2, not square`)],
    ['a head that is not there', (h) => { h.matrices[wv].head = 7; }, new RegExp(`matrices\\[${wv}\\] names head 7, but there are 2 heads`)],
    ['W_Q as wide as nothing', (h) => { h.matrices[wq].values.cols = 1; h.matrices[wq].cols = 1; }, new RegExp(`matrices\\[${wq}\\] \\(wq\\) has 1 columns, expected 2`)],
    ['a negative divisor', (h) => { h.inputs[0].heads[0].divisor = -1; }, /inputs\[0\]\.heads\[0\]\.divisor is not a positive number/],
    ['a wrong role', (h) => { h.matrices[0].role = '__proto__'; }, /matrices\[0\]\.role is not one of wq, wk, wv, wo/],
    ['fields under __proto__', (h) => { h.__proto__x = { ...h }; delete h.bytes; }, /the header says undefined/],
  ];
  for (const [what, mutate, message] of cases) {
    const h = JSON.parse(text.replace('"__proto__x"', '"__proto__"')) as Loose;
    mutate(h);
    const again = JSON.parse(JSON.stringify(h).replace('"__proto__x"', '"__proto__"')) as unknown; // an own "__proto__", as JSON.parse makes it
    assert.throws(() => decodeAttention(again, buffer.slice(0)), message, what);
  }
});

test('malformed training frames are refused naming the field (an empty W_Q made the Training view throw, an empty loss drew a curve through NaN)', () => {
  const data = analyze(exampleText('learn-apple-watch.attn.json')).data!;
  const { header, buffer } = encodeAttention(data);
  const text = JSON.stringify(header);
  const cases: [(h: Loose) => void, RegExp][] = [
    [(h) => { h.training.frames[0].wq = []; }, /training is malformed: frames\[0\]\.wq has 0 rows, expected 3/],
    [(h) => { h.training.frames[1].wv = [[1], [2], [3]]; }, /training is malformed: frames\[1\]\.wv\[0\] has 1 numbers, expected 3/],
    [(h) => { h.training.loss = []; }, /training is malformed: loss is empty, for a run that was not refused/],
    [(h) => { h.training.targets[0].query = 99; }, /training is malformed: targets\[0\]\.query is not one of the input's 4 tokens/],
    [(h) => { h.training.head = 5; }, /training is malformed: head 5 is not one of the 1 heads/],
  ];
  for (const [mutate, message] of cases) {
    const h = JSON.parse(text) as Loose;
    mutate(h);
    assert.throws(() => decodeAttention(h, buffer.slice(0)), message);
  }
});

test('value-weighted norms travel as each head\'s n numbers ‖v W_O‖ and come back bit for bit, the n × n norms derived', () => {
  const data = analyze(exampleText('multi-head-causal.attn.json')).data!;
  const n = data.inputs[0].tokens.length;
  const { header, buffer } = encodeAttention(data);
  const back = decodeAttention(JSON.parse(JSON.stringify(header)), buffer.slice(0));
  data.inputs[0].heads.forEach((h, k) => {
    assert.deepEqual({ rows: header.inputs[0].heads[k].valueNorms!.rows, cols: header.inputs[0].heads[k].valueNorms!.cols }, { rows: n, cols: 1 });
    assert.equal('norms' in header.inputs[0].heads[k], false, 'the n × n norms do not travel');
    same(back.inputs[0].heads[k].valueNorms!, h.valueNorms!, `head ${k} valueNorms`);
    same(back.inputs[0].heads[k].norms!, h.norms!, `head ${k} norms`);
  });
  // A spec without W_O sends none and decodes none.
  const plain = roundTrip(analyze(exampleText('apple-watch-lens.attn.json')).data!);
  assert.equal(plain.inputs[0].heads[0].valueNorms, undefined);
  assert.equal(plain.inputs[0].heads[0].norms, undefined);
});

test('a norm that is negative, NaN or of the wrong shape is refused with its place named', () => {
  const data = analyze(exampleText('multi-head-causal.attn.json')).data!;
  const { header, buffer } = encodeAttention(data);
  const ref = header.inputs[0].heads[1].valueNorms!;
  for (const [bad, what] of [[-1, '-1'], [NaN, 'NaN'], [Infinity, 'Infinity']] as const) {
    const copy = buffer.slice(0);
    new Float64Array(copy, ref.at, ref.rows)[2] = bad;
    assert.throws(() => decodeAttention(JSON.parse(JSON.stringify(header)), copy), new RegExp(`inputs\\[0\\]\\.heads\\[1\\]\\.valueNorms\\[2\\] is ${what}, not a finite norm ≥ 0`));
  }
  const wide = JSON.parse(JSON.stringify(header)) as Loose;
  wide.inputs[0].heads[0].valueNorms.cols = 2;
  assert.throws(() => decodeAttention(wide, buffer.slice(0)), /inputs\[0\]\.heads\[0\]\.valueNorms has 2 columns, expected 1/);
});
