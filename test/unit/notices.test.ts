// Every package the extension's bundles take from dependencies is named in THIRD-PARTY-NOTICES.md with
// its licence, and the .vsix ships that file and every bundle the extension loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/paths.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
const notices = readFileSync(join(ROOT, 'THIRD-PARTY-NOTICES.md'), 'utf8');

test('every runtime dependency is in the notices with its licence and version', () => {
  for (const name of Object.keys(pkg.dependencies)) {
    const own = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string; license: string };
    if (name === 'jsdom') {
      assert.match(notices, /jsdom \(MIT\) is used by the `attn` command line only/);
      continue;
    }
    assert.ok(notices.includes(`## ${name} ${own.version} (${own.license})`), `${name} ${own.version} (${own.license}) is not in THIRD-PARTY-NOTICES.md`);
  }
  assert.match(notices, /Apache License\s+Version 2\.0/, "the Apache-2.0 text of @huggingface/tokenizers");
});

test('the .vsix ships the notices', () => {
  assert.match(readFileSync(join(ROOT, '.vscodeignore'), 'utf8'), /^!THIRD-PARTY-NOTICES\.md$/m);
});

test('the .vsix ships every bundle the build writes but the command line (an extension-host worker left out fails only once installed)', () => {
  const build = readFileSync(join(ROOT, 'scripts', 'build.mjs'), 'utf8');
  const bundles = [...build.matchAll(/outfile: '(dist\/[\w.-]+\.js)'/g)].map((m) => m[1]).filter((f) => f !== 'dist/attn.js');
  assert.ok(bundles.length >= 8, `the build's bundles: ${bundles.join(', ')}`);
  // The web's bundles are named by constants of web-build.mjs (the build and the web tests share them).
  const web = readFileSync(join(ROOT, 'scripts', 'web-build.mjs'), 'utf8');
  const webBundles = [...web.matchAll(/export const WEB_\w*OUTFILE = '(dist\/web\/[\w.-]+\.js)'/g)].map((m) => m[1]);
  assert.ok(webBundles.length >= 4, `the web build's bundles: ${webBundles.join(', ')}`);
  bundles.push(...webBundles);
  const shipped = readFileSync(join(ROOT, '.vscodeignore'), 'utf8').split('\n');
  for (const bundle of bundles) assert.ok(shipped.includes(`!${bundle}`), `${bundle} is not in .vscodeignore's list`);
});
