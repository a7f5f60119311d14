// The logit-lens view of a model run (webview/views/model/logit-lens.ts): a row per layer ("after
// layer l"), a column per position, the top token written in each cell coloured by its p, the five in
// the hover; repeated words numbered and generated tokens marked in the column labels; a step shows
// only its prefix; until the lens comes (or when it cannot), one line says why. At 430 px the labels
// do not touch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawModel } from '../../../../support/model-views.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { lensOf, runData } from '../../../../support/run-analyses-fixture.js';
import { markGenerated } from '../../../../../webview/views/model/common.js';

const tokens = ['The', ' cat', ' sat', ' on', ' the', ' mat', '.', ' The', ' cat'];

test('each cell is the top token after that layer, coloured by its p; the hover lists the five', () => {
  const lens = lensOf(2, tokens);
  const { svg } = drawModel('logit-lens', runData(2, 2, tokens, { logitLens: lens }));
  const theme = makeTheme('light');
  assert.equal(svg.querySelectorAll('rect.cell').length, 2 * tokens.length);
  const cell = svg.querySelector('rect.cell[data-layer="1"][data-token="2"]')!;
  assert.equal(cell.getAttribute('fill'), theme.seq(lens[1][2][0].p));
  const tip = cell.querySelector('title')!.textContent!.split('\n');
  assert.equal(tip[0], 'after layer 2, at #3 " sat"');
  assert.equal(tip.length, 6);
  assert.equal(tip[1], '" on" (id 20) p = 0.6667');
  assert.ok([...svg.querySelectorAll('text.top-token')].some((t) => t.textContent === '" on"'));
  assert.deepEqual([...svg.querySelectorAll('text')].filter((t) => /^after layer/.test(t.textContent!)).map((t) => t.textContent), ['after layer 1', 'after layer 2']);
  // Repeated words carry their place; a word said once does not.
  const labels = [...svg.querySelectorAll('text.col-label')].map((t) => t.textContent);
  assert.equal(labels[1], '2. " cat"');
  assert.equal(labels[0], '"The"');
  assert.equal(labels[2], '" sat"');
  assert.equal(labels[8], '9. " cat"');
});

test('generated tokens are italic and marked; a step shows only its prefix', () => {
  const data = runData(2, 2, tokens, { logitLens: lensOf(2, tokens), generated: [{ id: 5, token: '.' }, { id: 1, token: ' The' }, { id: 2, token: ' cat' }] });
  data.header = { ...data.header, tokenTexts: markGenerated(tokens, 6) as string[] };
  const { svg } = drawModel('logit-lens', data);
  const label = svg.querySelector('text.col-label[data-token="8"]')!;
  assert.equal(label.getAttribute('font-style'), 'italic');
  assert.match(label.textContent!, /" cat"⁺$/);
  assert.equal(svg.querySelector('text.col-label[data-token="5"]')!.getAttribute('font-style'), null);
  assert.match(svg.querySelector('rect.cell[data-layer="0"][data-token="7"] title')!.textContent!, /#8 " The" \(generated\)/);
  // The views of a step read the run's first tokens: the lens draws those columns only.
  const step = runData(2, 2, tokens.slice(0, 7), { logitLens: lensOf(2, tokens) });
  assert.equal(drawModel('logit-lens', step).svg.querySelectorAll('rect.cell').length, 2 * 7);
});

test('until the lens comes, when it failed, and for a file, one line says so', () => {
  assert.match(drawModel('logit-lens', runData(2, 2, tokens, {})).svg.textContent!, /computing what each layer predicts/);
  assert.match(drawModel('logit-lens', runData(2, 2, tokens, { logitLensError: 'out of memory' })).svg.textContent!, /^logit lens: out of memory/);
  const file = runData(2, 2, tokens);
  delete file.run;
  assert.match(drawModel('logit-lens', file).svg.textContent!, /only a model run/);
});

test('at 430 px the slanted column labels never touch and the row labels stay left of the cells', () => {
  const many = Array.from({ length: 40 }, (_, i) => ` word${i}`);
  const { svg } = drawModel('logit-lens', runData(12, 2, many, { logitLens: lensOf(12, many) }), { width: 430 });
  const xs = [...svg.querySelectorAll('text.col-label')].map((t) => Number(/translate\(([\d.]+),/.exec(t.getAttribute('transform')!)![1]));
  // Slanted 60°, 11 px text needs 11 / sin 60° ≈ 12.7 px between neighbours.
  for (let k = 1; k < xs.length; k++) assert.ok(xs[k] - xs[k - 1] >= 12.7, `labels ${k - 1} and ${k} are ${xs[k] - xs[k - 1]} px apart`);
  const firstCell = Math.min(...[...svg.querySelectorAll('rect.cell')].map((r) => Number(r.getAttribute('x'))));
  for (const t of svg.querySelectorAll('text')) {
    if (/^after layer/.test(t.textContent!)) assert.ok(Number(t.getAttribute('x')) <= firstCell, 'row labels end before the cells');
  }
  // Every cell writes its top token: the view scrolls sideways rather than write none, and the last
  // slanted label has its room inside the picture.
  assert.equal(svg.querySelectorAll('text.top-token').length, 12 * 40);
  assert.ok(Number(svg.getAttribute('width')) >= xs[xs.length - 1] + 45);
  // Past 256 positions the cells only colour (the hover has the tokens).
  const long = Array.from({ length: 300 }, (_, i) => ` w${i}`);
  const wide = drawModel('logit-lens', runData(1, 1, long, { logitLens: lensOf(1, long) }), { width: 430 }).svg;
  assert.equal(wide.querySelectorAll('rect.cell').length, 300);
  assert.equal(wide.querySelectorAll('text.top-token').length, 0);
});

test('in a 430 px panel the note keeps its last words: the last row is the model\'s own prediction', () => {
  const tokens = ['The', ' cat', ' sat'];
  const note = drawModel('logit-lens', runData(2, 2, tokens, { logitLens: lensOf(2, tokens) }), { width: 360 }).svg.querySelector('text.note')!;
  assert.equal(note.querySelector('title'), null, 'no hover: nothing was cut');
  assert.match(note.textContent!, /the last row is the model's own prediction$/);
});
