// JSON paths in the spec's own notation (src/core/json/path.ts): a name that is an identifier
// follows a dot (none before the first), an index is in brackets, and any other name is quoted
// as JSON in brackets, clipped to 40 characters, so a path can always be pasted back as written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPath } from '../../../../src/core/json/path.js';

test('identifiers are joined with dots and indices bracketed: heads[0].wq, embeddings.apple[2]', () => {
  assert.equal(formatPath([]), '');
  assert.equal(formatPath(['heads', 0, 'wq']), 'heads[0].wq');
  assert.equal(formatPath(['embeddings', 'apple', 2]), 'embeddings.apple[2]');
  assert.equal(formatPath(['views', 'quadrant', 'x', 'feature']), 'views.quadrant.x.feature');
  assert.equal(formatPath(['inputs', 0, 'mask', 0, 1]), 'inputs[0].mask[0][1]');
  assert.equal(formatPath([3]), '[3]');
  assert.equal(formatPath(['$schema']), '$schema');
  assert.equal(formatPath(['_a1', 'b$2']), '_a1.b$2');
});

test('a name that is not an identifier is quoted in brackets: embeddings["two words"]', () => {
  assert.equal(formatPath(['embeddings', 'two words']), 'embeddings["two words"]');
  assert.equal(formatPath(['embeddings', '1st']), 'embeddings["1st"]');
  assert.equal(formatPath(['embeddings', '']), 'embeddings[""]');
  assert.equal(formatPath(['embeddings', 'a-b', 0]), 'embeddings["a-b"][0]');
  // Quoted as JSON: a quote or a line break inside the name is escaped, never raw.
  assert.equal(formatPath(['embeddings', 'say "hi"\n']), 'embeddings["say \\"hi\\"\\n"]');
  // At the top level too, with no dot before it.
  assert.equal(formatPath(['two words', 'x']), '["two words"].x');
});

test('a name of up to 40 identifier characters follows a dot; a longer one is quoted and clipped to 40', () => {
  const forty = 'a'.repeat(40);
  assert.equal(formatPath(['embeddings', forty]), `embeddings.${forty}`);
  const long = 'b'.repeat(100_000);
  assert.equal(formatPath(['embeddings', long, 1]), `embeddings["${'b'.repeat(40)}…"][1]`);
});
