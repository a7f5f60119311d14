// What `attn` prints is safe for a terminal: spec strings are data, never escape sequences or new lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { run } from '../../src/cli/run.js';
import { printable, printableJson } from '../../src/cli/terminal.js';

async function attn(...argv: string[]) {
  const out: string[] = [], err: string[] = [];
  const code = await run(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const dir = mkdtempSync(join(tmpdir(), 'attn-term-'));
function spec(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

// No C0/C1 control character but the line breaks the program itself writes.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

test('a newline in a token cannot forge a problem line in validate', async () => {
  const forged = 'x\n/etc/passwd:1:1: forged problem';
  const file = spec('forge.attn.json', { embeddings: { a: [1] }, inputs: [{ tokens: [forged] }] });
  const r = await attn('validate', file);
  assert.equal(r.code, 1);
  const lines = r.err.split('\n');
  assert.equal(lines.length, 1, r.err);
  assert.ok(lines[0].startsWith(`${file}:1:`));
  assert.match(lines[0], /unknown token "x\\n\/etc\/passwd:1:1: forged problem"/);
});

test('escape sequences and BEL in names reach compute\'s text report escaped', async () => {
  const evil = '\u001b[2J\u0007\u009b31m';
  const file = spec('esc.attn.json', { title: evil, embeddings: { [evil]: [1] }, inputs: [{ name: evil, tokens: [evil] }], heads: [{ name: evil }] });
  const r = await attn('compute', file);
  assert.equal(r.code, 0, r.err);
  assert.doesNotMatch(r.out, CONTROL);
  assert.match(r.out, /\\e\[2J\\u\{7\}\\u\{9b\}31m/);
});

test('compute --json is the same JSON value, with C1 controls and bidi overrides written as \\u escapes', async () => {
  const word = 'a\u009b\u202eb';
  const file = spec('c1.attn.json', { embeddings: { [word]: [1] }, inputs: [{ tokens: [word] }] });
  const r = await attn('compute', file, '--json');
  assert.equal(r.code, 0, r.err);
  assert.doesNotMatch(r.out, CONTROL);
  assert.doesNotMatch(r.out, /\u202e/);
  assert.deepEqual(JSON.parse(r.out).inputs[0].tokens, [word]);
});

test('a file name with control characters is printed escaped', async () => {
  const r = await attn('validate', join(dir, 'no\u001b[31mfile'));
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.err, CONTROL);
  assert.match(r.err, /no\\e\[31mfile: no such file/);
});

test('unknown options and commands are printed escaped', async () => {
  for (const argv of [['--bad\u0007'], ['bad\u001b']]) {
    const r = await attn(...argv);
    assert.equal(r.code, 2);
    assert.doesNotMatch(r.err, CONTROL);
  }
});

test('render --out naming the spec itself is refused and the spec is untouched', async () => {
  const file = spec('self.attn.json', { embeddings: { a: [1] }, inputs: [{ tokens: ['a'] }] });
  const before = readFileSync(file, 'utf8');
  const r = await attn('render', file, '--view', 'arcs', '--out', join(dir, '.', 'self.attn.json'));
  assert.equal(r.code, 2);
  assert.match(r.err, /is the spec itself/);
  assert.equal(readFileSync(file, 'utf8'), before);
});

test('a reader that closes the pipe early gets no stack trace (EPIPE)', () => {
  const attnBin = join(__dirname, '..', '..', 'bin', 'attn.js');
  const big = spec('big.attn.json', { embeddings: { a: [1, 2, 3] }, inputs: [{ tokens: new Array(300).fill('a') }] });
  const r = spawnSync('sh', ['-c', `'${process.execPath}' '${attnBin}' compute '${big}' --json | head -c 10 >/dev/null`], { encoding: 'utf8' });
  assert.equal(r.stderr, '');
});

test('printable escapes each kind once; printableJson keeps the JSON value', () => {
  assert.equal(printable('a\nb\tc\u001bd\u0000\u2028'), 'a\\nb\\tc\\ed\\u{0}\\u{2028}');
  const value = { s: 'x\u0085\u2066y' };
  assert.deepEqual(JSON.parse(printableJson(JSON.stringify(value))), value);
});

test('invisible characters (zero-width space, BOM, noncharacters) are written as escapes too', () => {
  assert.equal(printable('a\u200bb\ufeffc\uffffd'), 'a\\u{200b}b\\u{feff}c\\u{ffff}d');
  const value = { s: 'x\u200b\ufeffy' };
  assert.deepEqual(JSON.parse(printableJson(JSON.stringify(value))), value);
  assert.doesNotMatch(printableJson(JSON.stringify(value)), /[\u200b\ufeff]/);
});
