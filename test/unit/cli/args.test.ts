// The command line as attn reads it (src/cli/args.ts): the command, its files, flags with and
// without a value, and the sentences for a flag whose value is wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { choiceFlag, intFlag, isBad, parseArgs, type Args } from '../../../src/cli/args.js';

const parsed = (...argv: string[]): Args => {
  const a = parseArgs(argv);
  assert.ok(typeof a !== 'string', String(a));
  return a;
};

test('the first word is the command, the other words are files, and flags may come anywhere', () => {
  const a = parsed('--json', 'validate', 'a.json', '--max-bytes', '10', 'b.json', '--sort');
  assert.equal(a.command, 'validate');
  assert.deepEqual(a.files, ['a.json', 'b.json']);
  assert.deepEqual([...a.flags], [['--json', true], ['--max-bytes', '10'], ['--sort', true]]);
  assert.deepEqual(parsed('render', 'x', '--view', '--json').flags.get('--view'), '--json', 'a valued flag takes the next word, whatever it is');
});

test('a valued flag at the end and an unknown option are refused with a sentence', () => {
  assert.equal(parseArgs(['render', 'x', '--view']), '--view needs a value');
  assert.equal(parseArgs(['render', '--colour', 'red']), 'unknown option --colour');
  assert.deepEqual(parsed('validate', '-').files, ['-'], 'a lone - is a file (standard input), not an option');
});

test('intFlag takes whole numbers ≥ 0 and says what it got otherwise; choiceFlag names its choices', () => {
  const a = parsed('render', '--input', '3', '--head', '-1', '--width', '2.5', '--theme', 'pink', '--show', 'weights');
  assert.equal(intFlag(a, '--input', 0), 3);
  assert.equal(intFlag(a, '--token', -1), -1, 'the fallback when absent');
  assert.deepEqual(intFlag(a, '--head', 0), { error: '--head takes a whole number, got -1' });
  assert.deepEqual(intFlag(a, '--width', 0), { error: '--width takes a whole number, got 2.5' });
  assert.deepEqual(choiceFlag(a, '--theme', ['light', 'dark']), { error: '--theme must be one of light, dark' });
  assert.equal(choiceFlag(a, '--show', ['scores', 'weights']), 'weights');
  assert.equal(choiceFlag(a, '--matrix', ['wq']), undefined);
  assert.ok(isBad({ error: 'x' }) && !isBad(3) && !isBad(undefined) && !isBad('error'));
});
