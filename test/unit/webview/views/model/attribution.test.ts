// The attribution view of a model run (webview/views/model/attribution.ts and head-map.ts): layers ×
// heads in diverging colours on a scale symmetric about 0 (0 the background's white, the largest |share|
// the full colour), the MLPs and biases beside, the embeddings below, the total written; a click or
// Enter on a head opens it in the head view; without a target, one line says what to add. At 430 px
// nothing overlaps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawModel } from '../../../../support/model-views.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { fmt, textWidth } from '../../../../../webview/kit/format.js';
import { attributionOf, runData } from '../../../../support/run-analyses-fixture.js';
import type { ModelPick } from '../../../../../webview/views/model/common.js';

const tokens = ['When', ' Mary', ' and', ' John', ' went', ',', ' John', ' gave', ' to'];

test('each head, MLP and bias is a cell coloured by its share on a symmetric scale; the total is written', () => {
  const a = attributionOf(2, 3);
  const { svg } = drawModel('attribution', runData(2, 3, tokens, { target: ' Mary', contrast: ' John', attribution: a }));
  const theme = makeTheme('light');
  const heads = [...svg.querySelectorAll('rect.cell[data-head]')];
  assert.equal(heads.length, 6);
  const max = Math.max(...a.heads.flat().map(Math.abs), ...a.mlps.map(Math.abs), Math.abs(a.embed), Math.abs(a.normBias));
  for (const el of heads) {
    const v = a.heads[Number(el.getAttribute('data-layer'))][Number(el.getAttribute('data-head'))];
    assert.equal(el.getAttribute('fill'), theme.div(v / max));
  }
  // The strongest share is the full colour; 0 (the biases here) is the scale's white middle.
  assert.equal(svg.querySelector('rect.cell[data-layer="0"][data-head="1"]')!.getAttribute('fill'), theme.div(1));
  assert.equal(svg.querySelector('rect.cell[data-part="attention output bias"]')!.getAttribute('fill'), theme.div(0));
  assert.equal(svg.querySelectorAll('rect.cell[data-part="MLP"]').length, 2);
  assert.ok(svg.querySelector('rect.cell[data-part="embeddings"]'));
  assert.ok(svg.querySelector('rect.cell[data-part="final norm bias"]'));
  assert.ok(svg.querySelector('text.footer')!.textContent!.startsWith(`total ${fmt(a.total)} = heads `));
  assert.match(svg.textContent!, /Direct logit attribution to logit\(" Mary"\) − logit\(" John"\)/);
  // Each cell's hover says its share of the difference.
  assert.match(heads[0].querySelector('title')!.textContent!, /^layer 1 head 1\n.* of logit\(" Mary"\) − logit\(" John"\) = /);
});

test('a click or Enter on a head opens it in the head view', () => {
  const picks: ModelPick[] = [];
  const { svg, key } = drawModel('attribution', runData(2, 3, tokens, { target: '1234', attribution: attributionOf(2, 3) }), { interactive: true, onPick: (p) => picks.push(p) });
  const cell = svg.querySelector('rect.cell[data-layer="1"][data-head="2"]')!;
  cell.dispatchEvent(new (svg.ownerDocument.defaultView!.MouseEvent)('click', { bubbles: true }));
  key(svg.querySelector('rect.cell[data-layer="0"][data-head="1"]')!, 'Enter');
  assert.deepEqual(picks, [{ view: 'head', layer: 1, head: 2 }, { view: 'head', layer: 0, head: 1 }]);
  // The target given as an id is named as one.
  assert.match(svg.textContent!, /logit\(token 1234\)/);
});

test('without a target, or from a file, one line says what is missing', () => {
  const none = drawModel('attribution', runData(2, 3, tokens, {})).svg;
  assert.match(none.querySelector('text.message')!.textContent!, /give the spec a "target" token/);
  const file = runData(2, 3, tokens);
  delete file.run;
  assert.match(drawModel('attribution', file).svg.textContent!, /only a model run/);
  const failed = drawModel('attribution', runData(2, 3, tokens, { target: ' Mary' })).svg;
  assert.match(failed.textContent!, /this run gave none/);
});

test('at 430 px a 12 × 12 model\'s labels, legend and total fit without touching', () => {
  const width = 430;
  for (const kind of ['light', 'dark', 'hc-dark'] as const) {
    const { svg } = drawModel('attribution', runData(12, 12, tokens, { target: ' Mary', contrast: ' John', attribution: attributionOf(12, 12) }), { width, theme: makeTheme(kind) });
    assert.ok(Number(svg.getAttribute('width')) <= width, `${kind}: ${svg.getAttribute('width')} px`);
    const labels = [...svg.querySelectorAll('text.col-label')].map((t) => {
      const x = Number(t.getAttribute('x')), w = textWidth(t.textContent!, Number(t.getAttribute('font-size')));
      return [x - w / 2, x + w / 2];
    }).sort((p, q) => p[0] - q[0]);
    for (let k = 1; k < labels.length; k++) assert.ok(labels[k][0] >= labels[k - 1][1], `${kind}: column labels ${k - 1} and ${k} touch`);
    for (const t of svg.querySelectorAll('text.legend-meaning, text.footer tspan, text.note tspan')) {
      assert.ok(textWidth(t.textContent!.trim(), 12) <= width - 8, `${kind}: "${t.textContent}" fits`);
    }
  }
});
