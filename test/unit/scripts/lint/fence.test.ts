// The fence of eslint.config.mjs, planted (through ESLint itself, as npm run lint runs it): a wrong-way import fails lint (core importing the host, a
// view importing a shell, the host importing a webview file), a right-way one passes; and the cycle
// rule (scripts/lint/import-cycles.mjs) finds a cycle of two files, type-only imports included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import { ROOT } from '../../../support/paths.js';
// @ts-expect-error: a plain .mjs file of ours, without types.
import { cyclesOf, importsOf } from '../../../../scripts/lint/import-cycles.mjs';

const eslint = new ESLint({ cwd: ROOT });

async function fenceErrors(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: `${ROOT}/${file}` });
  return result.messages.filter((m) => m.ruleId === 'attention-lens/import-fence').map((m) => m.message);
}

test('lint fails an import against the layers and passes one that points down', async () => {
  assert.match((await fenceErrors('src/core/json/planted.ts', "import { log } from '../../host/log.js';\nexport const x = log;\n"))[0] ?? '', /core is the bottom layer/);
  assert.match((await fenceErrors('webview/views/spec/planted.ts', "import { App } from '../../panel/app.js';\nexport const x = App;\n"))[0] ?? '', /a view imports no shell/);
  assert.match((await fenceErrors('src/host/planted.ts', "import { VIEWS } from '../../webview/views/registry.js';\nexport const x = VIEWS;\n"))[0] ?? '', /imports no webview or CLI file/);
  assert.deepEqual(await fenceErrors('webview/views/spec/planted.ts', "import { ROLES } from '../../../src/core/vocabulary.js';\nexport const x = ROLES;\n"), []);
});

test('lint fails a cycle planted in the text linted (types included), and lints a file not yet on disk', async () => {
  const cycles = async (file: string, text: string) => {
    const [result] = await eslint.lintText(text, { filePath: `${ROOT}/${file}` });
    assert.deepEqual(result.messages.filter((m) => m.fatal), [], `${file} is linted`);
    return result.messages.filter((m) => m.ruleId === 'attention-lens/import-cycles').map((m) => m.message);
  };
  // tooltip.ts imports tooltip-api.ts: the contract importing the tooltip back closes a cycle.
  const planted = await cycles('webview/kit/tooltip-api.ts', "import type { Tooltip } from './tooltip.js';\nexport type T = Tooltip;\n");
  assert.equal(planted.length, 1);
  assert.match(planted[0], /import cycle: webview\/kit\/tooltip-api\.ts, webview\/kit\/tooltip\.ts/);
  assert.deepEqual(await cycles('webview/kit/tooltip-api.ts', 'export interface T { x: number }\n'), [], 'gone with the import');
  assert.deepEqual(await cycles('webview/kit/planted.ts', "import { Tooltip } from './tooltip.js';\nexport const x = Tooltip;\n"), []);
});

test('the cycle rule reads every relative import and finds a cycle, a self-import, and no cycle in a chain', () => {
  assert.deepEqual(importsOf("import type { A } from './a.js';\nexport * from '../b.js';\nconst c = import('./c.js');\nimport x from 'd3';"), ['./a.js', '../b.js', './c.js']);
  assert.deepEqual(cyclesOf(new Map([['a', ['b']], ['b', ['a']], ['c', ['a']]])), [['a', 'b']]);
  assert.deepEqual(cyclesOf(new Map([['a', ['a']]])), [['a']]);
  assert.deepEqual(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', []]])), []);
});
