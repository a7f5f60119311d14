// The checks' tables by message type (src/protocol/by-type.ts): the lookup finds only a table's own
// types, and the type ByType makes a table that misses a type, or has one too many, a compile error.
// The @ts-expect-error lines below are the second half: `npm run typecheck` fails if one of them
// stops being an error, i.e. if ByType no longer holds a table to its union.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkOf, type ByType } from '../../../src/protocol/by-type.js';
import { isWebviewMessage } from '../../../src/protocol/panel-check.js';
import { readHostMessage } from '../../../src/protocol/host-message-check.js';
import { hostMessageProblem, webviewMessageProblem } from '../../../src/protocol/model-editor.js';
import { rendererMessageProblem, rendererReplyProblem } from '../../../src/protocol/notebook.js';

type Message = { type: 'a'; n: number } | { type: 'b' };
type Check = (m: Record<string, unknown>) => boolean;

const CHECKS = { a: (m) => typeof m.n === 'number', b: () => true } satisfies ByType<Message, Check>;

test('checkOf finds the check of a type the table has, and nothing for any other value or a name every object has', () => {
  assert.equal(checkOf<Check>(CHECKS, 'a'), CHECKS.a);
  assert.equal(checkOf<Check>(CHECKS, 'b'), CHECKS.b);
  for (const type of ['c', '', 'toString', '__proto__', 'constructor', 'hasOwnProperty', undefined, null, 1, ['a'], { toString: () => 'a' }]) {
    assert.equal(checkOf<Check>(CHECKS, type), undefined, String(type));
  }
});

test('ByType refuses a table without a check for every type, or with a check for a type the union lacks', () => {
  // @ts-expect-error 'b' has no check
  const missing = { a: () => true } satisfies ByType<Message, Check>;
  // @ts-expect-error 'c' is no type of Message
  const extra = { a: () => true, b: () => true, c: () => true } satisfies ByType<Message, Check>;
  assert.deepEqual([Object.keys(missing), Object.keys(extra)], [['a'], ['a', 'b', 'c']]);
});

test('every protocol\'s check refuses a type named after Object\'s own keys, as it refuses an unknown one', () => {
  const header = { layers: 1, heads: 1, tokens: 1 };
  for (const type of ['toString', '__proto__', 'constructor', 'nope']) {
    assert.equal(isWebviewMessage({ type }), false, type);
    assert.ok('why' in readHostMessage({ type }), type);
    assert.match(webviewMessageProblem({ type }, header) ?? '', /unknown message type/, type);
    assert.match(hostMessageProblem({ type }, undefined) ?? '', /unknown message type/, type);
    assert.match(rendererMessageProblem({ type }) ?? '', /unknown message type/, type);
    assert.equal(rendererReplyProblem({ type, id: 1 }), 'not a reply', type);
  }
  assert.equal(isWebviewMessage({ type: 'reveal', documentUri: 'u', target: { kind: 'toString' } }), false, 'a reveal target of no kind');
});

test('no check throws, whatever a message holds: objects whose toString is not a function (as JSON.parse makes { "toString": 1 }), lists of them, prototype-less objects', () => {
  // Before: "no head ${String(m.layer)}" threw "Cannot convert object to primitive value" on the
  // host for a webview's { type: 'head', layer: { "toString": 1 } }, and so did the webviews' own
  // checks of the host's messages and of an unknown type.
  const hostile = fc.constantFrom<unknown>(JSON.parse('{"toString":1}'), JSON.parse('{"valueOf":1,"toString":1}'), JSON.parse('[{"toString":1}]'), Object.create(null), [Object.create(null)], 1.5, -1, 'x', null);
  const key = fc.constantFrom('type', 'layer', 'head', 'token', 'from', 'view', 'data', 'format', 'items', 'drawMs', 'header', 'id', 'payload', 'message', 'stats', 'i0', 'rows', 'j0', 'cols', 'save', 'rollout', 'picture', 'state');
  const type = fc.oneof(fc.constantFrom('ready', 'head', 'window', 'export', 'painted', 'lens', 'error', 'run', 'model', 'scanned', 'show', 'rollout', 'open', 'opened', 'refused', 'state', 'toString'), hostile);
  const message = fc.tuple(type, fc.dictionary(key, hostile, { maxKeys: 6 })).map(([t, rest]) => ({ ...rest, type: t }));
  const header = { layers: 2, heads: 2, tokens: 3, thumb: 3, stats: [], file: 'f', dtype: 'F32', tokenTexts: [], warnings: [], offRows: 0, softmaxed: true };
  fc.assert(fc.property(message, (m) => {
    for (const answer of [webviewMessageProblem(m, header), webviewMessageProblem(m, undefined), hostMessageProblem(m, header), rendererMessageProblem(m), rendererReplyProblem(m)]) {
      assert.ok(answer === undefined || typeof answer === 'string');
    }
    assert.equal(typeof isWebviewMessage(m), 'boolean');
    assert.equal(typeof readHostMessage(m), 'object');
  }), { seed: 20261127, numRuns: 3000 });
});
