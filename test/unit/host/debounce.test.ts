// Per-key debouncing (src/host/debounce.ts): the latest call for a key wins after the quiet delay (or
// the delay given to that call); keys are independent; cancel and dispose run nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Debouncer } from '../../../src/host/debounce.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('the latest call for a key wins; other keys run too; cancel and dispose run nothing', async () => {
  const debouncer = new Debouncer(20);
  const ran: string[] = [];
  debouncer.schedule('a', () => ran.push('a1'));
  debouncer.schedule('a', () => ran.push('a2'));
  debouncer.schedule('b', () => ran.push('b'), 5);
  debouncer.schedule('c', () => ran.push('c'));
  debouncer.cancel('c');
  await wait(10);
  assert.deepEqual(ran, ['b'], 'b had its own, shorter delay');
  await wait(30);
  assert.deepEqual(ran, ['b', 'a2']);
  debouncer.schedule('a', () => ran.push('a3'));
  debouncer.dispose();
  await wait(40);
  assert.deepEqual(ran, ['b', 'a2']);
});
