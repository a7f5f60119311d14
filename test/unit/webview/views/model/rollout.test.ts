// The rollout view's labels: both axes of the matrix and the bars carry their tokens, a repeated
// word with its position (in the labels and in the "most from" line), thinned to as many as fit on
// a long input, and none of them over another at 430, 700 or 1,200 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rolloutOf, scanModel } from '../../../../../src/core/model-attention/scan.js';
import type { ModelRunInfo } from '../../../../../src/core/model-attention/data.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { rolloutToken } from '../../../../../webview/views/model/rollout.js';
import { repeatedWords } from '../../../../../webview/kit/token-names.js';
import { memoryAttention, randomAttention } from '../../../../support/model-fixture.js';
import { drawModel } from '../../../../support/model-views.js';
import { seeded, between } from '../../../../support/random.js';

const TOKENS = ['The', ' cat', ' saw', ' the', ' cat', '.'];
const file = memoryAttention(randomAttention(2, 2, TOKENS.length, 5), 2, 2, TOKENS.length, TOKENS);
const data = { ...scanModel(file), rollout: rolloutOf(file)! };

test('rows, columns and bars are labelled with their tokens; a repeated word has its position', () => {
  const { svg, handle } = drawModel('rollout', data, { token: 5 });
  const texts = (sel: string) => Array.from(svg.querySelectorAll(sel), (t) => t.textContent);
  const expected = ['"The"', '2 " cat"', '" saw"', '" the"', '5 " cat"', '"."'];
  assert.deepEqual(texts('text.row-label'), expected, 'rows: the token whose information it is');
  assert.deepEqual(texts('text.col-label'), expected, 'columns: the token it came from');
  assert.deepEqual(texts('text.bar-label'), expected, 'each bar');
  const most = handle.notes.find((n) => n.startsWith('most from '))!;
  // Every " cat" named in the line says which one it is.
  const cats = most.match(/" cat"( \(token \d\))?/g) ?? [];
  assert.ok(cats.length > 0);
  assert.ok(cats.every((c) => /\(token [25]\)/.test(c)), most);
  assert.doesNotMatch(most, /"The" \(token/, 'a word that occurs once keeps its plain name');
});

test('a long input labels every k-th token, numbered, and says so', () => {
  const n = 120;
  const tokens = Array.from({ length: n }, (_, i) => `w${i % 9}`);
  const long = memoryAttention(randomAttention(1, 2, n, 8), 1, 2, n, tokens);
  const { svg, handle } = drawModel('rollout', { ...scanModel(long), rollout: rolloutOf(long)! }, { width: 430 });
  const rows = Array.from(svg.querySelectorAll('text.row-label'), (t) => t.textContent!);
  assert.ok(rows.length > 3 && rows.length < n, `${rows.length} labels`);
  assert.ok(rows.every((r) => /^\d+ "w\d"$/.test(r)), rows.join(', '));
  assert.equal(svg.querySelectorAll('text.bar-label').length, rows.length);
  assert.match(handle.notes[0], /labels every \d+ tokens/);
});

test('the labels never run into each other, whatever the input\'s length and the width', () => {
  const rand = seeded(30);
  for (let c = 0; c < 40; c++) {
    const n = between(rand, 1, 260);
    const width = [430, 700, 1200][c % 3];
    const tokens = Array.from({ length: n }, () => (rand() < 0.3 ? ' the' : `t${between(rand, 0, 999)}`));
    const a = memoryAttention(randomAttention(1, 1, n, c), 1, 1, n, tokens);
    const { svg } = drawModel('rollout', { ...scanModel(a), rollout: rolloutOf(a)! }, { width });
    for (const sel of ['text.row-label', 'text.col-label', 'text.bar-label']) {
      const labels = [...svg.querySelectorAll(sel)];
      const at = (t: Element) => Number(t.getAttribute('y') ?? /translate\(([\d.]+)/.exec(t.getAttribute('transform')!)![1]);
      for (let k = 1; k < labels.length; k++) {
        const gap = Math.abs(at(labels[k]) - at(labels[k - 1]));
        const size = Number(labels[k].getAttribute('font-size'));
        assert.ok(gap >= size - 0.01, `case ${c} (n ${n}, ${width} px): ${sel} ${k} is ${gap.toFixed(1)} px from the last at font ${size}`);
      }
      // Each within the room it is given (row labels beside the matrix, the others above or under it).
      for (const t of labels) assert.ok(textWidth(t.textContent!, Number(t.getAttribute('font-size'))) <= (sel === 'text.row-label' ? 100 : 84) + 0.01, `case ${c}: "${t.textContent}"`);
    }
    // A repeated word is named with its position in the sentence.
    const repeated = repeatedWords(tokens);
    for (let i = 0; i < n; i++) if (repeated.has(tokens[i])) assert.match(rolloutToken(tokens, i, repeated), /\(token \d+\)$/);
  }
});

test('past its limit the rollout says so in one sentence, with the limit and what gives one, never a blank', () => {
  const cases: [ModelRunInfo | undefined, RegExp][] = [[undefined, /a file of at most 1,024 tokens has one/], [{ model: 'm', next: [], forwardMs: 1 }, /run a text of at most 1,024 tokens/]];
  for (const [run, remedy] of cases) {
    const big = { ...data, header: { ...data.header, tokens: 8192 }, rollout: undefined, ...(run ? { run } : {}) };
    const { svg, handle } = drawModel('rollout', big);
    assert.equal(handle.notes.length, 1);
    const said = handle.notes[0];
    assert.match(said, /^Rollout: not computed past 1,024 tokens/);
    assert.match(said, new RegExp(`this ${run ? 'run' : 'file'} has 8,192`));
    assert.match(said, remedy);
    assert.equal(svg.querySelector('text.message')?.textContent?.replace(/\s+/g, ' '), said, 'the sentence is drawn, not only noted');
    assert.equal(svg.querySelectorAll('image, rect.bar').length, 0, 'no picture of a rollout it does not have');
  }
});

test('within its limit, a rollout not yet there says it is computing', () => {
  const { handle } = drawModel('rollout', { ...data, rollout: undefined });
  assert.deepEqual(handle.notes, ['rollout: computing…']);
});
