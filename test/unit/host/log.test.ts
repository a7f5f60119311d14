// The extension's output channel (src/host/log.ts): one log channel named "Attention Lens", made on
// first use and made anew after disposeLog.
import '../../support/vscode/register.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { disposeLog, log } from '../../../src/host/log.js';
import { standIn } from '../../support/vscode/index.js';

test('one channel, "Attention Lens", until disposed', () => {
  const channel = log();
  assert.equal(channel.name, 'Attention Lens');
  assert.equal(log(), channel);
  log().warn('a', 'b');
  assert.deepEqual(standIn.windows.state.log.at(-1), { level: 'warn', text: 'a b' });
  disposeLog();
  assert.notEqual(log(), channel);
});
