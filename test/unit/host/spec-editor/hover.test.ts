// Hovers in a spec's editor (src/host/spec-editor/hover.ts), asked as the editor asks them through the
// vscode stand-in: over "wq" of a head, the matrix's role and shape from the computed result; over a
// token, whom it attends to most in each head; mid-edit (the spec broken), the last good result still
// answers; a JSON file that is not a spec gets no hover from Attention Lens.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { registerSpecHovers } from '../../../../src/host/spec-editor/hover.js';
import { standIn, Uri, type Hover, type TextDocument } from '../../../support/vscode/index.js';
import { countingCache } from '../../../support/host-fixture.js';
import { exampleText } from '../../../support/specs.js';

beforeEach(() => standIn.reset());

const TEXT = exampleText('apple-watch-lens.attn.json');

/** The hover at the `nth` occurrence of `needle` (its second character: inside it). */
async function hoverAt(document: TextDocument, needle: string, nth = 0): Promise<Hover[]> {
  let offset = -1;
  for (let k = 0; k <= nth; k++) offset = document.getText().indexOf(needle, offset + 1);
  assert.ok(offset >= 0, `${needle} is in the text`);
  return await standIn.editorFeatures.hovers(document, document.positionAt(offset + 1)) as Hover[];
}

test('over "wq" of head "tech lens" the hover gives W_Q\'s shape and role, its range the key', async () => {
  const { cache } = countingCache();
  const registration = registerSpecHovers(cache);
  const document = standIn.documents.open(Uri.parse('untitled:lens.attn.json'), TEXT);
  const [hover, ...more] = await hoverAt(document, '"wq"', 1);
  assert.equal(more.length, 0);
  const markdown = hover.contents[0].value;
  assert.match(markdown, /^\*\*W\\?_Q of head "tech lens"\*\*/);
  assert.match(markdown, /d\\?_model × d\\?_k = 3 × 2/);
  assert.match(markdown, /6 learnable numbers/);
  assert.equal(document.getText(hover.range), '"wq"');
  const [identity] = await hoverAt(document, '"wq"', 0);
  assert.match(identity.contents[0].value, /W\\?_Q: identity/, 'the raw head\'s W_Q is an identity');
  registration.dispose();
  assert.deepEqual(await hoverAt(document, '"wq"', 1), [], 'no hover once disposed');
});

test('over a token of an input the hover says whom it attends to most in each head', async () => {
  const { cache } = countingCache();
  const registration = registerSpecHovers(cache);
  const document = standIn.documents.open(Uri.parse('untitled:lens.attn.json'), TEXT);
  const [hover] = await hoverAt(document, '"watch"]');
  const markdown = hover.contents[0].value;
  assert.match(markdown, /"watch": token 4 of 4 in "I love Apple watch"/);
  assert.match(markdown, /watch → apple 1\.00 \(tech lens\)/, 'exp(136 − 64) leaves apple all the weight');
  assert.match(markdown, /watch → watch [\d.]+ \(raw\)/, 'watch · watch = 10 beats apple · watch = 2');
  registration.dispose();
});

test('mid-edit, with the spec broken, the last good result still answers', async () => {
  const { cache, analyst } = countingCache();
  const registration = registerSpecHovers(cache);
  const document = standIn.documents.open(Uri.parse('untitled:lens.attn.json'), TEXT);
  assert.equal((await hoverAt(document, '"wq"', 1)).length, 1);
  standIn.documents.type(document, TEXT.replace('"love", "apple"', '"love", "pear"'));
  const [hover] = await hoverAt(document, '"wq"', 1);
  assert.match(hover.contents[0].value, /3 × 2/);
  assert.equal(analyst.reads, 2, 'the broken version was analysed (and failed); the hover read the good one');
  registration.dispose();
});

test('a JSON file that is not a spec gets no hover from Attention Lens', async () => {
  const { cache, analyst } = countingCache();
  const registration = registerSpecHovers(cache);
  const document = standIn.documents.open(Uri.parse('untitled:lens.json'), TEXT);
  assert.deepEqual(await hoverAt(document, '"wq"', 1), []);
  assert.equal(analyst.reads, 0);
  registration.dispose();
});
