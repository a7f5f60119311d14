// scripts/start-workspace.mjs: the folder `npm start` opens is a scratch copy of examples/, ignored by
// git, outside the examples the extension ships; a second start keeps the user's edits there and
// brings back only what is missing.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
// @ts-expect-error: a plain .mjs script without type declarations
import { scratchFolder, scratchWorkspace } from '../../../scripts/start-workspace.mjs';
import { ROOT } from '../../support/paths.js';
import { tempDir } from '../../support/temp-dir.js';

const EXAMPLES = path.join(ROOT, 'examples');
const SPEC = 'apple-watch-lens.attn.json';

/** Every file under `dir`, relative to it, sorted. */
function files(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
}

describe('the scratch workspace of npm start', () => {
  it('is outside examples/ and ignored by git', () => {
    const folder = scratchFolder(ROOT) as string;
    const rel = path.relative(EXAMPLES, folder);
    assert.ok(rel.startsWith('..'), `${folder} is not inside ${EXAMPLES}`);
    // .gitignore's own rule covers the folder, checked without git (a copy of the sources may have no repository)…
    const rules = fs.readFileSync(path.join(ROOT, '.gitignore'), 'utf8').split('\n').map((l) => l.trim());
    const top = path.relative(ROOT, folder).split(path.sep)[0];
    assert.ok(rules.includes(`${top}/`) || rules.includes(`/${top}/`) || rules.includes(top), `.gitignore ignores ${top}/`);
    // …and, in a git checkout, git agrees.
    if (spawnSync('git', ['rev-parse', '--git-dir'], { cwd: ROOT }).status === 0) {
      const r = spawnSync('git', ['check-ignore', '-q', path.join(folder, SPEC)], { cwd: ROOT });
      assert.equal(r.status, 0, 'git ignores the copies');
    }
  });

  it('a new folder gets every example, the models included; a second start keeps edits and restores what is missing', () => {
    const folder = path.join(tempDir('attn-start-'), 'examples');
    assert.equal(scratchWorkspace(ROOT, folder), folder);
    assert.deepEqual(files(folder), files(EXAMPLES));
    const original = fs.readFileSync(path.join(EXAMPLES, SPEC), 'utf8');
    fs.writeFileSync(path.join(folder, SPEC), '{ "my": "edit" }');
    fs.rmSync(path.join(folder, 'learn-value.attn.json'));
    scratchWorkspace(ROOT, folder);
    assert.equal(fs.readFileSync(path.join(folder, SPEC), 'utf8'), '{ "my": "edit" }', 'the edit is kept');
    assert.equal(fs.readFileSync(path.join(folder, 'learn-value.attn.json'), 'utf8'), fs.readFileSync(path.join(EXAMPLES, 'learn-value.attn.json'), 'utf8'));
    assert.equal(fs.readFileSync(path.join(EXAMPLES, SPEC), 'utf8'), original, 'the tracked example is untouched');
  });
});
