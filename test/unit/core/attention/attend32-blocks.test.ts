// A head computed a block of rows at a time over the keys each block sees (attend32.ts) gives the
// very bits of the head computed whole, scores over all n keys and the mix at depth n: at 4,200 keys
// (over BLOCK_CELLS / n rows a block, so several blocks), for the causal mask, sliding windows, no
// mask, a softcap, grouped-query heads and a suffix of queries. The blocks' rows are what onBlock hands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KeyMask } from '../../../../src/core/attention/attend.js';
import { attendEach32, blockRows, keyRange, softmaxRow } from '../../../../src/core/attention/attend32.js';
import { gemm32 } from '../../../../src/core/kernels/gemm32.js';
import { seeded } from '../../../support/random.js';

function random(rand: () => number, count: number, scale: number): Float32Array {
  return Float32Array.from({ length: count }, () => (rand() - 0.5) * 2 * scale);
}

function columns(m: Float32Array, rows: number, stride: number, from: number, width: number): Float32Array {
  const out = new Float32Array(rows * width);
  for (let r = 0; r < rows; r++) out.set(m.subarray(r * stride + from, r * stride + from + width), r * width);
  return out;
}

/** One head whole: every score over n keys, each row's softmax over the full row, the mix at depth n. */
function wholeHead(q: Float32Array, k: Float32Array, v: Float32Array, rows: number, first: number, n: number, D: number, divisor: number, mask: KeyMask, cap: number | undefined) {
  const weights = gemm32(q, rows, D, k, n, true);
  for (let r = 0; r < rows; r++) softmaxRow(weights, r * n, first + r, n, divisor, mask, cap);
  return { weights, mixed: gemm32(weights, rows, n, v, D, false) };
}

const same = (a: Float32Array, b: Float32Array) => Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;

test('a head in row blocks over the keys they see is the whole head bit for bit: weights and outputs, every mask, softcap, GQA, a suffix', () => {
  const n = 4200, D = 4, heads = 2, kvHeads = 1;
  assert.ok(blockRows(n) < n / 3, 'several blocks');
  const rand = seeded(5);
  const cases: { mask: KeyMask; first: number; softcap?: number }[] = [
    { mask: 'causal', first: 0 }, { mask: { window: 700 }, first: 0, softcap: 1.5 }, { mask: 'none', first: 0 }, { mask: 'causal', first: 1234 },
  ];
  for (const { mask, first, softcap } of cases) {
    const rows = n - first, divisor = 2;
    const q = random(rand, rows * heads * D, 3), k = random(rand, n * kvHeads * D, 3), v = random(rand, n * kvHeads * D, 1);
    const whole: Float32Array[] = [];
    const cut: { h: number; r0: number; count: number; from: number; to: number; w: Float32Array }[] = [];
    const out = attendEach32({
      q, k, v, n, first, heads, kvHeads, headDim: D, divisor, mask, ...(softcap ? { softcap } : {}),
      onHead: (_, w) => whole.push(w),
      onBlock: (h, r0, count, from, to, w) => {
        assert.deepEqual({ from, to }, keyRange(first + r0, first + r0 + count, n, mask));
        cut.push({ h, r0, count, from, to, w: w.slice() });
      },
    });
    assert.ok(cut.length >= 2 * heads, `${cut.length} blocks`);
    // Each block's rows are the whole head's rows cut to the keys they see; the rest are 0 there.
    for (const { h, r0, count, from, to, w } of cut) {
      for (let r = 0; r < count; r++) {
        const row = whole[h].subarray((r0 + r) * n, (r0 + r + 1) * n);
        assert.ok(same(w.subarray(r * (to - from), (r + 1) * (to - from)), row.subarray(from, to)));
        assert.ok(row.subarray(0, from).every((x) => x === 0) && row.subarray(to).every((x) => x === 0));
      }
    }
    const what = `mask ${JSON.stringify(mask)} from ${first}${softcap ? ` softcap ${softcap}` : ''}`;
    for (let h = 0; h < heads; h++) {
      const want = wholeHead(columns(q, rows, heads * D, h * D, D), k, v, rows, first, n, D, divisor, mask, softcap);
      assert.ok(same(whole[h], want.weights), `${what}: head ${h}'s weights`);
      assert.ok(same(columns(out, rows, heads * D, h * D, D), want.mixed), `${what}: head ${h}'s output`);
    }
  }
});
