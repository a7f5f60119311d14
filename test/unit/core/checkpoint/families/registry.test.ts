// The files adding a model family touches (src/core/checkpoint/families/registry.ts): for every
// registered family, its name occurs in the code of no file under src/ or webview/ but its description
// (families/<name>.ts) and the registry's one line, and it has that description and a test file
// (test/unit/core/checkpoint/families/<name>.test.ts). "Occurs" is read from the TypeScript syntax,
// comments left out (a comment may say "GPT-2"): an identifier that is the name (gpt_neox,
// gemma3_text) or has it as one of its words (gpt2, GPT2_CONFIG, isQwen2) without being another
// family's name (gemma3_text does not name gemma3), a string that is the name ('llama'), or a string that lists two or
// more family names (a help text written by hand). A Hugging Face model id in an example
// ('"gpt2", "org/name"') is neither, and is allowed. In the tokenizer (TOKENIZER_DIR), tokenizer.json names
// its parts after the models that brought them (BertNormalizer, BertPreTokenizer, RobertaProcessing), so
// there a word of an identifier (bertNormalize) names a part of the file format, not a family: only a
// whole identifier or a string that is the name counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { FAMILIES, FAMILY_NAMES } from '../../../../../src/core/checkpoint/families/index.js';
import { ROOT } from '../../../../support/paths.js';

const FAMILY_DIR = 'src/core/checkpoint/families';
const REGISTRY = `${FAMILY_DIR}/registry.ts`;
const TOKENIZER_DIR = 'src/core/tokenizer/';

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(path);
    return /\.(ts|mts|js|mjs)$/.test(e.name) ? [path] : [];
  });
}

/** An identifier's words: gpt2TokenizerJson → gpt2, tokenizer, json; GPT2_CONFIG → gpt2, config. */
const words = (identifier: string) => identifier.split(/[_$]+|(?<=[a-z0-9])(?=[A-Z])/).map((w) => w.toLowerCase()).filter(Boolean);

/** Every identifier and every string's text (literals and template pieces) of a file, comments left out. */
function tokensOf(path: string): { identifiers: string[]; strings: string[] } {
  const file = ts.createSourceFile(path, readFileSync(join(ROOT, path), 'utf8'), ts.ScriptTarget.Latest, true);
  const identifiers: string[] = [], strings: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) identifiers.push(node.text);
    else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) strings.push(node.text);
    node.forEachChild(visit);
  };
  visit(file);
  return { identifiers, strings };
}

const ALL = [...sources('src'), ...sources('webview')].map((path) => ({ path, ...tokensOf(path) }));

/** Family names that a string holds as whole words. */
const namesIn = (text: string) => FAMILY_NAMES.filter((name) => new RegExp(`(^|[^A-Za-z0-9_])${name}($|[^A-Za-z0-9_])`).test(text));

/** The files whose code names `family`. */
function filesNaming(family: string): string[] {
  return ALL.filter(({ path, identifiers, strings }) =>
    // The whole identifier too (a name with an underscore, gemma3_text, is not one of its words); an
    // identifier that is another family's name names that family only (gemma3_text is not gemma3).
    identifiers.some((id) => id === family || (!path.startsWith(TOKENIZER_DIR) && !(FAMILY_NAMES as readonly string[]).includes(id) && words(id).includes(family))) ||
    strings.some((s) => s === family || (namesIn(s).length >= 2 && (namesIn(s) as string[]).includes(family))),
  ).map((f) => f.path).sort();
}

test('the registry is one export line per family, each from its own description file, whose name is the file\'s', () => {
  const lines = readFileSync(join(ROOT, REGISTRY), 'utf8').split('\n').filter((l) => l && !l.startsWith('//'));
  assert.equal(lines.length, FAMILIES.length, lines.join('\n'));
  for (const line of lines) {
    const m = /^export \{ (\w+) \} from '\.\/(\w+)\.js';$/.exec(line);
    assert.ok(m && m[1] === m[2], `registry line ${JSON.stringify(line)}: export { name } from './name.js'`);
  }
  assert.deepEqual([...FAMILY_NAMES].sort(), lines.map((l) => /from '\.\/(\w+)\.js'/.exec(l)![1]).sort());
});

for (const family of FAMILY_NAMES) {
  test(`${family}: named in its description and the registry only, with a description file and a test file`, () => {
    const description = `${FAMILY_DIR}/${family}.ts`;
    assert.ok(existsSync(join(ROOT, description)), `${description} is missing`);
    assert.ok(existsSync(join(ROOT, `test/unit/core/checkpoint/families/${family}.test.ts`)), `the test file of ${family} is missing`);
    assert.deepEqual(filesNaming(family), [description, REGISTRY].sort());
  });
}

test('the check itself: it finds a family named by an identifier, by a string and by a list, and not by a comment or a model id', () => {
  // The scan would pass vacuously if it read nothing; these files are known to hold such text.
  assert.ok(ALL.length > 100, `${ALL.length} files read`);
  assert.deepEqual(words('gpt2TokenizerJson'), ['gpt2', 'tokenizer', 'json']);
  assert.deepEqual(words('QWEN2_CONFIG'), ['qwen2', 'config']);
  const description = ALL.find((f) => f.path === `${FAMILY_DIR}/${FAMILY_NAMES[0]}.ts`)!;
  assert.ok(description.strings.includes(FAMILY_NAMES[0]) && description.identifiers.includes(FAMILY_NAMES[0]));
  assert.deepEqual(namesIn(`attn runs ${FAMILY_NAMES.join(', ')}`), [...FAMILY_NAMES]);
  assert.deepEqual(namesIn(`a model id ("${FAMILY_NAMES[0]}", "org/name")`), [FAMILY_NAMES[0]]);
  const location = ALL.find((f) => f.path === 'src/core/checkpoint-files/model-location.ts')!;
  assert.ok(location.strings.every((s) => namesIn(s).length < 2));
});
