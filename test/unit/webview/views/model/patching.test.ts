// The patching view of a model run (webview/views/model/patching.ts): layers × heads in diverging
// colours, the score on hover, a click opening the head, the most restoring head named; without
// "patchFrom", "target" and "contrast", one line says what patching needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawModel } from '../../../../support/model-views.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { mostRestoring } from '../../../../../webview/views/model/patching.js';
import { runData, table } from '../../../../support/run-analyses-fixture.js';
import type { ModelPick } from '../../../../../webview/views/model/common.js';

const tokens = ['When', ' Mary', ' and', ' John', ' went', ',', ' John', ' gave', ' to'];
const asked = { target: ' Mary', contrast: ' John', patchFrom: true };

test('each head is a cell of its score, on hover; the most restoring head is named', () => {
  const patching = table(3, 4, 0.1);
  const { svg } = drawModel('patching', runData(3, 4, tokens, { ...asked, patching }));
  const theme = makeTheme('light');
  const cells = [...svg.querySelectorAll('rect.cell[data-head]')];
  assert.equal(cells.length, 12);
  const top = svg.querySelector('rect.cell[data-layer="0"][data-head="1"]')!;
  assert.equal(top.getAttribute('fill'), theme.div(1));
  assert.match(top.querySelector('title')!.textContent!, /^layer 1 head 2\npatched score 0\.9 \(90\.0% of the clean − corrupted difference\)/);
  assert.match(svg.querySelector('text.footer')!.textContent!, /most: layer 1 head 2 at 0\.9/);
  // No columns beside the heads: patching scores heads only.
  assert.equal(svg.querySelectorAll('rect.cell[data-part]').length, 0);
});

test('a click on a head opens it', () => {
  const picks: ModelPick[] = [];
  const { svg } = drawModel('patching', runData(3, 4, tokens, { ...asked, patching: table(3, 4) }), { interactive: true, onPick: (p) => picks.push(p) });
  svg.querySelector('rect.cell[data-layer="2"][data-head="3"]')!.dispatchEvent(new (svg.ownerDocument.defaultView!.MouseEvent)('click', { bubbles: true }));
  assert.deepEqual(picks, [{ view: 'head', layer: 2, head: 3 }]);
});

test('without what patching needs, one line says so', () => {
  assert.match(drawModel('patching', runData(3, 4, tokens, { target: ' Mary' })).svg.textContent!, /give the spec "patchFrom" .* a "target" and a "contrast"/);
  assert.match(drawModel('patching', runData(3, 4, tokens, asked)).svg.textContent!, /this run gave none/);
  assert.match(drawModel('patching', runData(2, 4, tokens, { ...asked, patching: table(3, 4) })).svg.textContent!, /3 layers × 4 heads are not the attention's 2 × 4/);
});

test('heads that tie for the most are all named, not the first alone', () => {
  const patching = [[1, 0], [1.0000004, 0.2]];
  assert.deepEqual(mostRestoring(patching).heads, [{ layer: 0, head: 0 }, { layer: 1, head: 0 }]);
  assert.deepEqual(mostRestoring([[0.5, 0.9], [0.2, Number.NaN]]), { heads: [{ layer: 0, head: 1 }], v: 0.9 });
  const { svg } = drawModel('patching', runData(2, 2, tokens, { ...asked, patching }));
  assert.match(svg.querySelector('text.footer')!.textContent!, /most: layer 1 head 1, layer 2 head 1 at 1/);
});

test('in a 430 px panel the note says all of what a score means, not cut with "…"', () => {
  const { svg } = drawModel('patching', runData(2, 2, tokens, { ...asked, patching: table(2, 2) }), { width: 360 });
  const note = svg.querySelector('text.note')!;
  assert.equal(note.querySelector('title'), null, 'no hover: nothing was cut');
  assert.match(note.textContent!, /0 changes nothing$/);
});
