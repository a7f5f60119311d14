// The shell's message channel: the VS Code transport posts through the injected API and hears the
// window's 'message' events until told to stop; outside VS Code a stand-in posts to the parent
// window and keeps the state in memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { framedApi, vscodeTransport } from '../../../../webview/shell/transport.js';

test('vscodeTransport posts through the injected API and hears the window\'s messages until stopped', async () => {
  const dom = new JSDOM('<!doctype html><body></body>');
  const win = dom.window as unknown as Window;
  const posted: unknown[] = [];
  const t = vscodeTransport<{ type: string }>({ postMessage: (m) => posted.push(m) }, win);
  t.post({ type: 'ready' });
  assert.deepEqual(posted, [{ type: 'ready' }]);
  const heard: unknown[] = [];
  const stop = t.listen!((m) => heard.push(m));
  dom.window.dispatchEvent(new dom.window.MessageEvent('message', { data: { type: 'render', n: 1 } }));
  assert.deepEqual(heard, [{ type: 'render', n: 1 }], 'the data, unchecked, for the shell to check');
  stop();
  dom.window.dispatchEvent(new dom.window.MessageEvent('message', { data: { type: 'render', n: 2 } }));
  assert.equal(heard.length, 1, 'nothing heard after stop');
  dom.window.close();
});

test('framedApi keeps the state in memory and posts to the parent window', () => {
  const sent: unknown[] = [];
  const win = { parent: { postMessage: (m: unknown, origin: string) => sent.push([m, origin]) } } as unknown as Window;
  const api = framedApi<{ type: string }>(win);
  assert.equal(api.getState(), undefined);
  api.setState({ view: 'arcs' });
  assert.deepEqual(api.getState(), { view: 'arcs' });
  api.postMessage({ type: 'ready' });
  assert.deepEqual(sent, [[{ type: 'ready' }, '*']]);
});
