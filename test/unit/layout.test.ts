// The layout is the architecture: these checks keep it so. Each room (folder) of sources stays small
// enough to find one's way in (at most 16 source files), and the unit tests mirror the sources folder for
// folder, so the test of src/core/spec/read.ts is test/unit/core/spec/read.test.ts and a test folder with
// no source folder behind it is a sign that something moved without its test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ROOT } from '../support/paths.js';

/** Every folder below `dir` (itself included) with the names of its files. */
function folders(dir: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (d: string) => {
    const entries = readdirSync(d, { withFileTypes: true });
    out.set(relative(ROOT, d), entries.filter((e) => e.isFile()).map((e) => e.name));
    for (const e of entries) if (e.isDirectory()) walk(join(d, e.name));
  };
  walk(dir);
  return out;
}

const SOURCE_ROOTS = ['src', 'webview'];

test('no room of sources holds more than 16 source files', () => {
  const crowded: string[] = [];
  for (const root of SOURCE_ROOTS) {
    for (const [folder, files] of folders(join(ROOT, root))) {
      const sources = files.filter((f) => f.endsWith('.ts'));
      if (sources.length > 16) crowded.push(`${folder}: ${sources.length}`);
    }
  }
  assert.deepEqual(crowded, []);
});

test('every folder of unit tests mirrors a folder of sources', () => {
  const sourceFolders = new Set<string>();
  for (const root of [...SOURCE_ROOTS, 'scripts', 'python']) for (const folder of folders(join(ROOT, root)).keys()) sourceFolders.add(folder);
  const orphans: string[] = [];
  for (const [folder, files] of folders(join(ROOT, 'test', 'unit'))) {
    if (!files.some((f) => f.endsWith('.test.ts'))) continue;
    const rel = relative(join('test', 'unit'), folder);
    if (rel === '') continue; // cross-cutting tests (this one) sit at the top
    // test/unit/core/spec mirrors src/core/spec; test/unit/webview/kit mirrors webview/kit; test/unit/scripts/lint scripts/lint;
    // test/unit/python the Python package's folder.
    const top = rel.split(sep)[0];
    const mirrored = top === 'webview' || top === 'scripts' || top === 'python' ? rel : join('src', rel);
    if (!sourceFolders.has(mirrored)) orphans.push(folder);
  }
  assert.deepEqual(orphans, []);
});

test('no product source names tsx: the TypeScript loader is for the tests and the benches, which pass it to the workers they start', () => {
  const naming: string[] = [];
  for (const root of SOURCE_ROOTS) {
    for (const [folder, files] of folders(join(ROOT, root))) {
      for (const f of files.filter((name) => name.endsWith('.ts'))) {
        if (/\btsx\b/.test(readFileSync(join(ROOT, folder, f), 'utf8'))) naming.push(join(folder, f));
      }
    }
  }
  assert.deepEqual(naming, []);
});
