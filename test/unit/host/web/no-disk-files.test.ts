// On the web a spec's tensor files are refused at their "file", in one line saying why (no disk there),
// by the analyst of the web build's worker and of its host thread alike; the rest of the spec still reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyst } from '../../../../src/host/analysis/analyst.js';
import { filesNotRead, TENSOR_FILES_ON_THE_WEB } from '../../../../src/host/web/no-disk-files.js';

const SPEC = JSON.stringify({
  embeddings: { a: [1, 0], b: [0, 1] }, inputs: [{ name: 'x', tokens: ['a', 'b'] }],
  heads: [{ name: 'h', wq: { file: 'weights/wq.npy' }, wk: [[1, 0], [0, 1]], wv: [[1, 0], [0, 1]] }],
});

test('a tensor file a spec names is a problem at its "file", saying the web reads none', () => {
  const analyst = new Analyst(undefined, undefined, filesNotRead);
  const a = analyst.answer({ text: SPEC, folder: 'vscode-remote://localhost/ws/spec.attn.json' });
  assert.equal(a.wire, undefined);
  const errors = a.problems.filter((p) => p.severity === 'error');
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.equal(errors[0].path, 'heads[0].wq.file');
  assert.equal(errors[0].message, `weights/wq.npy: ${TENSOR_FILES_ON_THE_WEB}`);
  assert.match(errors[0].message, /not available in VS Code for the Web/);
});

test('a spec that names no file computes as everywhere', () => {
  const text = SPEC.replace('{"file":"weights/wq.npy"}', '[[1,0],[0,1]]');
  assert.ok(new Analyst(undefined, undefined, filesNotRead).answer({ text, folder: 'vscode-remote://localhost/ws/spec.attn.json' }).wire);
});
