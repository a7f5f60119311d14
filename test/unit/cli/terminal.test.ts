// What `attn` prints is safe for a terminal: spec strings are data, never escape sequences or new lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { printable, printableJson } from '../../../src/cli/terminal.js';
import { ROOT } from '../../support/paths.js';
import { attn } from '../../support/cli.js';
import { tempDir } from '../../support/temp-dir.js';

const dir = tempDir('attn-term-');
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
  const attnBin = join(ROOT, 'bin', 'attn.js');
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

test('attack review: EPIPE keeps the exit code, a full disk fails, --max-bytes is capped, hard links are the spec too', async () => {
  const attnBin = join(ROOT, 'bin', 'attn.js');
  const bad = spec('unknown.attn.json', { embeddings: { a: [1] }, inputs: [{ tokens: ['zz', 'zz', 'zz'] }] });
  const piped = spawnSync('bash', ['-c', `set -o pipefail; '${process.execPath}' '${attnBin}' validate '${bad}' 2>&1 | head -c 5 >/dev/null; echo $?`], { encoding: 'utf8' });
  assert.equal(piped.stdout.trim(), '1', 'a failed validation stays 1 when the reader stops early');
  const ok = spec('ok.attn.json', { embeddings: { a: [1] }, inputs: [{ tokens: ['a'] }] });
  const full = spawnSync('bash', ['-c', `'${process.execPath}' '${attnBin}' compute '${ok}' > /dev/full; echo $?`], { encoding: 'utf8' });
  assert.equal(full.stdout.trim(), '1');
  assert.match(full.stderr, /cannot write the output \(ENOSPC\)/);
  const capped = await attn('validate', '--max-bytes', '1e30', '/dev/zero');
  assert.equal(capped.code, 2);
  assert.match(capped.err, /more than 268435456 \(256 MB\)/);
  const { linkSync } = await import('node:fs');
  const link = join(dir, 'hard.svg');
  linkSync(ok, link);
  const before = readFileSync(ok, 'utf8');
  const r = await attn('render', ok, '--view', 'arcs', '--out', link);
  assert.equal(r.code, 2);
  assert.equal(readFileSync(ok, 'utf8'), before);
});

test('attack review: attn analyze refuses numbers that overflow instead of printing Infinity', async () => {
  const file = spec('huge.attn.json', { embeddings: { a: [1e308, 0], b: [-1e308, 0] }, inputs: [{ tokens: ['a', 'b'] }], heads: [{ wq: [[0], [0]], wk: [[0], [0]], wv: 'identity' }] });
  const r = await attn('analyze', file, '--json');
  assert.equal(r.code, 1);
  assert.match(r.err, /too large to analyse/);
  const q = await attn('render', file, '--view', 'quadrant');
  assert.equal(q.code, 0);
  assert.doesNotMatch(q.out, /NaN|Infinity/);
});

test('attack review: a 200,000-character token or scale is quoted clipped in every message', async () => {
  const L = 'W'.repeat(200_000);
  const file = spec('long.attn.json', { embeddings: { [L]: [1], b: [2] }, inputs: [{ tokens: [L, 'b'], mask: [[0, 0], [1, 1]] }], scale: L, mask: L });
  const r = await attn('validate', file);
  assert.ok(r.err.split('\n').every((line) => line.length < 600), `a line of ${Math.max(...r.err.split('\n').map((l) => l.length))} characters`);
  const masked = spec('masked.attn.json', { embeddings: { [L]: [1], b: [2] }, inputs: [{ tokens: [L, 'b'], mask: [[0, 0], [1, 1]] }] });
  const w = await attn('validate', masked);
  assert.ok(w.err.length < 600, `${w.err.length} characters`);
});

test('attack review: bidi and invisible characters in an SVG printed to the terminal are character references', async () => {
  const word = 'a\u202eb\u2066c\u2028d\u200b';
  const file = spec('bidi.attn.json', { embeddings: { [word]: [1] }, inputs: [{ tokens: [word] }] });
  const r = await attn('render', file, '--view', 'arcs');
  assert.equal(r.code, 0);
  assert.doesNotMatch(r.out, /[\u202e\u2066\u2028\u200b]/);
  assert.match(r.out, /a&#x202e;b&#x2066;c&#x2028;d&#x200b;/);
});
