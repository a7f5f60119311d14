// What the analysis worker does and keeps (src/host/analysis/analyst.ts): a request for the
// linear-algebra numbers of a spec it just computed is made from the kept result (the spec is not
// read or computed again), a request for the result always reads the spec, and only the last few
// results are kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyst, KEPT_RESULTS } from '../../../../src/host/analysis/analyst.js';
import { analyze } from '../../../../src/core/index.js';
import { decodeAttention } from '../../../../src/core/result/wire.js';
import { exampleText } from '../../../support/specs.js';

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
