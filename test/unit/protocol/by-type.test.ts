// The checks' tables by message type (src/protocol/by-type.ts): the lookup finds only a table's own
// types, and the type ByType makes a table that misses a type, or has one too many, a compile error.
// The @ts-expect-error lines below are the second half: `npm run typecheck` fails if one of them
// stops being an error, i.e. if ByType no longer holds a table to its union.
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
