// The Training view: drawn from the run the core computed, in the panel (interactive: play, step,
// reset) and by `attn render --view training` (the last step).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import { analyze } from '../../../../../src/core/index.js';
import { renderTraining } from '../../../../../webview/views/spec/training.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { resultProblem } from '../../../../../src/protocol/host-message-check.js';
import { encodeAttention } from '../../../../../src/core/result/wire.js';
import { exampleText } from '../../../../support/specs.js';

const data = analyze(exampleText('learn-apple-watch.attn.json')).data!;

test('the result carries the run: steps + 1 losses, frames from step 0 to the last, each with the head\'s attention', () => {
  const t = data.training!;
  assert.equal(t.loss.length, 201);
  assert.equal(t.frames[0].step, 0);
  assert.equal(t.frames[t.frames.length - 1].step, 200);
  assert.ok(t.frames.length <= 101);
  // watch (3) → apple (2): low at the start, above 0.9 at the end.
  assert.ok(t.frames[0].weights[3][2] < 0.1);
  assert.ok(t.frames[t.frames.length - 1].weights[3][2] > 0.9);
  const wire = encodeAttention(data);
  assert.equal(resultProblem(wire.header, wire.buffer), undefined, 'the panel accepts it');
});

test('a malformed frame is refused by the panel\'s message check, naming it', () => {
  const wire = encodeAttention(data);
  const bad = structuredClone(wire.header);
  bad.training!.frames[3].weights[1] = [1, 2];
  assert.match(resultProblem(bad, wire.buffer) ?? '', /training is malformed: frames\[3\]\.weights\[1\] has 2 numbers, expected 4/);
});

test('attn render --view training draws the last step: the loss, the target outlined, the learnt W_Q and W_K', () => {
  const svg = renderSvg(data, 'training');
  const doc = new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
  assert.match(doc.querySelector('text.step-label')!.textContent!, /^step 200 of 200: loss 0\.000755$/);
  assert.equal(doc.querySelectorAll('g.attention rect.cell').length, 16);
  const target = doc.querySelector('g.attention rect.cell[data-query="3"][data-key="2"]')!;
  assert.ok(Number(target.getAttribute('stroke-width')) > 0, 'the target cell is outlined');
  assert.ok(doc.querySelector('g.learnt.wq') && doc.querySelector('g.learnt.wk'));
  assert.equal(doc.querySelector('g.learnt.wv'), null, 'W_V is not learnt here');
  assert.doesNotMatch(svg, /NaN|undefined/);
});

test('a spec without "train" says how to add one', () => {
  const plain = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  assert.match(renderSvg(plain, 'training'), /No "train" section in this spec/);
});

test('at 430 px the advice to add a "train" section wraps inside the picture (it ran 450 px past the edge)', () => {
  const plain = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  const fs = makeTheme('light').fontSize;
  for (const width of [406, 430]) {
    const doc = new JSDOM(renderSvg(plain, 'training', { width }), { contentType: 'image/svg+xml' }).window.document;
    const text = doc.querySelector('text.message')!;
    const spans = Array.from(text.querySelectorAll('tspan'));
    assert.ok(spans.length >= 2, `${width} px: wrapped`);
    for (const s of spans) assert.ok(Number(s.getAttribute('x')) + textWidth(s.textContent!.trimEnd(), fs) <= width - 4, `${width} px: "${s.textContent}" fits`);
    assert.match(text.textContent!, /to watch gradient descent find the weights\.$/, 'the whole sentence');
  }
});

test('in the panel: Reset goes to step 0, Step moves one frame, Play runs to the end', async () => {
  const dom = new JSDOM('<!doctype html><div id="root"></div>', { pretendToBeVisual: true });
  const root = dom.window.document.getElementById('root')!;
  const handle = renderTraining(root, data, { theme: makeTheme('dark'), width: 900, head: 0, input: 0, token: 0, matrixMode: 'weights', projection: 'wq', interactive: true });
  const label = () => root.querySelector('text.step-label')!.textContent!;
  const press = (name: string) => {
    const b = Array.from(root.querySelectorAll('g.control')).find((c) => c.textContent === name || c.textContent!.startsWith(name))!;
    b.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  };
  // The panel opens at step 0, before any learning (it opened at the last step).
  assert.match(label(), /^step 0 of 200/);
  press('Reset');
  assert.match(label(), /^step 0 of 200/);
  press('Step');
  assert.match(label(), /^step 2 of 200/, 'one frame: the frames are every second step of 200');
  press('Speed');
  press('Play');
  assert.ok(Array.from(root.querySelectorAll('g.control')).some((c) => c.textContent === 'Pause'));
  // Waits for the condition (the last step), however slow the machine: no fixed sleep.
  for (let waited = 0; !/^step 200 of 200/.test(label()) && waited < 60_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  assert.match(label(), /^step 200 of 200/);
  assert.ok(Array.from(root.querySelectorAll('g.control')).some((c) => c.textContent === 'Play'), 'back to Play at the end');
  handle.destroy();
});

/** Each learnt cell's exact value (from its hover) beside the text it shows, and whether the text fits its cell. */
function learntCells(svg: string) {
  const doc = new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
  const fs = makeTheme('light').fontSize - 2;
  return Array.from(doc.querySelectorAll('rect.w-cell')).map((r) => {
    const value = Number(/= (\S+) at step/.exec(r.querySelector('title')!.textContent!)![1]);
    const g = r.parentElement!;
    const text = Array.from(g.querySelectorAll('text.w-text')).find((x) => Math.abs(Number(x.getAttribute('x')) - (Number(r.getAttribute('x')) + Number(r.getAttribute('width')) / 2)) < 1
      && Math.abs(Number(x.getAttribute('y')) - Number(r.getAttribute('y')) - Number(r.getAttribute('height')) / 2) < 6);
    return { value, text: text?.textContent ?? '', width: Number(r.getAttribute('width')), textWidth: (text?.textContent ?? '').length * fs * 0.6 };
  });
}

test('learn-value\'s W_V cells never overlap and never hide a sign (-2.66e-3 read as +2.66e-3), at 430, 626 and 1,200 px', () => {
  const value = analyze(exampleText('learn-value.attn.json')).data!;
  for (const width of [430, 626, 1200]) {
    const cells = learntCells(renderSvg(value, 'training', { width }));
    assert.equal(cells.length, 9);
    for (const c of cells) {
      assert.ok(c.text, `${width} px: ${c.value} has its number written`);
      assert.ok(c.textWidth <= c.width - 2, `${width} px: "${c.text}" (${c.textWidth.toFixed(1)} px) fits its ${c.width} px cell`);
      assert.equal(c.text.startsWith('−'), c.value < 0, `${width} px: ${c.value} is written "${c.text}": its sign shows`);
    }
    const tiny = cells.find((c) => Math.abs(c.value + 0.00266) < 5e-5);
    assert.ok(tiny, 'the seed\'s -2.66e-3 is there');
    assert.equal(tiny.text, '−0.00');
  }
});

test('while learn-apple-watch plays (W_K at step 34 among them), every learnt cell keeps one width and its sign', () => {
  const dom = new JSDOM('<!doctype html><div id="root"></div>', { pretendToBeVisual: true });
  const root = dom.window.document.getElementById('root')!;
  const handle = renderTraining(root, data, { theme: makeTheme('light'), width: 626, head: 0, input: 0, token: 0, matrixMode: 'weights', projection: 'wq', interactive: true });
  const fs = makeTheme('light').fontSize - 2;
  const widths = new Set<string>();
  let seen34 = false;
  for (const frame of data.training!.frames) {
    root.querySelector(`rect.step-band[data-step="${frame.step}"]`)!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    assert.match(root.querySelector('text.step-label')!.textContent!, new RegExp(`^step ${frame.step} of`));
    if (frame.step === 34) seen34 = true;
    for (const role of ['wq', 'wk'] as const) {
      const texts = Array.from(root.querySelectorAll(`g.learnt.${role} text.w-text`), (x) => x.textContent!);
      const rects = Array.from(root.querySelectorAll(`g.learnt.${role} rect.w-cell`));
      assert.equal(texts.length, 9);
      frame[role].flat().forEach((v, k) => {
        assert.equal(texts[k].startsWith('−'), v < 0, `step ${frame.step}, ${role}: ${v} is "${texts[k]}"`);
        assert.ok(texts[k].length * fs * 0.6 <= Number(rects[k].getAttribute('width')) - 2, `"${texts[k]}" fits`);
      });
      rects.forEach((r) => widths.add(r.getAttribute('width')!));
    }
  }
  assert.ok(seen34);
  assert.equal(widths.size, 1, 'the cells keep one width while playing');
  handle.destroy();
  dom.window.close();
});

test('the target\'s weight is plotted beside the loss: watch → apple from 0.0096 at step 0 to 0.999 at the end', () => {
  const dom = new JSDOM('<!doctype html><div id="root"></div>', { pretendToBeVisual: true });
  const root = dom.window.document.getElementById('root')!;
  const handle = renderTraining(root, data, { theme: makeTheme('light'), width: 626, head: 0, input: 0, token: 0, matrixMode: 'weights', projection: 'wq', interactive: true });
  assert.ok(root.querySelector('g.target-curve path') && root.querySelector('g.loss-curve path'));
  assert.match(root.querySelector('g.target-curve text.chart-label')!.textContent!, /^weight watch → apple, raised toward 1/);
  assert.equal(root.querySelector('text.target-value')!.childNodes[0].textContent, 'weight watch → apple = 0.0096 (step 0: 0.0096)');
  handle.destroy();
  dom.window.close();
  const doc = new JSDOM(renderSvg(data, 'training', { width: 626 }), { contentType: 'image/svg+xml' }).window.document;
  assert.match(doc.querySelector('text.target-value')!.textContent!, /^weight watch → apple = 0\.9992 \(step 0: 0\.0096\)/);
});

test('a malformed progress list is refused by the panel\'s message check', () => {
  const wire = encodeAttention(data);
  const bad = structuredClone(wire.header);
  bad.training!.progress = [[1, 2]];
  assert.match(resultProblem(bad, wire.buffer) ?? '', /training is malformed: progress is not one list of numbers per target, as long as loss/);
});
