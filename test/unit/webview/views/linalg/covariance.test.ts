// Covariance heat maps, from a newcomer's run in a 676 px panel: the rows and columns carried no
// names, so a reader could not tell which feature was which without hovering every cell. Each row
// and column is now labelled with the spec's feature name (truncated, the full name in its hover).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { analyze } from '../../../../../src/core/index.js';
import { renderSvg } from '../../../../../src/cli/render.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { exampleText } from '../../../../support/specs.js';

const shown = (el: Element) => Array.from(el.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join('');
const draw = (text: string) => new JSDOM(renderSvg(analyze(text, { linalg: true }).data!, 'covariance', { head: 0, width: 676 }), { contentType: 'image/svg+xml' }).window.document;

test('the heat map of X names its rows and columns with the spec\'s features, in order; Q\'s with its axes', () => {
  const doc = draw(exampleText('covariance-redundant-features.attn.json'));
  const [x, q] = Array.from(doc.querySelectorAll('g.feature-space'));
  for (const axis of ['row', 'col']) {
    assert.deepEqual(Array.from(x.querySelectorAll(`text.axis-label.${axis}`), shown), ['is_fruit', 'is_sweet', 'is_tech', 'length'], `X ${axis}s`);
    assert.deepEqual(Array.from(q.querySelectorAll(`text.axis-label.${axis}`), shown), ['q0', 'q1'], `Q ${axis}s`);
  }
});

test('a long feature name is truncated on the axis, its full name in the hover, and no label runs into the cells', () => {
  const long = 'how_strongly_the_word_is_about_technology';
  const spec = JSON.parse(exampleText('covariance-redundant-features.attn.json'));
  spec.features[2] = long;
  const doc = draw(JSON.stringify(spec));
  const x = doc.querySelector('g.feature-space')!;
  const heat = x.querySelector('g.correlation')!;
  const [hx, hy] = (heat.getAttribute('transform') ?? '').match(/-?[\d.]+/g)!.map(Number);
  for (const axis of ['row', 'col']) {
    const label = x.querySelectorAll(`text.axis-label.${axis}`)[2];
    assert.match(shown(label), /…$/, `${axis}: truncated`);
    assert.ok(shown(label).length < long.length);
    assert.equal(label.querySelector('title')?.textContent?.split('\n')[0], long, `${axis}: the full name in the hover`);
  }
  // Row labels end left of the cells; column labels start above them.
  for (const label of Array.from(x.querySelectorAll('text.axis-label.row'))) {
    const right = Number(label.getAttribute('x'));
    assert.equal(label.getAttribute('text-anchor'), 'end');
    assert.ok(right <= hx - 2, `row label ends at ${right}, the cells start at ${hx}`);
    assert.ok(right - textWidth(shown(label), 10) >= -1, 'row label inside the picture');
  }
  for (const label of Array.from(x.querySelectorAll('text.axis-label.col'))) assert.ok(Number(label.getAttribute('y')) <= hy - 2);
});
