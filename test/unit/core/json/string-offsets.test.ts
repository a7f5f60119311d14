// A string value's places in its JSON literal (src/core/json/string-offsets.ts): checked against
// JSON.parse on seeded literals of raw characters, short escapes and \u escapes (surrogates too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stringOffsets } from '../../../../src/core/json/string-offsets.js';
import { between, seeded } from '../../../support/random.js';

test('a word after escapes is found where it is written', () => {
  const source = '{ "text": "a\\n\\u00e9 zebra" }';
  const value = JSON.parse(source).text as string;
  const i = value.indexOf('zebra');
  const places = stringOffsets(source, source.indexOf('"a'));
  assert.equal(source.slice(places.at(i), places.at(i + 5)), 'zebra');
  assert.equal(places.at(0), source.indexOf('a\\n'), 'asked again from the start');
});

test('seeded literals: the slice of the source between two places parses back to the value\'s slice', () => {
  const parts = ['a', 'Z', ' ', 'é', '\\n', '\\"', '\\\\', '\\u00e9', '\\ud83d\\ude00', '😀', '\\t', '/'];
  const rand = seeded(77);
  for (let c = 0; c < 300; c++) {
    const literal = `"${Array.from({ length: between(rand, 0, 20) }, () => parts[between(rand, 0, parts.length - 1)]).join('')}"`;
    const source = `{"text": ${literal}}`;
    const value = JSON.parse(source).text as string;
    const i = between(rand, 0, value.length), j = between(rand, i, value.length);
    const places = stringOffsets(source, source.indexOf('"', 8));
    const from = places.at(i), to = places.at(j);
    assert.equal(JSON.parse(`"${source.slice(from, to)}"`), value.slice(i, j), `case ${c}: ${literal} ${i}..${j}`);
  }
});
