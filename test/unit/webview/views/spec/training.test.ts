// The Training view: drawn from the run the core computed, in the panel (interactive: play, step,
// reset) and by `attn render --view training` (the last step).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../../src/cli/render.js';
import { analyze } from '../../../../../src/core/index.js';
import { renderTraining } from '../../../../../webview/views/spec/training.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
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

test('in the panel: Reset goes to step 0, Step moves one frame, Play runs to the end', async () => {
  const dom = new JSDOM('<!doctype html><div id="root"></div>', { pretendToBeVisual: true });
  const root = dom.window.document.getElementById('root')!;
  const handle = renderTraining(root, data, { theme: makeTheme('dark'), width: 900, head: 0, input: 0, token: 0, matrixMode: 'weights', projection: 'wq', interactive: true });
  const label = () => root.querySelector('text.step-label')!.textContent!;
  const press = (name: string) => {
    const b = Array.from(root.querySelectorAll('g.control')).find((c) => c.textContent === name || c.textContent!.startsWith(name))!;
    b.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  };
  assert.match(label(), /^step 200 of 200/);
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
