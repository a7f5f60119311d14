// Non-finite values never reach --json: specs whose numbers are drawn from 1e-320 to
// 1e300 go through attn compute, analyze and train with --json. Each run either prints JSON in which
// every number is finite (JSON.stringify would have written NaN and ±Infinity as null: no null is
// in it but the fields the contracts give as null for "none") or exits 1 with a sentence; the
// output never says NaN or Infinity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attn, tempSpec } from '../../support/cli.js';
import { between, seeded } from '../../support/random.js';

/** The fields the contracts allow to be null, meaning "none" (no W_O, too few tokens, a singular matrix). */
const NONE = /\.(duplicateToken|induction|ov|covariance|correlation|varianceExplained|conditionNumber|q|k|v|output)$/;

/** Every null in a parsed JSON value, by its path. */
function nulls(v: unknown, path = '$', out: string[] = []): string[] {
  if (v === null) out.push(path);
  else if (Array.isArray(v)) v.forEach((x, i) => nulls(x, `${path}[${i}]`, out));
  else if (typeof v === 'object') for (const [k, x] of Object.entries(v as object)) nulls(x, `${path}.${k}`, out);
  return out;
}

test('60 specs with numbers from 1e-320 to 1e300 through compute, analyze and train --json: finite JSON or one refusal', async () => {
  const rand = seeded(60);
  const counts = { printed: 0, refused: 0 };
  for (let c = 0; c < 60; c++) {
    // One scale a spec (its numbers within a few powers of ten of it): tiny, ordinary or huge.
    const scale = between(rand, -320, 300);
    const size = () => (rand() < 0.5 ? -1 : 1) * 10 ** Math.max(-323, Math.min(307, scale + between(rand, -2, 2))) * (1 + rand());
    const row = () => [size(), size(), size()];
    const spec = JSON.stringify({
      embeddings: { a: row(), b: row(), c: row() },
      inputs: [{ name: 'x', tokens: ['a', 'b', 'c'] }],
      heads: [{ name: 'h', wq: [row(), row(), row()], wk: [row(), row(), row()], wv: 'identity' }],
      train: { head: 'h', learn: ['wq'], targets: [{ input: 0, query: 'a', key: 'b' }], steps: 3, rate: 0.01 },
    });
    const file = tempSpec(spec);
    for (const command of ['compute', 'analyze', 'train']) {
      const r = await attn(command, file, '--json');
      const where = `case ${c}, attn ${command}`;
      assert.doesNotMatch(r.out + r.err, /\bNaN\b|Infinity/, where);
      if (r.code === 0) {
        counts.printed++;
        assert.deepEqual(nulls(JSON.parse(r.out)).filter((p) => !NONE.test(p)), [], `${where}: no number became null`);
      } else {
        counts.refused++;
        assert.equal(r.code, 1, `${where}: ${r.err}`);
        assert.ok(r.err.trim().length > 0, `${where}: says why`);
      }
    }
  }
  assert.ok(counts.printed > 20 && counts.refused > 20, `both outcomes drawn: ${JSON.stringify(counts)}`);
});
