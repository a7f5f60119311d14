// The head view of a model run's value-weighted norms: coloured on the norms' own scale (this head's
// largest norm), titled as norms, and the hover writes the product out: α × ‖v W_O‖ = the norm, α
// being the norm over the key's ‖v W_O‖. A head switched off says so in its title.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanModel } from '../../../../../src/core/model-attention/scan.js';
import { normProduct } from '../../../../../webview/views/model/head.js';
import { memoryAttention, randomAttention } from '../../../../support/model-fixture.js';
import { drawModel } from '../../../../support/model-views.js';

const tokens = ['The', 'cat', 'sat', 'on'];
const n = tokens.length;
const base = scanModel(memoryAttention(randomAttention(1, 2, n), 1, 2, n, tokens));
const alpha = Float32Array.from([1, 0, 0, 0, 0.25, 0.75, 0, 0, 0.5, 0.25, 0.25, 0, 0.1, 0.2, 0.3, 0.4]);
const valueNorms = Float32Array.from([2, 4, 0, 8]);
const norms = alpha.map((a, k) => a * valueNorms[k % n]);
const data = { ...base, header: { ...base.header, norms: true }, head: { layer: 0, head: 1, weights: norms, valueNorms } };

test('normProduct writes α × ‖v W_O‖ = norm, and says when a key\'s value writes nothing', () => {
  assert.equal(normProduct(2.912, 3.2), 'α 0.91 × ‖v W_O‖ 3.2 = 2.912');
  assert.equal(normProduct(0, 0), 'α — × ‖v W_O‖ 0 = 0 (this key\'s value writes nothing)');
  assert.equal(normProduct(1.5, undefined), '‖α v W_O‖ 1.5');
});

test('the norms head: its title and colour scale are the norms\', its hover the product', () => {
  const { svg, key, active, tips } = drawModel('head', data, { interactive: true });
  assert.match(svg.querySelector('text')!.textContent!, /^layer 1 head 2: 4 × 4 norms$/);
  assert.match(svg.querySelector('text.note')!.textContent!, /colour from 0 to this head's largest value-weighted norm ‖α v W_O‖, 3\.2/);
  (svg.querySelector('rect.cell[tabindex="0"]') as unknown as HTMLElement).focus();
  key(active()!, 'ArrowDown');
  key(active()!, 'ArrowRight');
  // Query 2 "cat" → key 2 "cat": α 0.75, ‖v W_O‖ 4, norm 3.
  assert.deepEqual(tips.at(-1)!.slice(0, 2), ['query #2 "cat" → key #2 "cat"', 'α 0.75 × ‖v W_O‖ 4 = 3']);
  key(active()!, 'ArrowDown');
  key(active()!, 'ArrowRight');
  assert.deepEqual(tips.at(-1)!.slice(0, 2), ['query #3 "sat" → key #3 "sat"', 'α — × ‖v W_O‖ 0 = 0 (this key\'s value writes nothing)']);
});

test('the weights\' head view is unchanged by the norms\' additions; an ablated head says so', () => {
  const weights = { ...base, head: { layer: 0, head: 1, weights: alpha } };
  const { svg, tips, key, active } = drawModel('head', weights, { interactive: true });
  assert.match(svg.querySelector('text')!.textContent!, /^layer 1 head 2: 4 × 4 weights$/);
  (svg.querySelector('rect.cell[tabindex="0"]') as unknown as HTMLElement).focus();
  key(active()!, 'ArrowDown');
  assert.equal(tips.at(-1)![1], 'weight 0.25');
  const ablated = drawModel('head', weights, { ablated: [{ layer: 0, head: 1 }] }).svg;
  assert.match(ablated.querySelector('text')!.textContent!, /^layer 1 head 2 \(ablated\): 4 × 4 weights$/);
  assert.match(ablated.querySelector('text.note')!.textContent!, /^ablated: this run replaced the head's output; /);
});
