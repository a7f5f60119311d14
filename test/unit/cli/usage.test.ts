// The usage text and the dispatcher agree: every command run.ts knows is in USAGE, and every command
// USAGE names is one run.ts knows, each in its own file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { USAGE } from '../../../src/cli/usage.js';
import { COMMANDS, run } from '../../../src/cli/run.js';

test('USAGE names exactly the commands run.ts dispatches', () => {
  const named = [...new Set([...USAGE.matchAll(/^ {2}attn (\w+)/gm)].map((m) => m[1]))].sort();
  assert.deepEqual(named, Object.keys(COMMANDS).sort());
  assert.deepEqual(named, ['analyze', 'compute', 'inspect', 'render', 'train', 'validate']);
});

test('a command is only one of its own: names an object inherits are unknown commands', async () => {
  for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
    const err: string[] = [];
    const code = await run([name], { out: () => assert.fail('nothing on standard output'), err: (t) => err.push(t) });
    assert.equal(code, 2, name);
    assert.equal(err.join('\n'), `attn: unknown command ${JSON.stringify(name)}\n${USAGE}`);
  }
});
