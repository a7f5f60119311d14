// A command never writes over what it reads (src/cli/outputs.ts): attn render's --out and --html are
// refused when they name the spec, a tensor file the spec reads, a model file or its tokens beside
// it, however the path is spelt (absolute, relative with "..", a symbolic link, a hard link), and
// the file is left as it was. Each input × each spelling is a case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { inputReplacedBy } from '../../../src/cli/outputs.js';
import { attn } from '../../support/cli.js';
import { npyFloat32 } from '../../support/tensor-files.js';
import { randomAttention, writeSafetensors } from '../../support/model-fixture.js';
import { tempDir } from '../../support/temp-dir.js';

function folder() {
  const dir = tempDir('attn-outputs-');
  const put = (name: string, text: string | Buffer) => { writeFileSync(join(dir, name), text); return join(dir, name); };
  const wq = put('wq.npy', npyFloat32([2, 2], [1, 0, 0, 1]));
  const spec = put('lens.attn.json', JSON.stringify({ inputs: [{ name: 'ab', tokens: ['a', 'b'] }], embeddings: { a: [1, 0], b: [0, 1] }, heads: [{ name: 'h', wq: { file: 'wq.npy' }, wk: [[1, 0], [0, 1]], wv: [[1, 0], [0, 1]] }] }));
  const model = join(dir, 'run.safetensors');
  writeSafetensors(model, randomAttention(1, 2, 3), 1, 2, 3);
  const tokens = put('run.tokens.json', JSON.stringify(['x', 'y', 'z']));
  const reference = put('ref.attn.json', JSON.stringify({ attention: { file: 'run.safetensors' } }));
  return { dir, wq, spec, model, tokens, reference };
}

/** Four spellings of one file: its path, a relative path through "..", a symbolic link and a hard link to it. */
function spellings(dir: string, file: string, k: number): string[] {
  const sym = join(dir, `sym-${k}-${basename(file)}`), hard = join(dir, `hard-${k}-${basename(file)}`);
  symlinkSync(file, sym);
  linkSync(file, hard);
  return [file, relative(process.cwd(), join(dir, '..', basename(dir), basename(file))), sym, hard];
}

test('render refuses --out or --html naming any file it reads, in four spellings each, and leaves the file as it was', async () => {
  const f = folder();
  const cases: { argv: (out: string) => string[]; inputs: string[] }[] = [
    { argv: (out) => ['render', f.spec, '--view', 'matrix', '--out', out], inputs: [f.spec, f.wq] },
    { argv: (out) => ['render', f.model, '--view', 'model', '--html', out], inputs: [f.model, f.tokens] },
    { argv: (out) => ['render', f.reference, '--view', 'head', '--html', out], inputs: [f.reference, f.model, f.tokens] },
  ];
  let k = 0, checked = 0;
  for (const c of cases) {
    for (const input of c.inputs) {
      const before = readFileSync(input);
      for (const spelt of spellings(f.dir, input, k++)) {
        const r = await attn(...c.argv(spelt));
        assert.equal(r.code, 2, `${c.argv(spelt).join(' ')}: ${r.err}`);
        assert.match(r.err, /(a file (this command|the spec) reads|the spec itself); name another file/);
        assert.deepEqual(readFileSync(input), before, `${spelt} is unchanged`);
        checked++;
      }
    }
  }
  assert.equal(checked, 28);
  // Another name in the folder is written as asked.
  const fine = await attn('render', f.model, '--view', 'model', '--html', join(f.dir, 'page.html'));
  assert.equal(fine.code, 0, fine.err);
});

test('standard input ("-") is no file an output could replace', () => {
  assert.equal(inputReplacedBy('-', ['-']), undefined);
  assert.equal(inputReplacedBy('/tmp/x.svg', ['-']), undefined);
});
