// `attn compute` (src/cli/compute.ts) with value-weighted norms: --json adds each head's
// "valueNorms" [key] only when the spec has W_O (the value-weighted n × n is the weights times them,
// not printed twice), the text report a table of ‖v W_O‖ and the value-weighted table, and the
// largest spec with W_O still prints (its norms are n numbers a head).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { EXAMPLES } from '../../support/specs.js';
import { attn, tempSpec } from '../../support/cli.js';
import { formatNumber } from '../../../src/cli/table.js';

const withWo = join(EXAMPLES, 'multi-head-causal.attn.json');
const withoutWo = join(EXAMPLES, 'apple-watch-lens.attn.json');

test('compute --json: with W_O every head has valueNorms [key] (and no n × n copy); without W_O none', async () => {
  const r = await attn('compute', withWo, '--json');
  assert.equal(r.code, 0, r.err);
  const json = JSON.parse(r.out);
  const n = json.inputs[0].tokens.length;
  for (const head of json.inputs[0].heads) {
    assert.equal(head.valueNorms.length, n);
    assert.ok(head.valueNorms.every((v: number) => v >= 0 && Number.isFinite(v)));
    assert.ok(!('norms' in head));
  }
  // The two heads write different amounts from the same key: their W_O rows differ.
  assert.notDeepEqual(json.inputs[0].heads[0].valueNorms, json.inputs[0].heads[1].valueNorms);
  const plain = JSON.parse((await attn('compute', withoutWo, '--json')).out);
  for (const head of plain.inputs[0].heads) assert.ok(!('valueNorms' in head) && !('norms' in head));
});

test('compute without --json: a one-row table of ‖v W_O‖ over the keys and the value-weighted table, only with W_O', async () => {
  const json = JSON.parse((await attn('compute', withWo, '--json')).out);
  const r = await attn('compute', withWo);
  assert.equal(r.code, 0, r.err);
  const tokens: string[] = json.inputs[0].tokens;
  for (const head of json.inputs[0].heads) {
    // The row of norms as the table writes it, each number in its key's column.
    const row = new RegExp(`‖v W_O‖\\s+${head.valueNorms.map((v: number) => formatNumber(v).replace('.', '\\.')).join('\\s+')}\\n`);
    assert.match(r.out, row);
    const lastRow = head.weights.at(-1).map((w: number, j: number) => w * head.valueNorms[j]);
    const last = new RegExp(`${tokens.at(-1)}\\s+${lastRow.map((v: number) => formatNumber(v).replace('.', '\\.')).join('\\s+')}`);
    assert.match(r.out, last);
  }
  assert.equal(r.out.match(/^value-weighted \(weight × ‖v W_O‖\), rows = queries, columns = keys$/gm)?.length, json.inputs[0].heads.length);
  const plain = await attn('compute', withoutWo);
  assert.doesNotMatch(plain.out, /‖v W_O‖|value-weighted/);
});

test('the largest attention the spec allows (4 heads × 1,024 tokens) with W_O still prints: its norms are n numbers a head', async () => {
  const n = 1024, d = 64;
  const words = Array.from({ length: n }, (_, i) => `w${i}`);
  const embeddings = Object.fromEntries(words.map((w, i) => [w, Array.from({ length: d }, (_, t) => Math.sin(i * 0.7 + t))]));
  const head = (h: number) => ({ name: `h${h}`, ...Object.fromEntries(['wq', 'wk', 'wv'].map((r, k) => [r, { init: 'lecun', shape: [d, 16], seed: 3 * h + k + 1 }])) });
  const file = tempSpec(JSON.stringify({ embeddings, inputs: [{ tokens: words }], heads: [0, 1, 2, 3].map(head), wo: { init: 'lecun', shape: [64, d], seed: 99 }, mask: 'causal' }));
  const r = await attn('compute', file, '--json');
  assert.equal(r.code, 0, r.err);
  const json = JSON.parse(r.out);
  assert.equal(json.inputs[0].heads.length, 4);
  assert.ok(json.inputs[0].heads.every((h: { valueNorms: number[] }) => h.valueNorms.length === n));
});
