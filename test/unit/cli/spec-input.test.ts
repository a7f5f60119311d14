// The one spec a command reads (src/cli/spec-input.ts): exactly one file, its problems printed at
// their place, the exit code when it cannot go on, and no folder to look in for standard input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeFile, filesBeside, readOneSpec } from '../../../src/cli/spec-input.js';
import { parseArgs, USAGE, type Args } from '../../../src/cli/args.js';
import { EXAMPLES } from '../../support/specs.js';
import { tempDir } from '../../support/temp-dir.js';

const args = (...argv: string[]) => parseArgs(argv) as Args;
function streams() {
  const out: string[] = [], err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}
const lens = join(EXAMPLES, 'apple-watch-lens.attn.json');

test('a command that takes one spec refuses none or two, with the usage', () => {
  for (const files of [[], [lens, lens]]) {
    const s = streams();
    assert.equal(readOneSpec(args('train', ...files), 1e6, s.io, 'train'), 2);
    assert.deepEqual(s.err, [`attn train: name exactly one spec file\n${USAGE}`]);
    const t = streams();
    assert.equal(analyzeFile(args('render', ...files), 1e6, t.io, 'render'), undefined);
    assert.deepEqual(t.err, [`attn render: name exactly one spec file\n${USAGE}`]);
  }
});

test('a spec with an error is refused after its problems are printed at their place; a good one is read', () => {
  const file = join(tempDir('attn-input-'), 'bad.attn.json');
  writeFileSync(file, '{ "embeddings": { "a": [1, 2] }, "inputs": [{ "tokens": ["a", "zz"] }] }');
  const s = streams();
  assert.equal(readOneSpec(args('analyze', file), 1e6, s.io, 'analyze'), 1);
  assert.equal(s.err.length, 1);
  assert.match(s.err[0], /^.*bad\.attn\.json:1:\d+: inputs\[0\]\.tokens\[1\]: /);
  const good = readOneSpec(args('analyze', lens), 1e6, streams().io, 'analyze');
  assert.ok(typeof good === 'object' && good.file === lens && good.spec.inputs.length > 0);
  const computed = analyzeFile(args('compute', lens), 1e6, streams().io, 'compute');
  assert.ok(computed?.json && computed.data.inputs.length === good.spec.inputs.length, 'compute gets its JSON');
});

test('tensor files are looked up beside the spec, and nowhere for standard input', () => {
  assert.equal(filesBeside('-'), undefined);
  assert.ok(filesBeside(lens) !== undefined);
});
