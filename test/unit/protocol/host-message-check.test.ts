// The webview's checks of host messages, its saved state, and its number formatting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../../src/core/index.js';
import { isHostMessage, readHostMessage, resultProblem } from '../../../src/protocol/host-message-check.js';
import { encodeAttention } from '../../../src/core/result/wire.js';
import { clampState, restoreState, toPanelState, DEFAULT_STATE } from '../../../webview/panel/state.js';
import { dotTerms, fmt, fmtWeight, thousands, vec } from '../../../webview/kit/format.js';
import { exampleText } from '../../support/specs.js';

const data = analyze(exampleText('multi-head-causal.attn.json')).data!;
const wire = encodeAttention(data);
const render = (result: unknown, buffer: unknown = wire.buffer) => ({ type: 'render', documentUri: 'u', fileName: 'f', version: 1, result, buffer, warnings: [] });
const json = wire.header;

test('a real result passes, as a header and one binary buffer', () => {
  assert.equal(resultProblem(wire.header, wire.buffer), undefined);
  assert.ok(isHostMessage(render(wire.header)));
  const checked = readHostMessage(render(wire.header));
  assert.ok('data' in checked && checked.data, 'a render comes back decoded');
  assert.deepEqual(Array.from(checked.data.inputs[0].heads[1].weights.data), Array.from(data.inputs[0].heads[1].weights.data));
});

test('malformed results are rejected with a reason that names the spoiled field', () => {
  // [case, spoil, the field the reason must name]
  type J = Record<string, unknown> & { inputs: { tokens: unknown[]; embeddings: Record<string, number>; masked: Record<string, number>; heads: Record<string, Record<string, number> | number>[] }[]; matrices: Record<string, unknown>[] };
  const cases: [string, (j: J) => void, RegExp][] = [
    ['dModel', (j) => { j.dModel = 0; }, /\bdModel\b/],
    ['features', (j) => { j.features = ['a']; }, /\bfeatures\b/],
    ['inputs', (j) => { j.inputs = 'x' as never; }, /\binputs is not a list/],
    ['embedding width', (j) => { j.inputs[0].embeddings.cols = 3; }, /inputs\[0\]\.embeddings has 3 columns, expected 4/],
    ['token type', (j) => { j.inputs[0].tokens[0] = 7; }, /inputs\[0\]\.tokens is not a list of texts/],
    ['past the end', (j) => { (j.inputs[0].heads[0].v as Record<string, number>).at = wire.buffer.byteLength - 8; }, /inputs\[0\]\.heads\[0\]\.v \(\d+ × \d+\) runs past the end/],
    ['unaligned', (j) => { (j.inputs[0].heads[1].q as Record<string, number>).at = 4; }, /inputs\[0\]\.heads\[1\]\.q\.at is not a byte offset/],
    ['query rows', (j) => { (j.inputs[0].heads[1].q as Record<string, number>).rows = 2; }, /inputs\[0\]\.heads\[1\]\.q has 2 rows/],
    ['mask', (j) => { j.inputs[0].masked.n = 2; }, /inputs\[0\]\.masked is not an? \d+ × \d+ mask/],
    ['divisor', (j) => { j.inputs[0].heads[0].divisor = 0; }, /heads\[0\]\.divisor\b/],
    ['matrices', (j) => { (j.matrices[0].values as Record<string, number>).rows = 1; }, /matrices\[0\]\.values has 1 rows/],
    ['matrix role', (j) => { j.matrices[1].role = 'wx'; }, /matrices\[1\]\.role\b/],
    ['parameters', (j) => { j.parameters = {}; }, /parameters\.total\b/],
    ['fullSize', (j) => { (j.parameters as { fullSize: { total: unknown } }).fullSize.total = '3145728'; }, /parameters\.fullSize\.total\b/],
    ['bytes', (j) => { j.bytes = 8; }, /the data has \d+ bytes, the header says 8/],
  ];
  for (const [name, spoil, field] of cases) {
    const bad = structuredClone(json) as unknown as J;
    spoil(bad);
    let why = '';
    assert.equal(isHostMessage(render(bad), (w) => { why = w; }), false, name);
    assert.ok(why.length > 0, name);
    assert.match(why, field, `${name}: ${why}`);
  }
  let why = '';
  assert.equal(isHostMessage(render(json, [1, 2, 3]), (w) => { why = w; }), false);
  assert.match(why, /not binary/);
});

test('malformed envelopes are rejected with a reason that names the field', () => {
  const cases: [unknown, RegExp][] = [
    [{ ...render(json), version: -1 }, /render: version\b/],
    [{ ...render(json), fileName: 3 }, /render: fileName\b/],
    [{ ...render(json), warnings: [{ severity: 'error', message: 'm', path: '', line: 0, column: 1 }] }, /render: warnings\[0\]\.line\b/],
    [{ type: 'problems', documentUri: 'u', fileName: 'f', version: 0, problems: [{ severity: 'fatal', message: 'm', path: '', line: 1, column: 1 }] }, /problems: problems\[0\]\.severity\b/],
    [{ type: 'problems', documentUri: 'u', fileName: 'f', version: 0, problems: [], elsewhere: { message: 'm' } }, /problems: elsewhere\b/],
    [{ type: 'exportRequest', requestId: 1, format: 'gif' }, /exportRequest: format\b/],
    [{ type: 'exportRequest', requestId: 1.5, format: 'svg' }, /exportRequest: requestId\b/],
    [{ type: 'lock', locked: 'no' }, /lock: locked\b/],
    [{ type: 'eval' }, /unknown message type "eval"/],
  ];
  for (const [message, field] of cases) {
    let why = '';
    assert.equal(isHostMessage(message, (w) => { why = w; }), false, String(field));
    assert.match(why, field);
  }
});

test('other host messages', () => {
  assert.ok(isHostMessage({ type: 'problems', documentUri: 'u', fileName: 'f', version: 0, problems: [{ severity: 'error', message: 'm', path: '', line: 1, column: 1 }] }));
  assert.ok(!isHostMessage({ type: 'problems', documentUri: 'u', fileName: 'f', version: 0, problems: [{ severity: 'fatal', message: 'm', path: '', line: 1, column: 1 }] }));
  assert.ok(isHostMessage({ type: 'problems', documentUri: 'u', fileName: 'f', version: 0, problems: [], elsewhere: { message: 'm', action: 'a' } }));
  assert.ok(isHostMessage({ type: 'exportRequest', requestId: 3, format: 'png' }));
  assert.ok(!isHostMessage({ type: 'exportRequest', requestId: -1, format: 'png' }));
  assert.ok(!isHostMessage({ type: 'exportRequest', requestId: 1, format: 'gif' }));
  assert.ok(isHostMessage({ type: 'lock', locked: false }));
  assert.ok(!isHostMessage({ type: 'lock', locked: 'no' }));
  for (const x of [null, 1, 'render', [], { type: 'render' }, { type: 'eval', code: 'x' }]) assert.ok(!isHostMessage(x));
});

test('saved state: anything usable is kept, anything else falls back to the defaults', () => {
  assert.deepEqual(restoreState(undefined), DEFAULT_STATE);
  assert.deepEqual(restoreState('x'), DEFAULT_STATE);
  const s = restoreState({ view: 'matrix', head: 1, input: 0, token: 2, matrixMode: 'scores', projection: 'wo', hiddenHeads: [1, -1, 'x'], locked: true, junk: 1 });
  assert.equal(s.view, 'matrix');
  assert.equal(s.head, 1);
  assert.equal(s.token, 2);
  assert.equal(s.matrixMode, 'scores');
  assert.equal(s.projection, 'wo');
  assert.deepEqual(s.hiddenHeads, [1]);
  assert.equal(s.locked, true);
  const odd = restoreState({ view: 'nope', head: -2, input: 1.5, matrixMode: 'x' });
  assert.equal(odd.view, DEFAULT_STATE.view);
  assert.equal(odd.head, 'all');
  assert.equal(odd.input, 0);
});

test('state is kept inside the data: a head, input or token that no longer exists is dropped', () => {
  const s = clampState({ ...DEFAULT_STATE, head: 5, input: 3, token: 40, hiddenHeads: [0, 9] }, data);
  assert.equal(s.head, 'all');
  assert.equal(s.input, 0);
  assert.equal(s.token, -1);
  assert.deepEqual(s.hiddenHeads, [0]);
  const lens = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  assert.equal(clampState({ ...DEFAULT_STATE, projection: 'wo' }, lens).projection, 'wq', 'no W_O in that spec');
  assert.deepEqual(toPanelState({ ...DEFAULT_STATE, view: 'steps' }, 'u', 3),
    { documentUri: 'u', view: 'steps', head: 'all', input: 0, token: 3, matrixMode: 'weights', projection: 'wq', locked: false });
});

test('numbers: integers stay integers, terms written as in the seeds', () => {
  assert.equal(fmt(136), '136');
  assert.equal(fmt(0.5), '0.5');
  assert.equal(fmt(1 / 3), '0.333');
  assert.equal(fmt(-2.5), '-2.5');
  assert.equal(fmt(null), 'masked');
  assert.equal(fmt(1.5e-41), '1.50e-41');
  assert.equal(dotTerms([10, 6], [10, 6], 136), '10·10 + 6·6 = 136');
  assert.equal(dotTerms([2, 0, 2], [4, 2, 0], 8), '2·4 + 0·2 + 2·0 = 8');
  assert.equal(dotTerms([1, -1], [-2, 3], -5), '1·(-2) + (-1)·3 = -5');
  assert.match(dotTerms(new Array(64).fill(1), new Array(64).fill(1), 64), /… \(52 more terms\) …/);
  assert.equal(fmtWeight(1e-20), '<0.001');
  assert.equal(fmtWeight(0), '0');
  assert.equal(thousands(3145728), '3,145,728');
  assert.equal(vec([1, 2, 3]), '[1, 2, 3]');
});

test("a render's story is checked: description text, open's fields, next a sibling spec's name with a title", () => {
  const story = { description: 'd', open: { view: 'matrix', input: 0, head: 'all', token: 3, matrix: 'scores', projection: 'wq' }, next: { file: 'b.attn.json', title: 'B' } };
  assert.ok(isHostMessage({ ...render(wire.header), story }));
  const bad: [unknown, RegExp][] = [
    [{ description: 1 }, /story\.description/],
    [{ open: { view: 'pie' } }, /story\.open\.view/],
    [{ open: { head: -1 } }, /story\.open\.head/],
    [{ open: { token: 'watch' } }, /story\.open\.token/],
    [{ next: { file: '../b.attn.json', title: 'B' } }, /story\.next/],
    [{ next: { file: 'b.attn.json' } }, /story\.next/],
    ['story', /story is not an object/],
  ];
  for (const [s, why] of bad) {
    const checked = readHostMessage({ ...render(wire.header), story: s });
    assert.ok('why' in checked && why.test(checked.why), `${JSON.stringify(s)}: ${JSON.stringify(checked)}`);
  }
});
