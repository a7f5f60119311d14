// The Tokens view (webview/views/spec/tokens.ts): BertViz's head view for a spec. Hover or
// focus a token and only its lines stay, their opacity its weights, the other side's tokens shaded
// by weight; a repeated word keeps its position, so the two "watch" tokens stay apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { analyze } from '../../../../../src/core/index.js';
import { at } from '../../../../../src/core/result/attention-data.js';
import { renderTokens, tokenLabels } from '../../../../../webview/views/spec/tokens.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { exampleText } from '../../../../support/specs.js';
import type { AttentionData } from '../../../../../src/core/result/attention-data.js';

function draw(data: AttentionData, head: number | 'all', interactive = true) {
  const dom = new JSDOM('<!doctype html><div id="r"></div>', { pretendToBeVisual: true });
  const handle = renderTokens(dom.window.document.getElementById('r') as unknown as HTMLElement, data, {
    theme: makeTheme('light'), width: 626, head, input: 0, token: 0, matrixMode: 'weights', projection: 'wq', interactive,
  });
  return { dom, handle, svg: handle.svg };
}

test('hover the query watch in "tech lens": only its four lines stay, each as opaque as its weight, and apple (the 136) is the brightest key', () => {
  const data = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  const { dom, handle, svg } = draw(data, 1);
  const head = data.inputs[0].heads[1];
  assert.equal(svg.querySelectorAll('line.link').length > 4, true, 'at rest every pair has its line');
  const watch = svg.querySelector('text.token.query[data-token="3"]')!;
  watch.dispatchEvent(new dom.window.MouseEvent('pointerover', { bubbles: true }));
  const links = Array.from(svg.querySelectorAll('line.link'));
  assert.ok(links.length > 0 && links.every((l) => l.getAttribute('data-query') === '3'), 'only watch\'s lines');
  for (const l of links) assert.equal(Number(l.getAttribute('stroke-opacity')), at(head.weights, 3, Number(l.getAttribute('data-key'))));
  const shade = (k: number) => Number(svg.querySelector(`rect.shade.key[data-token="${k}"]`)!.getAttribute('fill-opacity'));
  assert.ok(shade(2) > shade(3) && shade(2) > shade(0), 'apple is lit brightest');
  watch.dispatchEvent(new dom.window.MouseEvent('pointerout', { bubbles: true, relatedTarget: null }));
  assert.equal(svg.querySelectorAll('rect.shade').length, 0, 'back at rest');
  handle.destroy();
  dom.window.close();
});

test('keyboard: Tab onto a token and the arrows light each in turn, queries on the left and keys on the right', () => {
  const data = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  const { dom, handle, svg } = draw(data, 'all');
  const first = svg.querySelector('[tabindex="0"]')!;
  assert.equal(first.getAttribute('data-side'), 'query');
  (first as unknown as HTMLElement).focus();
  assert.ok(Array.from(svg.querySelectorAll('line.link')).every((l) => l.getAttribute('data-query') === '0'));
  first.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
  const key = dom.window.document.activeElement!;
  assert.equal(key.getAttribute('data-side'), 'key');
  assert.ok(Array.from(svg.querySelectorAll('line.link')).every((l) => l.getAttribute('data-key') === '0'), 'the key\'s column');
  assert.deepEqual(new Set(Array.from(svg.querySelectorAll('line.link'), (l) => l.getAttribute('data-head'))), new Set(['0', '1']), 'both heads, each in its colour');
  handle.destroy();
  dom.window.close();
});

test('a repeated word stays distinguishable: "watch (1)" and "watch (4)", each lighting its own row', () => {
  assert.deepEqual(tokenLabels(['watch', 'love', 'apple', 'watch']), ['watch (1)', 'love', 'apple', 'watch (4)']);
  const spec = JSON.parse(exampleText('apple-watch-lens.attn.json'));
  spec.inputs = [{ name: 'watch love apple watch', tokens: ['watch', 'love', 'apple', 'watch'] }];
  const data = analyze(JSON.stringify(spec)).data!;
  const { dom, handle, svg } = draw(data, 1);
  const labels = Array.from(svg.querySelectorAll('text.token.query'), (t) => t.childNodes[0].textContent);
  assert.deepEqual(labels, ['watch (1)', 'love', 'apple', 'watch (4)']);
  svg.querySelector('text.token.query[data-token="3"]')!.dispatchEvent(new dom.window.MouseEvent('pointerover', { bubbles: true }));
  assert.ok(Array.from(svg.querySelectorAll('line.link')).every((l) => l.getAttribute('data-query') === '3'), 'the second watch\'s row, not the first\'s');
  handle.destroy();
  dom.window.close();
});

test('attn render draws it too: every token with its weights in the hover, nothing NaN', () => {
  const data = analyze(exampleText('multi-head-causal.attn.json')).data!;
  const { dom, svg } = draw(data, 'all', false);
  const tips = Array.from(svg.querySelectorAll('text.token title'), (t) => t.textContent!);
  assert.equal(tips.length, 2 * data.inputs[0].tokens.length);
  assert.match(tips[0], /as a query: its weights on every key\nhead "/);
  assert.doesNotMatch(svg.textContent!, /NaN|undefined/);
  dom.window.close();
});

test('2,048 tokens: both sides hold 256 around the selected token, said on the picture; a hover names the strongest over all, a click moves them', async () => {
  const { longSpecData, drawSpecView } = await import('../../../../support/long-spec.js');
  const { renderTokens } = await import('../../../../../webview/views/spec/tokens.js');
  const data = longSpecData();
  for (const interactive of [false, true]) {
    const { svg, handle, elements, ms, picks, tips, dom } = drawSpecView(renderTokens, data, { token: 1000, interactive });
    const said = '2,048 tokens, more than the 256 drawn at once: showing tokens 873–1,128 of 2,048 around the selected token; a token\'s hover names its strongest over all of them; click a token to move the window';
    assert.equal(handle.notes[0], said);
    assert.ok(Array.from(svg.querySelectorAll('text.note'), (t) => t.querySelector('title')?.textContent ?? t.textContent).includes(said), 'written on the picture');
    const queries = Array.from(svg.querySelectorAll('text.token.query'), (t) => Number(t.getAttribute('data-token')));
    assert.deepEqual([queries.length, queries[0], queries.at(-1)], [256, 872, 1127]);
    assert.equal(svg.querySelectorAll('text.token.key').length, 256);
    // Too many lines for all at rest: the selected token's are drawn, never an empty picture.
    const resting = Array.from(svg.querySelectorAll('line.link'));
    assert.ok(resting.length > 0 && resting.every((l) => l.getAttribute('data-query') === '1000'), `${resting.length} lines at rest`);
    assert.ok(handle.notes.includes('256 tokens: the lines are drawn for one token at a time: the selected one, or the one hovered or focused'));
    assert.ok(elements < 1500, `${elements} elements`);
    assert.ok(ms < 20_000, 'a hang guard, not a benchmark');
    if (interactive) {
      const q = svg.querySelector('text.token.query[data-token="1000"]')!;
      q.dispatchEvent(new dom.window.FocusEvent('focusin', { bubbles: true }));
      // Its strongest key is "w0" at token 1, far before the window: the hover names it.
      assert.match(tips.at(-1)!.join('\n'), /head "[^"]+": w0 \(1\) [\d.]+/);
      assert.ok(svg.querySelectorAll('line.link').length <= 256, 'its lines: to the keys shown');
      const k = svg.querySelector('text.token.key[data-token="900"]')!;
      k.dispatchEvent(new dom.window.FocusEvent('focusin', { bubbles: true }));
      assert.ok(Array.from(svg.querySelectorAll('line.link')).every((l) => l.getAttribute('data-key') === '900'), 'a key lit: the queries reading it');
      k.dispatchEvent(new dom.window.FocusEvent('focusout', { bubbles: true }));
      assert.ok(Array.from(svg.querySelectorAll('line.link')).every((l) => l.getAttribute('data-query') === '1000'), 'left: back to the selected token\'s lines');
      q.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
      assert.deepEqual(picks, [{ token: 1000 }]);
    }
    dom.window.close();
  }
});
