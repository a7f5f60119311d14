// The notebook renderer's messages (src/protocol/notebook.ts): an open request carries a whole-number
// id and a payload that passes the payload's check; a painted report its view and counts; anything
// else is refused with a reason; the host's replies are opened (with the file) or refused (with why).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rendererMessageProblem, rendererReplyProblem } from '../../../src/protocol/notebook.js';
import { randomPayload } from '../../support/payload.js';

test('the renderer\'s messages: open with an id and a good payload, painted reports; the rest refused', () => {
  const { payload } = randomPayload(1, 1, 3);
  assert.equal(rendererMessageProblem({ type: 'open', id: 1, payload }), undefined);
  assert.equal(rendererMessageProblem({ type: 'painted', view: 'model', items: 4, drawMs: 3 }), undefined);
  assert.match(rendererMessageProblem({ type: 'open', id: 0, payload }) ?? '', /whole-number id/);
  assert.match(rendererMessageProblem({ type: 'open', id: 2, payload: { ...payload, dtype: 'int8' } }) ?? '', /payload is refused: its "dtype"/);
  assert.match(rendererMessageProblem({ type: 'painted', view: 'model', items: NaN, drawMs: 0 }) ?? '', /malformed/);
  assert.match(rendererMessageProblem({ type: 'exec', code: 'x' }) ?? '', /unknown message type "exec"/);
  assert.match(rendererMessageProblem(null) ?? '', /not a message/);
});

test('the host\'s replies: opened with its file, refused with its reason', () => {
  assert.equal(rendererReplyProblem({ type: 'opened', id: 3, file: 'a.safetensors' }), undefined);
  assert.equal(rendererReplyProblem({ type: 'refused', id: 3, message: 'no' }), undefined);
  assert.ok(rendererReplyProblem({ type: 'opened', id: 3 }));
  assert.ok(rendererReplyProblem({ type: 'refused', id: 'x', message: 'no' }));
  assert.ok(rendererReplyProblem({ type: 'other', id: 3 }));
});
