// scripts/bench-bertviz-json.ts writes json.dumps as Python does, so that the BertViz page the bench
// builds is the page BertViz's head_view() returns. The expected strings below were printed by
// CPython 3.11's json.dumps (floats from numpy float32 .tolist(), as torch's .tolist() gives them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { headViewParamsJson, pythonFloatRepr, pythonJsonHead, pythonJsonString, pythonJsonStrings } from '../../../scripts/bench-bertviz-json.js';

test('pythonFloatRepr writes what Python\'s repr writes, where the exponent and the .0 differ from JavaScript', () => {
  const cases: [number, string][] = [
    [0.1, '0.1'], [1 / 3, '0.3333333333333333'], [2.5e-5, '2.5e-05'], [0.0001, '0.0001'], [1e16, '1e+16'],
    [1e15, '1000000000000000.0'], [123, '123.0'], [5e-324, '5e-324'], [-0, '-0.0'], [0, '0.0'],
    [Math.fround(0.1), '0.10000000149011612'], [Math.fround(1 / 3), '0.3333333432674408'], [1e22, '1e+22'], [1.5e300, '1.5e+300'],
    [Math.fround(1e-5), '9.999999747378752e-06'], [Math.fround(3e-7), '3.000000106112566e-07'], [-2.5, '-2.5'],
    [NaN, 'NaN'], [Infinity, 'Infinity'], [-Infinity, '-Infinity'],
  ];
  for (const [x, repr] of cases) assert.equal(pythonFloatRepr(x), repr, String(x));
});

test('pythonFloatRepr reads back as the same number, in fixed notation from 1e-4 to below 1e16 and in exponent notation outside', () => {
  fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
    const repr = pythonFloatRepr(x);
    assert.ok(Object.is(Number(repr), x), `${x} → ${repr}`);
    const a = Math.abs(x);
    if (a >= 1e-4 && a < 1e16) assert.match(repr, /^-?\d+\.\d+$/);
    else if (a !== 0) assert.match(repr, /^-?\d(\.\d+)?e[+-]\d{2,3}$/);
  }), { numRuns: 2000 });
});

test('pythonJsonString escapes as json.dumps with ensure_ascii: every character outside printable ASCII, DEL too', () => {
  assert.equal(pythonJsonString('t1'), '"t1"');
  assert.equal(pythonJsonString('Ġthe'), '"\\u0120the"');
  assert.equal(pythonJsonString('a\u007fb'), '"a\\u007fb"');
  assert.equal(pythonJsonString('😀'), '"\\ud83d\\ude00"');
  assert.equal(pythonJsonString('x\ny\t"\\'), '"x\\ny\\t\\"\\\\"');
  assert.equal(pythonJsonString('\u0001/'), '"\\u0001/"');
  assert.equal(pythonJsonStrings(['a', 'é']), '["a", "\\u00e9"]');
});

test('pythonJsonHead writes a head\'s rows as nested lists with ", " between items', () => {
  assert.equal(pythonJsonHead([0.5, 0.25, Math.fround(1e-5), 1], 2), '[[0.5, 0.25], [9.999999747378752e-06, 1.0]]');
});

test('headViewParamsJson is json.dumps(params) of head_view(attention, tokens, html_action=\'return\')', () => {
  const heads = [[0.5, 0.25, 1e-5, 1], [0.1, 0.9, 3e-7, 0.75]].map((w) => Float32Array.from(w));
  const attention = { layers: 2, heads: 1, n: 2, head: (l: number) => Float64Array.from(heads[l]) };
  const json = [...headViewParamsJson(attention, ['a', 'é'], 'bertviz-x')].join('');
  assert.equal(json, '{"attention": [{"name": null, "attn": [[[[0.5, 0.25], [9.999999747378752e-06, 1.0]]], [[[0.10000000149011612, 0.8999999761581421], [3.000000106112566e-07, 0.75]]]], "left_text": ["a", "\\u00e9"], "right_text": ["a", "\\u00e9"]}], "default_filter": "0", "root_div_id": "bertviz-x", "layer": null, "heads": null, "include_layers": [0, 1]}');
  // What head_view.js reads from it: the layers × heads × n × n weights as float32 widened.
  const params = JSON.parse(json) as { attention: { attn: number[][][][] }[] };
  assert.deepEqual(params.attention[0].attn[1][0][1], [Math.fround(3e-7), 0.75]);
  assert.throws(() => [...headViewParamsJson(attention, ['a'], 'bertviz-x')], /1 tokens for 2 × 2/);
});
