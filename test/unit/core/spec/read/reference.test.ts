// A spec that shows a model's attention from a file beside it (src/core/spec/read/reference.ts):
// { "attention": { "file", "tensor" }, "tokens": [...] }, read with positioned problems, and opened
// by attn inspect with the spec's tokens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../../../../src/core/index.js';
import { run } from '../../../../../src/cli/run.js';
import { JSDOM } from 'jsdom';
import { tempDir } from '../../../../support/temp-dir.js';

const spec = (x: unknown) => JSON.stringify(x, null, 2);

test('a reference spec is read: the file, the tensor and the tokens; nothing is computed', () => {
  const a = analyze(spec({ title: 'run 1', attention: { file: 'runs/run1.safetensors', tensor: 'attn' }, tokens: ['The', 'cat'] }));
  assert.deepEqual(a.problems, []);
  assert.equal(a.data, undefined);
  assert.equal(a.reference?.file, 'runs/run1.safetensors');
  assert.equal(a.reference?.tensor, 'attn');
  assert.deepEqual(a.reference?.tokens, ['The', 'cat']);
});

test('a bad reference is refused at its place', () => {
  const cases: [unknown, RegExp, string][] = [
    [{ attention: { file: '../up.npy' } }, /"\.\.", going up, is not allowed/, 'attention.file'],
    [{ attention: { file: '/abs/x.npy' } }, /not an absolute one/, 'attention.file'],
    [{ attention: { file: 'notes.txt' } }, /expected a \.safetensors, \.npy or \.npz file/, 'attention.file'],
    [{ attention: {} }, /give "file"/, 'attention'],
    [{ attention: 'x.npy' }, /expected \{ "file": "…", "tensor": "…" \}/, 'attention'],
    [{ attention: { file: 'a.npy' }, tokens: ['a', 3] }, /a token's text/, 'tokens[1]'],
    [{ attention: { file: 'a.npy', tensor: 'nope' } }, /a\.npy is an \.npy file: it holds one unnamed array, so "tensor" "nope" names nothing in it/, 'attention.tensor'],
  ];
  for (const [x, message, path] of cases) {
    const a = analyze(spec(x));
    const e = a.problems.find((p) => p.severity === 'error');
    assert.ok(e, JSON.stringify(x));
    assert.match(e.message, message, JSON.stringify(x));
    assert.equal(e.path, path, JSON.stringify(x));
    assert.equal(a.reference, undefined);
  }
});

/** A one-layer, one-head F32 safetensors of n × n weights, no tokens of its own. */
function safetensors(n: number): Buffer {
  const values = Array.from({ length: n * n }, (_, k) => (Math.floor(k / n) === k % n ? 1 : 0));
  const data = Buffer.from(new Float32Array(values).buffer);
  const header = Buffer.from(JSON.stringify({ attn: { dtype: 'F32', shape: [n, n], data_offsets: [0, data.length] } }));
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([size, header, data]);
}

test('keys a reference spec does not know are flagged where they are', () => {
  for (const [x, path] of [[{ attention: { file: 'a.npy', layer: 2 } }, 'attention.layer'], [{ attention: { file: 'a.npy' }, embeddings: {} }, 'embeddings']] as const) {
    const p = analyze(spec(x)).problems.find((q) => q.path === path);
    assert.ok(p, `${path}: ${JSON.stringify(analyze(spec(x)).problems)}`);
    assert.match(p.message, /unknown|not a key/i);
  }
});

test('attn inspect opens the file a spec references, with the spec\'s tokens; a link out of the folder is refused', async () => {
  const dir = tempDir('attn-ref-');
  writeFileSync(join(dir, 'run.safetensors'), safetensors(3));
  writeFileSync(join(dir, 'run.attn.json'), spec({ attention: { file: 'run.safetensors' }, tokens: ['a', 'b', 'a'] }));
  let out = '', err = '';
  const io = { out: (s: string) => { out += s; }, err: (s: string) => { err += s; } };
  assert.equal(await run(['inspect', join(dir, 'run.attn.json'), '--json'], io), 0, err);
  const json = JSON.parse(out) as { tokens: number; tokenTexts: string[]; stats: { duplicateToken: number | null }[] };
  assert.equal(json.tokens, 3);
  assert.deepEqual(json.tokenTexts, ['a', 'b', 'a']);
  assert.equal(json.stats[0].duplicateToken, 0, 'query 2 ("a") attends to itself, not to its earlier copy');
  symlinkSync('/etc', join(dir, 'etc'));
  writeFileSync(join(dir, 'out.attn.json'), spec({ attention: { file: 'etc/passwd.npy' } }));
  out = ''; err = '';
  assert.equal(await run(['inspect', join(dir, 'out.attn.json')], io), 1);
  assert.match(err, /etc\/passwd\.npy: (leads outside the spec's folder|no such file beside the spec)/);
  out = ''; err = '';
  assert.equal(await run(['compute', join(dir, 'run.attn.json')], io), 1);
  assert.match(err, /shows a model's attention from run\.safetensors: use attn inspect/);
});

test('attn render SPEC --view head draws the file a spec references, with the spec\'s tokens', async () => {
  const dir = tempDir('attn-ref-render-');
  writeFileSync(join(dir, 'run.safetensors'), safetensors(3));
  writeFileSync(join(dir, 'run.attn.json'), spec({ attention: { file: 'run.safetensors' }, tokens: ['x', 'y', 'z'] }));
  let said = '', err = '';
  const io = { out: (s: string) => { said += s; }, err: (s: string) => { err += s; } };
  assert.equal(await run(['render', join(dir, 'run.attn.json'), '--view', 'head', '--out', join(dir, 'head.svg')], io), 0, err);
  assert.match(said, /head\.svg/, 'it says what it wrote');
  const { readFileSync } = await import('node:fs');
  const svg = readFileSync(join(dir, 'head.svg'), 'utf8');
  assert.match(svg, /query #1 "x" → key #3 "z"/);
  assert.match(svg, /layer 1 head 1: 3 × 3 weights/);
});

test('a problem with the referenced file is the spec\'s problem: attn inspect and render print it at its place (FILE:LINE:COL: path: message)', async () => {
  const dir = tempDir('attn-ref-place-');
  writeFileSync(join(dir, 'run.safetensors'), safetensors(3));
  writeFileSync(join(dir, 'short.npy'), 'xx');
  symlinkSync('/etc/hostname', join(dir, 'out.npy'));
  const cases: [unknown, RegExp][] = [
    [{ attention: { file: 'missing.npy' } }, /^s\.attn\.json:2:21: attention\.file: missing\.npy: no such file beside the spec$/],
    [{ attention: { file: 'out.npy' } }, /^s\.attn\.json:2:21: attention\.file: out\.npy: leads outside the spec's folder/],
    [{ attention: { file: 'short.npy' } }, /^s\.attn\.json:2:21: attention\.file: .*short\.npy: truncated/],
    [{ attention: { file: 'run.safetensors' }, tokens: ['a', 'b'] }, /^s\.attn\.json:3:10: tokens: .*2 token\(s\) given, but the attention is 3 × 3$/],
  ];
  const file = join(dir, 's.attn.json');
  for (const [x, message] of cases) {
    writeFileSync(file, JSON.stringify(x).replace('{"attention":', '{\n"attention":').replace(',"tokens":', ',\n"tokens":'));
    for (const args of [['inspect', file], ['render', file, '--view', 'head']]) {
      let err = '';
      assert.equal(await run(args, { out: () => {}, err: (s) => { err += s; } }), 1, `${args[0]} ${JSON.stringify(x)}`);
      assert.match(err.replace(dir + '/', ''), message, `${args[0]} ${JSON.stringify(x)}`);
    }
  }
});

test('hostile tokens in a reference spec (</script>, ]]>, control and XML-forbidden characters, a lone surrogate, 1 MB): well-formed SVG, a page whose one script is ours, a clean terminal', async () => {
  const dir = tempDir('attn-ref-hostile-');
  const n = 8;
  writeFileSync(join(dir, 'run.safetensors'), safetensors(n));
  const tokens = ['</script><script>alert(1)</script>', ']]><x/>', '\u0000\u0001\u0008\u000b', '\ufffe\uffff', '\ud800 lone', '\u001b[2J\u001b]0;title\u0007', '<!--', 'x'.repeat(1 << 20)];
  const file = join(dir, 's.attn.json');
  writeFileSync(file, spec({ attention: { file: 'run.safetensors' }, tokens }));
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
  for (const args of [['inspect', file], ['inspect', file, '--json'], ...['model', 'head', 'finder', 'rollout'].map((v) => ['render', file, '--view', v])]) {
    let out = '', err = '';
    assert.equal(await run(args, { out: (s) => { out += s; }, err: (s) => { err += s; } }), 0, err);
    assert.doesNotMatch(out + err, control, args.join(' '));
    if (args.length === 2) assert.ok(out.length < 4000, `the report quotes tokens shortly, not 1 MB: ${out.length} characters`);
    if (args[0] === 'render') {
      const dom = new JSDOM(out, { contentType: 'image/svg+xml' });
      assert.equal(dom.window.document.getElementsByTagName('parsererror').length, 0, `${args[3]}: well-formed`);
      dom.window.close();
      assert.doesNotMatch(out, /[\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|NaN|undefined|Infinity/, args[3]);
    }
  }
  const page = join(dir, 'page.html');
  let err = '';
  assert.equal(await run(['render', file, '--view', 'model', '--html', page], { out: () => {}, err: (s) => { err += s; } }), 0, err);
  const { readFileSync } = await import('node:fs');
  const html = readFileSync(page, 'utf8');
  const doc = new JSDOM(html).window.document;
  const late = doc.querySelectorAll('script.model-late[type="application/json"]').length;
  assert.equal(doc.querySelectorAll('script').length, 2 + late, 'the data, the bundle and the heads\' data, no script from a token');
  assert.equal(doc.querySelectorAll('script:not([type="application/json"])').length, 1, 'one script that runs: the bundle');
  assert.deepEqual((JSON.parse(doc.getElementById('model-data')!.textContent!) as { header: { tokenTexts: string[] } }).header.tokenTexts.slice(0, 2), tokens.slice(0, 2));
});

test('the tokens file beside a referenced file (X.tokens.json) keeps to the spec\'s folder, and a bad one is not quoted', async () => {
  const dir = tempDir('attn-ref-sidecar-');
  writeFileSync(join(dir, 'run.safetensors'), safetensors(2));
  writeFileSync(join(dir, 'secret.txt'), 'top secret words');
  const outside = tempDir('attn-outside-');
  writeFileSync(join(outside, 'secret.txt'), 'root:x:0:0');
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'run.tokens.json'));
  const file = join(dir, 's.attn.json');
  writeFileSync(file, spec({ attention: { file: 'run.safetensors' }, tokens: ['a', 'b'] }));
  let err = '';
  const io = { out: () => {}, err: (s: string) => { err += s; } };
  assert.equal(await run(['inspect', file], io), 1);
  assert.match(err, /s\.attn\.json:\d+:\d+: attention\.file: run\.tokens\.json: leads outside the spec's folder/);
  assert.doesNotMatch(err, /root:x/, 'nothing of the file outside is shown');
  // Inside the folder but not JSON: refused without quoting it (the JSON parser's message quotes the first characters).
  writeFileSync(join(dir, 'two.safetensors'), safetensors(2));
  symlinkSync('secret.txt', join(dir, 'two.tokens.json'));
  writeFileSync(file, spec({ attention: { file: 'two.safetensors' } }));
  err = '';
  assert.equal(await run(['inspect', file], io), 1);
  assert.match(err, /two\.tokens\.json: not UTF-8 JSON; a tokens file is a JSON array of strings/);
  assert.doesNotMatch(err, /top secret/);
});
