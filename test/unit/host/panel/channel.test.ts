// The panel's line to its webview (src/host/panel/channel.ts): messages wait for 'ready', the last
// content is sent again to a webview that comes back, and an export is a request answered by id
// (src/protocol/requests.ts): an unknown or repeated answer is refused, no answer times out, a
// closed panel rejects what waits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebviewChannel, type PostTarget } from '../../../../src/host/panel/channel.js';
import { RequestError } from '../../../../src/protocol/requests.js';
import type { HostMessage, ProblemsMessage } from '../../../../src/protocol/panel.js';

function webview(): PostTarget & { sent: HostMessage[] } {
  const sent: HostMessage[] = [];
  return { sent, postMessage: (m: unknown) => { sent.push(m as HostMessage); return Promise.resolve(true); } };
}

const PROBLEMS: ProblemsMessage = { type: 'problems', documentUri: 'file:///a.attn.json', fileName: 'a.attn.json', version: 3, problems: [] };

test('nothing is posted before ready; then the lock, the content and the queued export go, in that order', () => {
  const w = webview();
  const channel = new WebviewChannel(w, () => true);
  channel.show(PROBLEMS);
  void channel.requestExport({ format: 'svg' }).catch(() => {});
  channel.post({ type: 'progress', documentUri: PROBLEMS.documentUri, version: 3, done: 1, total: 2 });
  assert.equal(w.sent.length, 0, 'nothing before ready');
  channel.becameReady();
  assert.deepEqual(w.sent.map((m) => m.type), ['lock', 'problems', 'exportRequest']);
  assert.deepEqual(w.sent[0], { type: 'lock', locked: true });
  channel.hidden();
  channel.becameReady();
  assert.deepEqual(w.sent.slice(3).map((m) => m.type), ['lock', 'problems'], 'the content again, the export not twice');
  channel.dispose();
});

test('an export resolves with the answer to its id; an unknown or repeated answer is refused', async () => {
  const w = webview();
  const channel = new WebviewChannel(w, () => false);
  channel.becameReady();
  const asked = channel.requestExport({ format: 'png', theme: 'light' });
  const request = w.sent.find((m) => m.type === 'exportRequest');
  assert.ok(request && request.type === 'exportRequest');
  assert.equal(request.format, 'png');
  assert.equal(request.theme, 'light');
  assert.equal(channel.answer(request.requestId + 1, { format: 'png', data: 'forged' }), false);
  assert.equal(channel.answer(request.requestId, { format: 'png', data: 'data:image/png;base64,' }), true);
  assert.deepEqual(await asked, { format: 'png', data: 'data:image/png;base64,' });
  assert.equal(channel.answer(request.requestId, { format: 'png', data: 'again' }), false);
  channel.dispose();
});

test('no answer in time rejects, and a late answer is refused; a closed panel rejects what waits', async () => {
  const w = webview();
  const channel = new WebviewChannel(w, () => false, 20);
  channel.becameReady();
  const late = channel.requestExport({ format: 'svg' });
  await assert.rejects(late, RequestError);
  const id = w.sent.find((m) => m.type === 'exportRequest')!;
  assert.equal(channel.answer((id as { requestId: number }).requestId, { format: 'svg', data: '<svg></svg>' }), false);
  const waiting = new WebviewChannel(webview(), () => false);
  const pending = waiting.requestExport({ format: 'svg' });
  waiting.dispose();
  await assert.rejects(pending, /the panel closed/);
  await assert.rejects(waiting.requestExport({ format: 'svg' }), /the panel closed/);
});

test('an answer in another format than the one asked is refused and the request waits for its own (as before requests.ts)', async () => {
  const w = webview();
  const channel = new WebviewChannel(w, () => false);
  channel.becameReady();
  const asked = channel.requestExport({ format: 'svg' });
  const request = w.sent.find((m) => m.type === 'exportRequest');
  assert.ok(request && request.type === 'exportRequest');
  assert.equal(channel.answer(request.requestId, { format: 'png', data: 'data:image/png;base64,' }), false, 'a PNG for an SVG asked');
  assert.equal(channel.answer(request.requestId, { format: 'svg', data: '<svg></svg>' }), true, 'the SVG still answers');
  assert.deepEqual(await asked, { format: 'svg', data: '<svg></svg>' });
  channel.dispose();
});
