// The summary strip's scale: a spec saved from a real head (Save head as spec…) divides by √32 written
// as a number; the strip rounded nothing and read "scale ÷5.656854249492381" while the matrix and the
// steps beside it said ÷ 5.657. The strip rounds like every view, and keeps the exact number in its tip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { analyze } from '../../../../../src/core/index.js';
import { scaleText, summaryItems } from '../../../../../webview/views/spec/summary.js';
import { join } from 'node:path';
import { ROOT } from '../../../../support/paths.js';

const examplePath = (name: string) => join(ROOT, 'examples', name);

function withScale(scale: unknown) {
  const spec = JSON.parse(readFileSync(examplePath('apple-watch-raw.attn.json'), 'utf8')) as Record<string, unknown>;
  spec.scale = scale;
  const data = analyze(JSON.stringify(spec)).data;
  assert.ok(data, 'the spec computes');
  return summaryItems(data, 0).find((it) => it.label === 'scale')!;
}

test('a numeric scale is rounded like the matrix\'s divisor, the exact number in the tip', () => {
  const item = withScale(Math.sqrt(32));
  assert.equal(item.value, '÷5.657');
  assert.match(item.tip, /5\.656854249492381/);
});

test('an integer scale, sqrt_dk and none are written as before', () => {
  assert.equal(withScale(8).value, '÷8');
  assert.equal(withScale('sqrt_dk').value, '÷√d_k');
  assert.equal(withScale('none').value, 'none');
  assert.equal(scaleText('0.125'), '÷0.125');
});
