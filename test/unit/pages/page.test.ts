// What every page is made of (src/pages/page.ts): escaped text, nonces, the webviews' CSP with and
// without WebAssembly, and the one <head>.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkNonce, escapeHtml, makeNonce, pageHead, webviewCsp } from '../../../src/pages/page.js';

test('escapeHtml escapes the five markup characters and nothing else', () => {
  assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
  assert.equal(escapeHtml('apple-watch-lens.attn.json ü 😀'), 'apple-watch-lens.attn.json ü 😀');
});

test('a nonce is 32 hex digits, new every time, and only letters and digits pass the check', () => {
  const a = makeNonce(), b = makeNonce();
  assert.match(a, /^[0-9a-f]{32}$/);
  assert.notEqual(a, b);
  assert.doesNotThrow(() => checkNonce(a, 'page'));
  for (const bad of ['', 'short', 'abcdefghijklmnop"', "abcdefghijklmnop' 'unsafe-inline"]) {
    assert.throws(() => checkNonce(bad, 'somePage'), /^Error: somePage: the nonce must be at least 16 letters and digits$/);
  }
});

test('the CSP allows nothing by default, scripts by nonce only, and WebAssembly only when asked', () => {
  const plain = webviewCsp('n0nce', 'https://cdn', false);
  assert.equal(plain, "default-src 'none'; script-src 'nonce-n0nce'; style-src https://cdn; img-src https://cdn data:; font-src https://cdn");
  assert.equal(webviewCsp('n0nce', 'https://cdn', true), plain.replace("'nonce-n0nce'", "'nonce-n0nce' 'wasm-unsafe-eval'"));
  assert.ok(!/unsafe-inline|unsafe-eval'/.test(plain));
});

test('the head escapes the CSP and the title', () => {
  const head = pageHead(`a"b`, '<x>', '<link>');
  assert.ok(head.includes('content="a&#34;b"'));
  assert.ok(head.includes('<title>Attention: &#60;x&#62;</title>'));
  assert.ok(head.includes('<link>'), 'the extra markup is ours, written as it is');
});
