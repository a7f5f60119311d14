// The model editor's messages are checked on both sides, and its page has the panel's strict CSP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostMessageProblem, webviewMessageProblem } from '../../../src/protocol/model-editor.js';
import { scanModel } from '../../../src/core/model-attention/scan.js';
import { modelEditorHtml } from '../../../src/pages/model-editor-html.js';
import { memoryAttention, randomAttention } from '../../support/model-fixture.js';

const { header, thumbnails } = scanModel(memoryAttention(randomAttention(2, 2, 5), 2, 2, 5, ['a', 'b', 'a', 'c', 'b']));

test('messages from the webview: only heads inside the model, only known types', () => {
  assert.equal(webviewMessageProblem({ type: 'ready' }, undefined), undefined);
  assert.equal(webviewMessageProblem({ type: 'head', layer: 1, head: 1 }, header), undefined);
  assert.match(webviewMessageProblem({ type: 'head', layer: 2, head: 0 }, header)!, /no head 2, 0 in 2 × 2/);
  assert.match(webviewMessageProblem({ type: 'head', layer: 0.5, head: 0 }, header)!, /no head/);
  assert.match(webviewMessageProblem({ type: 'head', layer: 0, head: 0 }, undefined)!, /before the model/);
  assert.match(webviewMessageProblem({ type: 'eval', code: 'x' }, header)!, /unknown message type/);
  assert.match(webviewMessageProblem(null, header)!, /not a message/);
  assert.match(webviewMessageProblem({ type: 'painted', view: 'model', items: NaN, drawMs: 1 }, header)!, /malformed/);
  assert.equal(webviewMessageProblem({ type: 'export', format: 'svg', view: 'head', data: '<svg></svg>' }, header), undefined);
  assert.match(webviewMessageProblem({ type: 'export', format: 'exe', view: 'head', data: '' }, header)!, /neither svg nor png/);
  assert.match(webviewMessageProblem({ type: 'export', format: 'png', view: '../../x', data: '' }, header)!, /unknown view/);
});

test('messages from the host: shapes and sizes as the header says', () => {
  assert.equal(hostMessageProblem({ type: 'model', header, thumbnails }, undefined), undefined);
  assert.match(hostMessageProblem({ type: 'model', header, thumbnails: thumbnails.subarray(1) }, undefined)!, /thumbnails/);
  assert.match(hostMessageProblem({ type: 'model', header: { ...header, tokenTexts: ['a'] }, thumbnails }, undefined)!, /tokenTexts/);
  const badStats = header.stats.map((s, k) => (k === 1 ? { ...s, entropy: NaN } : s));
  assert.match(hostMessageProblem({ type: 'model', header: { ...header, stats: badStats }, thumbnails }, undefined)!, /stats\[1\]\.entropy is not a finite number/);
  assert.equal(hostMessageProblem({ type: 'head', layer: 1, head: 0, weights: new Float32Array(25) }, header), undefined);
  assert.match(hostMessageProblem({ type: 'head', layer: 1, head: 0, weights: new Float32Array(24) }, header)!, /not n × n/);
  assert.match(hostMessageProblem({ type: 'head', layer: 1, head: 0, weights: Array(25).fill(0) }, header)!, /not n × n float32/);
  assert.equal(hostMessageProblem({ type: 'rollout', rollout: null }, header), undefined);
  assert.equal(hostMessageProblem({ type: 'error', message: 'x.npy: truncated' }, undefined), undefined);
});

test('a run message: an encoder\'s masked guesses and note are checked as its next tokens are', () => {
  const run = { type: 'run', model: 'tiny-bert', forwardMs: 3, next: [] };
  const guess = { id: 1, token: 'cat', p: 0.5 };
  assert.equal(hostMessageProblem({ ...run, masked: [{ position: 2, guesses: [guess] }] }, header), undefined);
  assert.equal(hostMessageProblem({ ...run, masked: [], note: 'the text holds no mask token' }, header), undefined);
  assert.match(hostMessageProblem({ ...run, masked: [{ position: -1, guesses: [guess] }] }, header)!, /a masked guess that is not/);
  assert.match(hostMessageProblem({ ...run, masked: [{ position: 2, guesses: [{ ...guess, p: 2 }] }] }, header)!, /a masked guess that is not/);
  assert.match(hostMessageProblem({ ...run, masked: { position: 2 } }, header)!, /masked guesses are not a list/);
  assert.match(hostMessageProblem({ ...run, masked: Array(1025).fill({ position: 0, guesses: [] }) }, header)!, /at most 1024/);
  assert.match(hostMessageProblem({ ...run, note: 7 }, header)!, /note is not a short text/);
  assert.match(hostMessageProblem({ ...run, next: [{ id: 1, token: 'x', p: NaN }] }, header)!, /a next token that is not/);
});

test('a run message names its precision as f32 or f64, or not at all; anything else is refused', () => {
  const run = { type: 'run', model: 'gpt2', forwardMs: 3, next: [] };
  for (const precision of ['f32', 'f64', undefined]) assert.equal(hostMessageProblem({ ...run, precision }, header), undefined, String(precision));
  for (const precision of ['f16', 'F32', '', 32, null, {}, ['f32'], '<img src=x>']) {
    assert.match(hostMessageProblem({ ...run, precision }, header)!, /a run whose precision is not "f32" or "f64"/, JSON.stringify(precision));
  }
});

test('the editor page: strict CSP with the nonce, the bundle by nonce, the file name escaped', () => {
  const html = modelEditorHtml({ nonce: 'abcdef0123456789abcdef0123456789', cspSource: 'vscode-webview://x', scriptUri: 'vscode-webview://x/dist/model-webview.js', styleUri: 'vscode-webview://x/media/model.css', fileName: '<img src=x>.npy' });
  assert.match(html, /default-src &#39;none&#39;; script-src &#39;nonce-abcdef0123456789abcdef0123456789&#39;/);
  assert.match(html, /<script nonce="abcdef0123456789abcdef0123456789" src="vscode-webview:\/\/x\/dist\/model-webview.js"><\/script>/);
  assert.ok(!html.includes('<img'));
  assert.match(html, /<p class="model-loading">Reading &#60;img src=x&#62;\.npy…<\/p>/, 'the file name, escaped, in the page before its script runs');
  assert.ok(!html.includes('unsafe'), 'no unsafe-inline, unsafe-eval or wasm-unsafe-eval');
  assert.throws(() => modelEditorHtml({ nonce: 'x"', cspSource: '', scriptUri: '', styleUri: '', fileName: '' }), /nonce/);
});

test('a big head as a picture, windows of it, and show: checked against the header on both sides', () => {
  const big = { ...header, tokens: 2048 }; // a picture is 512² there
  assert.equal(webviewMessageProblem({ type: 'window', layer: 1, head: 1, i0: 128, rows: 128, j0: 0, cols: 128 }, big), undefined);
  assert.match(webviewMessageProblem({ type: 'window', layer: 1, head: 1, i0: 2000, rows: 128, j0: 0, cols: 8 }, big)!, /outside 2048 × 2048/);
  assert.match(webviewMessageProblem({ type: 'window', layer: 1, head: 1, i0: 0, rows: 1024, j0: 0, cols: 1024 }, big)!, /over 262144 cells/);
  assert.match(webviewMessageProblem({ type: 'window', layer: 1, head: 1, i0: -1, rows: 1, j0: 0, cols: 1 }, big)!, /not whole numbers/);
  assert.match(webviewMessageProblem({ type: 'window', layer: 3, head: 1, i0: 0, rows: 1, j0: 0, cols: 1 }, big)!, /no head 3, 1/);
  const picture = { res: 512, indices: new Uint8Array(512 * 512) };
  assert.equal(hostMessageProblem({ type: 'head', layer: 0, head: 1, picture, max: 0.5 }, big), undefined);
  assert.match(hostMessageProblem({ type: 'head', layer: 0, head: 1, picture: { res: 1024, indices: new Uint8Array(1024 * 1024) }, max: 0.5 }, big)!, /neither/);
  assert.match(hostMessageProblem({ type: 'head', layer: 0, head: 1, picture, max: NaN }, big)!, /strongest weight/);
  // A long run keeps every head's picture smaller (256² for 512 heads): any whole side up to min(n, 512).
  assert.equal(hostMessageProblem({ type: 'head', layer: 0, head: 1, picture: { res: 256, indices: new Uint8Array(256 * 256) }, max: 0.5 }, big), undefined);
  for (const res of [0, 2.5, -1, 513]) assert.match(hostMessageProblem({ type: 'head', layer: 0, head: 1, picture: { res, indices: new Uint8Array(Math.max(0, Math.floor(res)) ** 2) }, max: 0.5 }, big)!, /neither/);
  assert.match(hostMessageProblem({ type: 'head', layer: 0, head: 1, picture: { res: 256, indices: new Uint8Array(255 * 255) }, max: 0.5 }, big)!, /neither/);
  assert.equal(hostMessageProblem({ type: 'window', layer: 0, head: 1, i0: 0, rows: 2, j0: 4, cols: 3, weights: new Float32Array(6) }, big), undefined);
  assert.match(hostMessageProblem({ type: 'window', layer: 0, head: 1, i0: 0, rows: 2, j0: 4, cols: 3, weights: new Float32Array(5) }, big)!, /rows × cols float32/);
  assert.equal(hostMessageProblem({ type: 'show', view: 'head', layer: 1, head: 0 }, header), undefined);
  assert.match(hostMessageProblem({ type: 'show', view: 'evil', layer: 1, head: 0 }, header)!, /unknown view/);
  assert.match(hostMessageProblem({ type: 'show', view: 'head', layer: 9, head: 0 }, header)!, /outside the model/);
  // Heads read so far: a prefix is a model; the next ones must follow it.
  assert.equal(hostMessageProblem({ type: 'model', header: { ...header, stats: header.stats.slice(0, 1) }, thumbnails }, undefined), undefined);
  const partial = { ...header, stats: header.stats.slice(0, 1) };
  const side = header.thumb ** 2;
  assert.equal(hostMessageProblem({ type: 'scanned', from: 1, stats: header.stats.slice(1), thumbnails: thumbnails.slice(side), offRows: 0, warnings: [] }, partial), undefined);
  assert.match(hostMessageProblem({ type: 'scanned', from: 1, stats: header.stats.slice(2), thumbnails: thumbnails.slice(2 * side), offRows: 0, warnings: [] }, partial)!, /stats\[1\] is not layer 0 head 1/);
  assert.match(hostMessageProblem({ type: 'scanned', from: 1, stats: header.stats.slice(1), thumbnails: thumbnails.slice(side + 1), offRows: 0, warnings: [] }, partial)!, /thumb²/);
});

test('an export names one of the model views, hyphenated ones included; nothing else', () => {
  for (const view of ['head-tokens', 'logit-lens', 'attribution', 'patching']) {
    assert.equal(webviewMessageProblem({ type: 'export', format: 'svg', view, data: '<svg></svg>' }, header), undefined, view);
  }
  for (const view of ['-', 'head-tokens/..', 'x', '']) assert.match(webviewMessageProblem({ type: 'export', format: 'svg', view, data: '' }, header)!, /unknown view/, view);
});

test('a big head\'s map and its tiles: checked against the header on both sides (level, offsets, cells, arrays, sinks)', () => {
  const long = { ...header, tokens: 32768, thumb: 64, tokenTexts: [] };
  assert.equal(hostMessageProblem({ type: 'model', header: long, thumbnails: new Uint8Array(4 * 64 * 64) }, undefined), undefined, 'a header of 32,768 tokens is a model\'s');
  assert.match(hostMessageProblem({ type: 'model', header: { ...long, tokens: 32769 }, thumbnails: new Uint8Array(4 * 64 * 64) }, undefined)!, /tokens/);
  assert.equal(webviewMessageProblem({ type: 'tile', layer: 1, head: 1, level: 7, i0: 0, j0: 0, rows: 256, cols: 256 }, long), undefined);
  assert.equal(webviewMessageProblem({ type: 'tile', layer: 1, head: 1, level: 0, i0: 32700, j0: 32700, rows: 256, cols: 256 }, long), undefined, 'clipped by the host');
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ level: 8 }, /level 8/], [{ level: -1 }, /level -1/], [{ level: 2.5 }, /level 2.5/], [{ level: '0' }, /level 0, not/],
    [{ i0: -1 }, /within/], [{ j0: 0.5 }, /within/], [{ i0: 32768 }, /within/], [{ rows: 0 }, /not counts/], [{ cols: 1.5 }, /not counts/],
    [{ rows: 512, cols: 256 }, /over the 65536/], [{ layer: 2 }, /no head 2, 1/],
  ];
  for (const [change, why] of bad) assert.match(webviewMessageProblem({ type: 'tile', layer: 1, head: 1, level: 0, i0: 0, j0: 0, rows: 4, cols: 4, ...change }, long)!, why);
  assert.match(webviewMessageProblem({ type: 'tile', layer: 0, head: 0, level: 0, i0: 0, j0: 0, rows: 1, cols: 1 }, undefined)!, /before the model/);
  const tile = { type: 'tile', layer: 0, head: 1, level: 7, i0: 250, j0: 0, rows: 6, cols: 256, max: new Float32Array(6 * 256), sum: new Float32Array(6 * 256), sinkColumns: [{ key: 0, max: new Float32Array(6), sum: new Float32Array(6) }] };
  assert.equal(hostMessageProblem(tile, long), undefined);
  assert.match(hostMessageProblem({ ...tile, rows: 7, max: new Float32Array(7 * 256), sum: new Float32Array(7 * 256) }, long)!, /past the head/);
  assert.match(hostMessageProblem({ ...tile, sum: new Float32Array(5) }, long)!, /rows × cols float32/);
  assert.match(hostMessageProblem({ ...tile, sinkColumns: [{ key: 0, max: new Float32Array(5), sum: new Float32Array(6) }] }, long)!, /sink column/);
  assert.match(hostMessageProblem({ ...tile, sinkColumns: Array(9).fill(tile.sinkColumns[0]) }, long)!, /at most 8/);
  assert.match(hostMessageProblem({ ...tile, head: 2 }, long)!, /outside the model/);
  const picture = { res: 512, indices: new Uint8Array(512 * 512) };
  const map = { n: 32768, levels: 8, sinks: [0, 1200], max: 0.2, sinkMax: 0.9 };
  assert.equal(hostMessageProblem({ type: 'head', layer: 0, head: 1, picture, max: 0.9, map }, long), undefined);
  assert.match(hostMessageProblem({ type: 'head', layer: 0, head: 1, picture, max: 0.9, map: { ...map, levels: 7 } }, long)!, /8 levels/);
  assert.match(hostMessageProblem({ type: 'head', layer: 0, head: 1, picture, max: 0.9, map: { ...map, sinks: [0, 32768] } }, long)!, /sinks/);
  assert.match(hostMessageProblem({ type: 'head', layer: 0, head: 1, picture, max: 0.9, map: { ...map, sinkMax: -1 } }, long)!, /maxima/);
  assert.match(hostMessageProblem({ type: 'head', layer: 0, head: 1, weights: new Float32Array(25), map }, header)!, /not n × n/);
});
