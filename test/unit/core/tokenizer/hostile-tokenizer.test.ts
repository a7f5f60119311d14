// Properties over hostile tokenizer.json files drawn from a seed (test/support/hostile-tokenizers.ts):
// regexes made to backtrack, size bombs inside the file's byte budget, decoders that write megabytes per
// token. Each family runs in a child Node whose heap is capped at 2 GB; whatever the file holds, each
// case ends in a result or a one-line refusal naming tokenizer.json and the key at fault, within a
// bound of time measured in the child. The child's own time limit only catches a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../../support/paths.js';
import type { Verdict } from '../../../support/hostile-tokenizer-child.js';
import { MAX_VOCAB } from '../../../../src/core/tokenizer/bounds/limits.js';
import { tokenizerFrom } from '../../../../src/core/tokenizer/index.js';
import { TokenizerError } from '../../../../src/core/tokenizer/tokenizer.js';
import { MAX_STEPS, MIN_WINDOW, regexCost, stepsAt } from '../../../../src/core/tokenizer/bounds/regex-safety.js';
import { choicesRegex } from '../../../support/hostile-tokenizers.js';
import { seeded } from '../../../support/random.js';
import { llama3Style } from '../../../support/tokenizer-fixtures.js';

const CHILD = join(ROOT, 'test', 'support', 'hostile-tokenizer-child.ts');
/** A hang guard, not a speed measure: the shape bounds the work, and a loaded machine may take long over it. */
const CASE_MS = 60_000;

function run(family: string, seed: number, count: number): Verdict[] {
  const r = spawnSync(process.execPath, ['--max-old-space-size=2048', '--import', 'tsx', CHILD, JSON.stringify({ family, seed, count })], {
    cwd: ROOT, encoding: 'utf8', timeout: 10 * 60_000, maxBuffer: 64 * 1024 * 1024,
  });
  const verdicts = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Verdict);
  const last = verdicts.at(-1)?.name ?? 'none yet';
  assert.equal(r.signal, null, `the child was stopped (${r.signal}) after the case "${last}": a hang`);
  assert.equal(r.status, 0, `the child failed after the case "${last}": ${r.stderr.slice(0, 2000)}`);
  assert.equal(verdicts.length, count === 0 ? 1 : family === 'vocabulary' ? 1 : count);
  return verdicts;
}

/** A refusal is one line that names tokenizer.json and a key in quotes (or the vocabulary or added_tokens). */
function assertClean(v: Verdict): void {
  assert.notEqual(v.verdict, 'crash', `${v.name}: ${v.message}`);
  assert.ok(v.ms < CASE_MS, `${v.name}: ${v.ms} ms`);
  assert.ok(v.rss < 2 * 2 ** 30, `${v.name}: ${v.rss} bytes resident`);
  if (v.verdict === 'refused') {
    assert.doesNotMatch(v.message ?? '', /\n/, v.name);
    assert.match(v.message ?? '', /^TokenizerError: tokenizer\.json: .*("[a-z_]+[^"]*"|model\.vocab|added_tokens)/, `${v.name}: ${v.message}`);
  }
}

test('regexes drawn to backtrack, in a Split, a Replace normalizer or a Replace decoder: a result or a refusal naming the pattern\'s key, in bounded time', () => {
  const verdicts = run('regex', 20_261, 60);
  verdicts.forEach(assertClean);
  const refused = verdicts.filter((v) => v.verdict === 'refused');
  // The family holds both kinds, so the property is not met by refusing everything or nothing.
  assert.ok(refused.length > 0 && refused.length < verdicts.length, `${refused.length} of ${verdicts.length} refused`);
  for (const v of refused) assert.match(v.message ?? '', /"(pre_tokenizer|normalizer|decoder)[^"]*\.pattern\.Regex"/, v.name);
});

test('size bombs inside the file\'s budget (a multiplying Replace, a long Metaspace replacement or Prepend, a huge added token, a long text for a few ids, many rules): bounded in time and memory', () => {
  run('size', 4_242, 30).forEach(assertClean);
});

test(`a vocabulary over ${MAX_VOCAB.toLocaleString('en-US')} pieces is refused by its key before the library builds it`, () => {
  const [v] = run('vocabulary', 0, 2_000_000);
  assertClean(v);
  assert.equal(v.verdict, 'refused');
  assert.match(v.message ?? '', /model\.vocab\) holds more than/);
});

test('decoders that write megabytes per token: the labels are bounded, or the decoder is refused by its key', () => {
  const verdicts = run('decoder', 77, 20);
  verdicts.forEach(assertClean);
  for (const v of verdicts.filter((x) => x.verdict === 'refused')) assert.match(v.message ?? '', /"decoder\.decoders\[\d+\](\.content)?"/, v.name);
});

test('optional parts before a repeat and nested bounded repeats: refused when the file is read by the shape\'s steps, or run to the same verdict every time', () => {
  const rand = seeded(31_337);
  let refused = 0;
  for (let i = 0; i < 40; i++) {
    const regex = choicesRegex(rand);
    const { json } = llama3Style([]);
    ((json.pre_tokenizer as Record<string, unknown>).pretokenizers as unknown[]).unshift({ type: 'Split', pattern: { Regex: regex }, behavior: 'Isolated', invert: false });
    const cost = regexCost(regex);
    const verdict = () => {
      try {
        return `ids ${tokenizerFrom({ tokenizerJson: JSON.stringify(json) }).encode('a'.repeat(3000) + ' b').ids.length}`;
      } catch (err) {
        assert.ok(err instanceof TokenizerError, `${regex}: ${String(err)}`);
        return err.message;
      }
    };
    const first = verdict();
    if (cost === undefined || stepsAt(cost, MIN_WINDOW) > MAX_STEPS) {
      assert.match(first, /^tokenizer\.json: .*"pre_tokenizer\.pretokenizers\[0\]\.pattern\.Regex" (tries|repeats|has)/, regex);
      refused++;
    }
    assert.equal(verdict(), first, `${regex}: the same verdict twice`);
  }
  assert.ok(refused > 0 && refused < 40, `${refused} of 40 refused by shape`);
});
