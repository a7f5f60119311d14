// attn render - (src/cli/stdin-input.ts): standard input has no name, so what was read says which
// views apply. A model's attention file read from it is drawn with the model views, and a view name
// that fits neither lists the views of what was read, never the spec views for a model file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomAttention, writeSafetensors } from '../../support/model-fixture.js';
import { ROOT } from '../../support/paths.js';
import { tempDir } from '../../support/temp-dir.js';
import { npyFloat32, zipOf } from '../../support/tensor-files.js';
import { attentionFormat } from '../../../src/core/tensors/attention-file.js';
import { MODEL_VIEW_NAMES, VIEW_NAMES } from '../../../src/core/vocabulary.js';
import { exampleText } from '../../support/specs.js';

const render = (input: Buffer | string, ...flags: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'render', '-', ...flags], { cwd: ROOT, input, encoding: 'utf8', timeout: 60_000 });

function safetensorsBytes(): Buffer {
  const file = join(tempDir('attn-stdin-'), 'run.safetensors');
  writeSafetensors(file, randomAttention(1, 2, 3), 1, 2, 3, ['a', 'b', 'c']);
  return readFileSync(file);
}

test('the formats are told by their first bytes: safetensors, .npy, .npz; a spec\'s text is none of them', () => {
  assert.equal(attentionFormat(safetensorsBytes().subarray(0, 16)), 'safetensors');
  const npy = npyFloat32([2, 2], [1, 0, 0, 1]);
  assert.equal(attentionFormat(npy.subarray(0, 16)), 'npy');
  assert.equal(attentionFormat(zipOf([{ name: 'a.npy', data: npy }]).subarray(0, 16)), 'npz');
  for (const text of ['{"embeddings": {}}', '\ufeff{ }', '        {', '']) assert.equal(attentionFormat(Buffer.from(text)), undefined, JSON.stringify(text));
});

test('a model file on standard input: an unknown view lists the model views; a model view draws it', () => {
  const bytes = safetensorsBytes();
  const wrong = render(bytes, '--view', 'grid');
  assert.equal(wrong.status, 2, wrong.stderr);
  assert.equal(wrong.stderr.trim(), `attn render: standard input holds a model's attention (safetensors): --view must be one of ${MODEL_VIEW_NAMES.join(', ')}`);
  const spec = render(bytes, '--view', 'arcs');
  assert.equal(spec.status, 2);
  assert.match(spec.stderr, /holds a model's attention \(safetensors\): --view must be one of model, head/);
  const head = render(bytes, '--view', 'head');
  assert.equal(head.status, 0, head.stderr);
  assert.match(head.stdout, /^<\?xml[^]*<svg[^]*<\/svg>\s*$/);
  const model = render(bytes);
  assert.equal(model.status, 0, 'without --view, the grid of the model view');
});

test('a spec on standard input: an unknown or model view lists the spec views and says why; a spec view draws it', () => {
  const text = exampleText('mouse-two-contexts.attn.json');
  const wrong = render(text, '--view', 'grid');
  assert.equal(wrong.status, 2);
  assert.equal(wrong.stderr.trim(), `attn render: standard input holds a spec's text, so --view must be one of ${VIEW_NAMES.join(', ')}`);
  const model = render(text, '--view', 'finder');
  assert.equal(model.status, 2);
  assert.match(model.stderr, /--view must be one of arcs, .* \(the model views draw a model's attention file, or a spec on disk: attn render FILE\.attn\.json --view finder\)/);
  const arcs = render(text, '--view', 'arcs');
  assert.equal(arcs.status, 0, arcs.stderr);
  assert.match(arcs.stdout, /<svg/);
  const binary = render(Buffer.from([0xff, 0xfe, 0x00, 0x80, 1, 2, 3]), '--view', 'arcs');
  assert.equal(binary.status, 1);
  assert.equal(binary.stderr.trim(), 'attn render: standard input is neither a model\'s attention file (.safetensors, .npy, .npz) nor a spec\'s UTF-8 text');
});
