// The head finder fits the width it is given (at 626 px its last three columns were off-screen
// with the only scrollbar under every row): the statistics share the width, their names slant when
// they do not fit (upright); layers and heads count from 1; the rows are one tab stop the arrows walk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanModel } from '../../../../../src/core/model-attention/scan.js';
import { STAT_NAMES, type HeadStats } from '../../../../../src/core/tensors/head-stats.js';
import { STAT_DEFINITIONS } from '../../../../../webview/views/model/stat-definitions.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { between, seeded } from '../../../../support/random.js';
import { finderLayout, fitNumber, VALUE_GAP } from '../../../../../webview/views/model/finder.js';
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

test('no two numbers of a row run together, whatever their size, the width or the font size', () => {
  const rand = seeded(30);
  // Statistics from 1e-12 to 4,000 (distances of long inputs), as the scan can give them.
  const value = () => (rand() < 0.1 ? 0 : 10 ** (between(rand, -12, 3) + rand()) * (rand() < 0.5 ? 1 : 4));
  for (let c = 0; c < 60; c++) {
    const width = between(rand, 320, 1200), fontSize = [12, 13, 14][c % 3];
    const stats: HeadStats[] = Array.from({ length: 6 }, (_, k) => ({
      layer: Math.floor(k / 3), head: k % 3, entropy: value(), confidence: value(), distance: value(),
      previousToken: value(), duplicateToken: rand() < 0.2 ? null : value(), induction: value(), sink: value(),
    }));
    const { svg } = drawModel('finder', { ...data, header: { ...data.header, stats } }, { width, theme: makeTheme('light', { fontSize }) });
    for (const row of svg.querySelectorAll('g.head-row')) {
      const values = [...row.querySelectorAll('text.value')];
      for (let k = 1; k < values.length; k++) {
        const a = values[k - 1], b = values[k];
        const end = Number(a.getAttribute('x')) + textWidth(a.textContent!.replace(/[0-9]/g, '0'), fontSize);
        assert.ok(end + VALUE_GAP <= Number(b.getAttribute('x')), `case ${c} (${width} px, font ${fontSize}): "${a.textContent}" ends at ${end.toFixed(1)}, "${b.textContent}" starts at ${b.getAttribute('x')}`);
        assert.ok(!a.textContent!.includes('…'), 'a number is never cut');
      }
    }
  }
});

test('what each statistic measures is on screen, and a column\'s hover or focus says it too', () => {
  const { svg, tips } = drawModel('finder', data, { interactive: true, width: 430 });
  const legend = [...svg.querySelectorAll('text.legend-line')].map((t) => t.textContent).join(' ');
  for (const k of STAT_NAMES) assert.ok(legend.includes(`${k}: ${STAT_DEFINITIONS[k].split(' ')[0]}`), `${k} is defined in the legend: ${legend}`);
  assert.match(legend, /sink: the weight parked on the first token/);
  assert.match(legend, /induction: the weight on the token after an earlier copy/);
  // The legend lies above the columns' names, each line inside the picture.
  const width = Number(svg.getAttribute('width'));
  const lastLegend = Math.max(...[...svg.querySelectorAll('text.legend-line')].map((t) => Number(t.getAttribute('y'))));
  const firstRow = Number(/translate\(0,([\d.]+)\)/.exec(svg.querySelector('g.head-row')!.getAttribute('transform')!)![1]);
  assert.ok(lastLegend + 20 < firstRow, 'above the table');
  for (const t of svg.querySelectorAll('text.legend-line')) assert.ok(Number(t.getAttribute('x')) + textWidth(t.textContent!, 12) <= width, `"${t.textContent}" fits ${width} px`);
  const column = svg.querySelector<SVGTextElement>('text.column[data-stat="sink"]')!;
  assert.match(column.getAttribute('aria-label')!, /sink: the weight parked on the first token/);
  (column as unknown as HTMLElement).focus();
  assert.deepEqual(tips.at(-1), ['sink: the weight parked on the first token', 'click or Enter: sort by sink']);
  // The picture `attn render` writes keeps it in each name's hover.
  const still = drawModel('finder', data, { width: 430 }).svg;
  assert.equal(still.querySelector('text.column[data-stat="induction"] title')!.textContent, `induction: ${STAT_DEFINITIONS.induction}`);
});

test('16 × 32 heads of 8,192 tokens: one row a head, every statistic a column (entropy, distance, sink among them), sorted, bounded', async () => {
  const { longRunData } = await import('../../../../support/long-run-data.js');
  const long = longRunData();
  for (const stat of ['entropy', 'distance', 'sink', 'previousToken'] as const) {
    const began = performance.now();
    const { svg } = drawModel('finder', long, { interactive: true, width: 900, stat });
    assert.ok(performance.now() - began < 20_000, 'a hang guard, not a benchmark');
    const rows = [...svg.querySelectorAll('g.head-row')];
    assert.equal(rows.length, 512);
    assert.deepEqual(Array.from(svg.querySelectorAll('text.column'), (t) => t.getAttribute('data-stat')), [...STAT_NAMES]);
    const values = rows.map((r) => long.header.stats.find((s) => s.layer === Number(r.getAttribute('data-layer')) && s.head === Number(r.getAttribute('data-head')))![stat]!);
    assert.ok(values.every((v, k) => k === 0 || v <= values[k - 1]), `sorted by ${stat}, highest first`);
    assert.ok(svg.querySelectorAll('*').length < 10_000, `${svg.querySelectorAll('*').length} elements`);
    assert.equal(svg.querySelectorAll('g.head-row[tabindex="0"]').length, 1, 'the rows are one tab stop');
  }
  // A distance in the thousands fits its column, never cut.
  const { svg } = drawModel('finder', long, { width: 430, stat: 'distance' });
  for (const t of svg.querySelectorAll('text.value[data-stat="distance"]')) assert.doesNotMatch(t.textContent!, /…/);
});
