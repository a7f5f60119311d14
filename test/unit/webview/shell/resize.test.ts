// The width watch: a ResizeObserver on the element where there is one, the window's 'resize' where
// not; only a change of more than RESIZE_SLACK pixels from the width drawn at counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { RESIZE_SLACK, watchWidth } from '../../../../webview/shell/resize.js';

function element() {
  const dom = new JSDOM('<!doctype html><body><div id="v"></div></body>');
  const el = dom.window.document.getElementById('v') as unknown as HTMLElement;
  const setWidth = (w: number) => Object.defineProperty(el, 'clientWidth', { value: w, configurable: true });
  return { dom, el, setWidth };
}

test('without a ResizeObserver, the window\'s resize is checked against the width drawn at', () => {
  const { dom, el, setWidth } = element();
  let drawnAt = 600, heard = 0;
  const stop = watchWidth(el, () => drawnAt, () => { heard += 1; });
  const resize = () => dom.window.dispatchEvent(new dom.window.Event('resize'));
  setWidth(600 + RESIZE_SLACK);
  resize();
  assert.equal(heard, 0, `${RESIZE_SLACK} px is no change`);
  setWidth(300);
  resize();
  assert.equal(heard, 1);
  drawnAt = 300;
  resize();
  assert.equal(heard, 1, 'drawn at that width already');
  stop();
  setWidth(900);
  resize();
  assert.equal(heard, 1, 'nothing after stop');
  dom.window.close();
});

test('with a ResizeObserver, the element itself is observed, and disconnected on stop', () => {
  const { dom, el, setWidth } = element();
  const made: { callback: () => void; observed: Element[]; disconnected: boolean }[] = [];
  Object.defineProperty(dom.window, 'ResizeObserver', {
    configurable: true,
    value: class {
      private readonly o = { callback: () => {}, observed: [] as Element[], disconnected: false };
      constructor(callback: () => void) { this.o.callback = callback; made.push(this.o); }
      observe(target: Element) { this.o.observed.push(target); }
      disconnect() { this.o.disconnected = true; }
    },
  });
  let heard = 0;
  const stop = watchWidth(el, () => 0, () => { heard += 1; });
  assert.equal(made.length, 1);
  assert.deepEqual(made[0].observed, [el]);
  setWidth(700);
  made[0].callback();
  assert.equal(heard, 1);
  dom.window.dispatchEvent(new dom.window.Event('resize'));
  assert.equal(heard, 1, 'the window\'s resize is not also heard');
  stop();
  assert.equal(made[0].disconnected, true);
  dom.window.close();
});
