// The head finder fits the width it is given (at 626 px its last three columns were off-screen
// with the only scrollbar under every row): the statistics share the width, their names slant when
// they do not fit (upright); layers and heads count from 1; the rows are one tab stop the arrows walk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanModel } from '../../../../../src/core/model-attention/scan.js';
import { STAT_NAMES } from '../../../../../src/core/tensors/head-stats.js';
import { finderLayout, fitNumber } from '../../../../../webview/views/model/finder.js';
import { memoryAttention, randomAttention } from '../../../../support/model-fixture.js';
import { drawModel } from '../../../../support/model-views.js';

const data = scanModel(memoryAttention(randomAttention(2, 3, 6), 2, 3, 6, ['a', 'b', 'c', 'a', 'b', 'c']));

test('finderLayout: every column within the width from 406 to 1,176 px; names slant only when they must', () => {
  for (const width of [406, 602, 900, 1176]) {
    const { colW, idW } = finderLayout(width);
    assert.ok(16 + 2 * idW + STAT_NAMES.length * colW <= width, `${width} px: ${colW} px a column`);
  }
  assert.equal(finderLayout(602).slant, true);
  assert.equal(finderLayout(1176).slant, false);
});

test('the finder drawn at 602 px is 602 px wide, with every statistic\'s column inside it', () => {
  const { svg } = drawModel('finder', data, { width: 602 });
  assert.equal(Number(svg.getAttribute('width')), 602);
  const columns = [...svg.querySelectorAll('text.column')];
  assert.equal(columns.length, STAT_NAMES.length);
  for (const c of columns) {
    const x = Number(/translate\(([\d.]+),/.exec(c.getAttribute('transform') ?? '')?.[1] ?? c.getAttribute('x'));
    assert.ok(x < 602 - 30, `${c.textContent} starts at ${x}`);
  }
  const values = [...svg.querySelectorAll('g.head-row')[0].querySelectorAll('text.value')];
  for (const v of values) assert.ok(Number(v.getAttribute('x')) < 602 - 30);
});

test('layers and heads count from 1; the rows are one tab stop and the arrows move between them', () => {
  const { svg, key, active } = drawModel('finder', data, { interactive: true, stat: 'sink' });
  const first = svg.querySelector('g.head-row')!;
  const texts = [...first.querySelectorAll('text')].slice(0, 2).map((t) => Number(t.textContent));
  assert.deepEqual(texts, [Number(first.getAttribute('data-layer')) + 1, Number(first.getAttribute('data-head')) + 1]);
  assert.equal(svg.querySelectorAll('g.head-row[tabindex="0"]').length, 1);
  (svg.querySelector('g.head-row[tabindex="0"]') as unknown as HTMLElement).focus();
  key(active()!, 'ArrowDown');
  assert.equal(active(), svg.querySelectorAll('g.head-row')[1]);
});

test('fitNumber writes a statistic in fewer digits to fit, never cutting it ("4.72…" of 4.72e-3 read as 4.72)', () => {
  assert.equal(fitNumber(4.8213, 80), '4.821');
  assert.equal(fitNumber(0.00472, 80), '0.005', 'as fmt writes it where it fits');
  const narrow = fitNumber(0.00472, 30);
  assert.equal(Number(narrow).toPrecision(1), (0.00472).toPrecision(1), `${narrow} is still the number`);
  assert.ok(!narrow.includes('…'));
  // Figures are one width: '66.51' needs 35.5 px at 12 px, so 33 px gets '66.5' (the 1 was once counted as
  // narrow as an i, and a 430 px finder wrote "1.1780.41").
  assert.equal(fitNumber(66.5114, 33), '66.5');
  assert.equal(fitNumber(1.1178, 33), '1.12');
});
