// CRC-32 as zip stores it (src/core/files/crc32.ts): the check value of "123456789", the native and
// the table implementation agree on random data, and a CRC continued block by block is the whole one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32, crc32Table } from '../../../../src/core/files/crc32.js';
import { between, seeded } from '../../../support/random.js';

test('the CRC-32 of "123456789" is 0xCBF43926 (the check value of the zip CRC), in both implementations', () => {
  const data = Buffer.from('123456789');
  assert.equal(crc32(data), 0xcbf43926);
  assert.equal(crc32Table(data), 0xcbf43926);
  assert.equal(crc32(new Uint8Array(0)), 0);
});

test('200 random buffers: native and table agree, and a CRC continued over random splits is the whole one', () => {
  const rand = seeded(32);
  for (let c = 0; c < 200; c++) {
    const data = Buffer.from(Array.from({ length: between(rand, 0, 3000) }, () => between(rand, 0, 255)));
    const whole = crc32(data);
    assert.equal(crc32Table(data), whole, `case ${c}`);
    const cut = between(rand, 0, data.length);
    assert.equal(crc32(data.subarray(cut), crc32(data.subarray(0, cut))), whole, `case ${c}, split at ${cut}`);
    assert.ok(whole >= 0 && whole <= 0xffffffff);
  }
});
