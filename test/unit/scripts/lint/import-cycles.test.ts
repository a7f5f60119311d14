// scripts/lint/import-cycles.mjs: the ESLint rule that fails any import cycle among our files. Every
// way a file can name another must count (or a cycle hides), nothing in a comment or a string may
// (or a cycle is made up), and an editor's long-running ESLint must see an import added or removed.
import * as assert from 'node:assert/strict';
import { realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Linter } from 'eslint';
// @ts-expect-error: a plain .mjs script without type declarations
import { cyclesOf, importGraph, importsOf, importCycles } from '../../../../scripts/lint/import-cycles.mjs';
import { tempDir } from '../../../support/temp-dir.js';

const readImports = importsOf as (text: string) => string[];

describe('import-cycles: what counts as an import', () => {
  const counted: [string, string][] = [
    ['export * from', "export * from './a.js';"],
    ['export * as', "export * as ns from './a.js';"],
    ['a named re-export', "export { x } from './a.js';"],
    ['an import over several lines', "import {\n  x,\n  y,\n} from './a.js';"],
    ['a type-only import', "import type { X } from './a.js';"],
    ['a side-effect import', "import './a.js';"],
    ['import x = require()', "import x = require('./a.js');"],
    ['a dynamic import', "const m = await import('./a.js');"],
    ['a dynamic import written as a template without substitutions', 'const m = await import(`./a.js`);'],
    ['a type of a dynamic import', "type T = typeof import('./a.js');"],
    ['an import right after a closing brace', "function f() {}import { x } from './a.js';"],
  ];
  for (const [what, text] of counted) {
    it(`reads ${what}`, () => assert.deepEqual(readImports(text), ['./a.js']));
  }

  const ignored: [string, string][] = [
    ['a line comment', "// import { x } from './a.js'\nconst y = 1;"],
    ['a block comment', "/* import { x } from './a.js' */ const y = 1;"],
    ['a string', "const s = \"import { x } from './a.js'\";"],
    ['a template string', "const s = `import { x } from './a.js'`;"],
    ['a package', "import { x } from 'node:fs'; import y from 'eslint';"],
  ];
  for (const [what, text] of ignored) {
    it(`reads nothing from ${what}`, () => assert.deepEqual(readImports(text), []));
  }
});

describe('import-cycles: the rule', () => {
  const dir = realpathSync(tempDir('import-cycles-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => { writeFileSync(join(dir, name), text); return join(dir, name); };
  const config = [{
    files: ['**/*.mjs'],
    plugins: { lens: { rules: { 'import-cycles': importCycles } } },
    rules: { 'lens/import-cycles': 'error' as const },
  }];
  const lint = (path: string, text: string) => new Linter({ cwd: dir }).verify(text, config, { filename: path }).map((m) => m.message);

  it('finds a cycle through a side-effect import, and a file importing itself', () => {
    const a = file('side-a.mjs', "import './side-b.mjs';\n");
    file('side-b.mjs', "export { x } from './side-a.mjs';\n");
    const self = file('self.mjs', "import './self.mjs';\n");
    const cycles = (cyclesOf as (g: Map<string, string[]>) => string[][])(importGraph([a, self]));
    assert.deepEqual(cycles.map((c) => c.map((f) => f.slice(dir.length + 1))).sort(), [['self.mjs'], ['side-a.mjs', 'side-b.mjs']]);
  });

  it('makes up no cycle from an import commented out', () => {
    const a = file('comment-a.mjs', "// import { y } from './comment-b.mjs';\nexport const x = 1;\n");
    file('comment-b.mjs', "import { x } from './comment-a.mjs';\nexport const y = x;\n");
    assert.deepEqual(lint(a, "// import { y } from './comment-b.mjs';\nexport const x = 1;\n"), []);
  });

  it('hears an import removed, and one added, in the text it lints (an editor lints the same files again in one process)', () => {
    const withImport = "import { y } from './edit-b.mjs';\nexport const x = y;\n";
    const without = 'export const x = 1;\n';
    const a = file('edit-a.mjs', withImport);
    file('edit-b.mjs', "import { x } from './edit-a.mjs';\nexport const y = 2;\nexport const z = x;\n");
    assert.equal(lint(a, withImport).length, 1, 'the cycle a -> b -> a');
    assert.match(lint(a, withImport)[0], /edit-a\.mjs, edit-b\.mjs/);
    assert.deepEqual(lint(a, without), [], 'the import removed in the editor: no cycle');
    assert.equal(lint(a, withImport).length, 1, 'and added again: the cycle again');
  });
});
