// attn render - (src/cli/stdin-input.ts): standard input has no name, so what was read says which
// views apply. A model's attention file read from it is drawn with the model views, and a view name
// that fits neither lists the views of what was read, never the spec views for a model file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomAttention, writeSafetensors } from '../../support/model-fixture.js';
import { ROOT } from '../../support/paths.js';
import { tempDir } from '../../support/temp-dir.js';
import { npyFloat32, zipOf } from '../../support/tensor-files.js';
import { attentionFormat } from '../../../src/core/tensors/attention-file.js';
import { MODEL_VIEW_NAMES, VIEW_NAMES } from '../../../src/core/vocabulary.js';
import { exampleText } from '../../support/specs.js';
import { between, seeded } from '../../support/random.js';
import { readStdin } from '../../../src/cli/stdin-input.js';
import { readSpecText } from '../../../src/cli/read-file.js';

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
  assert.equal(binary.stderr.trim(), 'attn render: standard input: 1:1: the file is UTF-16; save it as UTF-8 (JSON files are UTF-8)');
});

test('/dev/fd/0 is standard input too: a model file given as it is drawn with the model views', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'render', '/dev/fd/0', '--view', 'head'], { cwd: ROOT, input: safetensorsBytes(), encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /<svg/);
});

/** readStdin over a file's descriptor (as fd 0 would be), and how many bytes it left unread. */
function readFromFile(bytes: Buffer, maxSpecBytes: number) {
  const file = join(tempDir('attn-stdin-'), 'input');
  writeFileSync(file, bytes);
  const fd = openSync(file, 'r');
  try {
    const read = readStdin(maxSpecBytes, fd);
    return { read, unread: readFileSync(fd).length };
  } finally {
    closeSync(fd);
  }
}

test('a spec on standard input is read to the spec budget, not the model one, and gets a spec file\'s words (seeded family)', () => {
  const rand = seeded(20261203);
  const words = ['{"a": 1}', 'the', 'cat', 'é', '\n', '"x"', ' '];
  for (let i = 0; i < 40; i++) {
    const text = Array.from({ length: between(rand, 2, 12) }, () => words[between(rand, 0, words.length - 1)]).join(' ');
    const utf8 = Buffer.from(text, 'utf8');
    const at = between(rand, 0, utf8.length);
    const shape = i % 5;
    const bytes = shape === 0 ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
      : shape === 1 ? Buffer.concat([utf8.subarray(0, at), Buffer.alloc(between(rand, 1, 30)), utf8.subarray(at)])
        : shape === 2 ? Buffer.concat([utf8.subarray(0, at), Buffer.from([between(rand, 0xf8, 0xff)]), utf8.subarray(at)])
          : shape === 3 ? Buffer.concat([utf8, Buffer.alloc(between(rand, 3_000, 3_000_000), 0x20)])
            : utf8;
    const budget = 2_000;
    const file = join(tempDir('attn-stdin-'), 'spec.attn.json');
    writeFileSync(file, bytes);
    const asFile = readSpecText(file, budget);
    const { read, unread } = readFromFile(bytes, budget);
    const what = `${shape}: ${JSON.stringify(bytes.subarray(0, 60).toString('latin1'))}`;
    assert.ok(bytes.length - unread <= budget + 1, `${what}: read ${bytes.length - unread} bytes`);
    if ('error' in asFile) assert.deepEqual(read, { error: `standard input: ${asFile.error}` }, what);
    else assert.deepEqual(read, { kind: 'spec', text: asFile.text }, what);
    if (shape !== 4) assert.ok('error' in read, what);
  }
});

test('a model file on standard input is read whole, past the spec budget', () => {
  const bytes = safetensorsBytes();
  const { read, unread } = readFromFile(bytes, 10);
  assert.equal(unread, 0);
  assert.ok('kind' in read && read.kind === 'model' && read.format === 'safetensors');
  assert.deepEqual(Buffer.from(read.bytes), bytes);
  // A stdin that ends inside the first bytes: too short for any format, a spec's text.
  assert.deepEqual(readFromFile(Buffer.from('{}'), 10).read, { kind: 'spec', text: '{}' });
});
