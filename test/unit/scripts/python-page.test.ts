// The Python package's page (python/attention_lens/assets/model-page.html) is what
// scripts/python-page.ts makes from the sources now: it fails when the committed file drifts from
// the webview's code or style (run node scripts/build.mjs and commit the file). The page holds each
// slot the package fills, no "http" anywhere in its script, and the bundle runs as it did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PYTHON_PAGE, pythonPageTemplate, withoutUrlText } from '../../../scripts/python-page.js';
import { PAGE_SLOTS } from '../../../src/pages/model-page-html.js';

test('the committed page is what the build makes (node scripts/build.mjs writes it)', async () => {
  const made = await pythonPageTemplate();
  const committed = readFileSync(PYTHON_PAGE, 'utf8');
  assert.ok(committed === made, `python/attention_lens/assets/model-page.html differs from what the build makes (${committed.length} vs ${made.length} characters): run node scripts/build.mjs and commit it`);
  assert.equal(made.split(PAGE_SLOTS.nonce).length - 1, 4, 'the CSP\'s script-src and style-src, the style and the script');
  assert.equal(made.split(PAGE_SLOTS.title).length - 1, 1);
  assert.equal(made.split(PAGE_SLOTS.payload).length - 1, 1);
  assert.doesNotMatch(made.replace('http-equiv', ''), /http/);
});

test('withoutUrlText writes http:// so that no text says it and JavaScript reads the same', () => {
  const source = 'var a="http://www.w3.org/2000/svg",b=/https:\\/\\/x/,c=`http://y`;';
  const out = withoutUrlText(source);
  assert.doesNotMatch(out, /http/);
  // The strings are the same text; the regular expression matches the same (its source is written otherwise).
  const run = (code: string) => new Function(`${code} return [a, b.test("https://x"), b.test("http://x"), c];`)() as unknown[];
  assert.deepEqual(run(out), run(source));
});
