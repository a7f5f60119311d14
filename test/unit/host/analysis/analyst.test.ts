// What the analysis worker does and keeps (src/host/analysis/analyst.ts): a request for the
// linear-algebra numbers of a spec it just computed is made from the kept result (the spec is not
// read or computed again), a request for the result always reads the spec, and only the last few
// results are kept, of at most KEPT_BYTES of arrays together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Analyst, KEPT_BYTES, KEPT_RESULTS } from '../../../../src/host/analysis/analyst.js';
import { npyBytes, npyDict } from '../../../support/tensor-files.js';
import { folderFiles } from '../../../../src/core/files/spec-files.js';
import { analyze } from '../../../../src/core/index.js';
import { decodeAttention } from '../../../../src/core/result/wire.js';
import { exampleText } from '../../../support/specs.js';
import { tempDir } from '../../../support/temp-dir.js';

const SPECTRUM = exampleText('spectrum-stretch-shear-rotate.attn.json');

test('the linear-algebra numbers of the spec just computed come from its kept result, once', () => {
  const analyst = new Analyst();
  const result = analyst.answer({ text: SPECTRUM, want: 'result' });
  assert.ok(result.wire);
  assert.equal(result.wire.header.linalg, undefined, 'the result comes without them');
  const first = analyst.answer({ text: SPECTRUM, want: 'linalg' });
  const again = analyst.answer({ text: SPECTRUM, want: 'linalg' });
  assert.equal(analyst.reads, 1, 'read and computed once, for the result');
  assert.deepEqual(first.linalg, analyze(SPECTRUM, { linalg: true }).data!.linalg, 'the numbers the core makes');
  assert.equal(again.linalg, first.linalg, 'made once per kept result');
  assert.deepEqual(first.problems, []);
});

test('the numbers of a spec not kept read it once, then keep it', () => {
  const analyst = new Analyst();
  const a = analyst.answer({ text: SPECTRUM, want: 'linalg' });
  assert.equal(a.linalg?.spectra.length, 2);
  assert.equal(a.wire, undefined, 'only what was asked');
  analyst.answer({ text: SPECTRUM, want: 'linalg' });
  assert.equal(analyst.reads, 1);
});

test('another folder is another spec (its tensor files are read from there)', () => {
  const analyst = new Analyst();
  analyst.answer({ text: SPECTRUM, want: 'result' });
  analyst.answer({ text: SPECTRUM, folder: '/nowhere', want: 'linalg' });
  assert.equal(analyst.reads, 2);
});

test('a request for the result reads the spec anew every time (a tensor file it names may have changed)', () => {
  const analyst = new Analyst();
  const a = analyst.answer({ text: SPECTRUM });
  const b = analyst.answer({ text: SPECTRUM });
  assert.equal(analyst.reads, 2);
  assert.notEqual(a.wire!.buffer, b.wire!.buffer);
  const text = exampleText('multi-head-causal.attn.json');
  const core = analyze(text).data!;
  const { header, buffer } = analyst.answer({ text }).wire!;
  const back = decodeAttention(header, buffer);
  assert.deepEqual(Array.from(back.inputs[0].heads[1].weights.data), Array.from(core.inputs[0].heads[1].weights.data));
});

test(`only the last ${KEPT_RESULTS} results are kept`, () => {
  const analyst = new Analyst();
  const texts = Array.from({ length: KEPT_RESULTS + 1 }, (_, i) => SPECTRUM.replace('"stretch"', `"stretch ${i}"`));
  for (const text of texts) analyst.answer({ text });
  assert.equal(analyst.reads, KEPT_RESULTS + 1);
  analyst.answer({ text: texts[KEPT_RESULTS], want: 'linalg' });
  analyst.answer({ text: texts[1], want: 'linalg' });
  assert.equal(analyst.reads, KEPT_RESULTS + 1, 'the newest ones are kept');
  analyst.answer({ text: texts[0], want: 'linalg' });
  assert.equal(analyst.reads, KEPT_RESULTS + 2, 'the oldest was let go');
});

test('a broken spec has problems and no numbers', () => {
  const analyst = new Analyst();
  const result = analyst.answer({ text: '{ "inputs": 3 }' });
  assert.equal(result.wire, undefined);
  assert.ok(result.problems.some((p) => p.severity === 'error'));
  const linalg = analyst.answer({ text: '{ "inputs": 3 }', want: 'linalg' });
  assert.equal(linalg.linalg, undefined);
  assert.equal(analyst.reads, 1);
});

/** A spec of two tokens whose W_Q and W_K are one tensor file, wq.npy, `dModel` rows high (told apart by `title`). */
function fileSpec(title: string, dModel: number): string {
  const embedding = (k: number) => Array.from({ length: dModel }, (_, i) => ((i + k) % 7) / 7);
  return JSON.stringify({
    title, embeddings: { a: embedding(1), b: embedding(2) }, inputs: [{ name: 'x', tokens: ['a', 'b'] }],
    heads: [{ name: 'h', wq: { file: 'wq.npy' }, wk: { file: 'wq.npy' }, wv: { init: 'xavier', shape: [dModel, 4], seed: 2 } }],
  });
}

function writeWq(folder: string, dModel: number, dk: number): void {
  const values = new Float64Array(dModel * dk);
  for (let i = 0; i < values.length; i++) values[i] = ((i * 7919) % 1000) / 1000 - 0.5;
  writeFileSync(join(folder, 'wq.npy'), npyBytes(npyDict('<f8', [dModel, dk]), Buffer.from(values.buffer)));
}

/** Each spec's result asked for in turn (in a function of its own, so that no answer outlives it). */
function answerAll(analyst: Analyst, texts: readonly string[], folder: string): void {
  for (const text of texts) {
    const a = analyst.answer({ text, folder });
    assert.deepEqual(a.problems.filter((p) => p.severity === 'error'), []);
  }
}

test(`the kept results hold at most KEPT_BYTES of arrays together: four specs each naming a 48 MB tensor file are not all kept`, async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // Array buffers are freed after a collection, not during it: collect a few times, letting time pass.
  const held = async () => {
    for (let i = 0; i < 3; i++) { gc(); gc(); await new Promise((r) => setTimeout(r, 20)); }
    return process.memoryUsage().arrayBuffers;
  };
  const folder = tempDir('analyst-kept-');
  try {
    const dModel = 4096, dk = 1536; // 6,291,456 float64: 48 MB, and as much in the spec read from it
    writeWq(folder, dModel, dk);
    const texts = Array.from({ length: KEPT_RESULTS }, (_, i) => fileSpec(`big ${i}`, dModel));
    // Once outside the analyst: the matrix kernel's memory grows to this size once and stays, whoever computes.
    assert.ok(analyze(fileSpec('warm', dModel), { files: folderFiles(folder) }).data);
    const before = await held();
    const analyst = new Analyst(undefined, undefined, folderFiles);
    answerAll(analyst, texts, folder);
    const grown = (await held()) - before;
    assert.ok(analyst.bytesKept <= KEPT_BYTES, `the kept results count ${analyst.bytesKept} bytes`);
    assert.ok(grown <= KEPT_BYTES + 16 * 2 ** 20, `the analyst holds ${(grown / 2 ** 20).toFixed(0)} MB of arrays after four results`);
    // The newest is kept (its numbers need no read); the oldest was let go and is read again for them.
    analyst.answer({ text: texts[KEPT_RESULTS - 1], folder, want: 'linalg' });
    assert.equal(analyst.reads, KEPT_RESULTS);
    const numbers = analyst.answer({ text: texts[0], folder, want: 'linalg' });
    assert.equal(analyst.reads, KEPT_RESULTS + 1);
    assert.ok(numbers.linalg, 'the numbers of a result let go are made all the same');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('a result bigger than the analyst may keep is not kept; its numbers are the core\'s, read again each time', () => {
  const analyst = new Analyst(0);
  analyst.answer({ text: SPECTRUM });
  const numbers = analyst.answer({ text: SPECTRUM, want: 'linalg' });
  assert.equal(analyst.reads, 2, 'nothing kept: read again');
  assert.equal(analyst.bytesKept, 0);
  assert.deepEqual(numbers.linalg, analyze(SPECTRUM, { linalg: true }).data!.linalg);
});
