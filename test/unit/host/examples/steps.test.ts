// The story's steps (src/host/examples/steps.ts) against package.json's walkthrough and the examples:
// each step's button opens its own example, its completion event waits for the context key Open
// Example sets, its markdown exists, and the steps follow the examples' "next" links in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STORY_STEPS, stepContextKey, stepOf } from '../../../../src/host/examples/steps.js';
import { readSpec } from '../../../../src/core/spec/read.js';
import { EXAMPLES } from '../../../support/specs.js';
import { ROOT } from '../../../support/paths.js';

interface Step { id: string; description: string; media: { markdown: string }; completionEvents: string[] }
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { walkthroughs: { steps: Step[] }[]; commands: { command: string }[] } };

test('every walkthrough step opens its example and completes on the key Open Example sets', () => {
  const [walkthrough] = pkg.contributes.walkthroughs;
  assert.deepEqual(walkthrough.steps.map((s) => s.id), STORY_STEPS.map((s) => s.id));
  for (const [i, step] of walkthrough.steps.entries()) {
    const story = STORY_STEPS[i];
    const link = /\(command:attentionLens\.openExample\?([^)]+)\)/.exec(step.description);
    assert.ok(link, `${step.id}: a button that runs Open Example`);
    assert.deepEqual(JSON.parse(decodeURIComponent(link[1])), [story.example]);
    assert.deepEqual(step.completionEvents, [`onContext:${stepContextKey(story)}`]);
    assert.ok(existsSync(join(ROOT, step.media.markdown)), step.media.markdown);
    assert.ok(existsSync(join(EXAMPLES, story.example)), story.example);
    assert.equal(stepOf(story.example), story);
  }
  assert.ok(pkg.contributes.commands.some((c) => c.command === 'attentionLens.openExample'));
});

test('the steps follow the examples\' "next" links, in the seeds\' order', () => {
  const nextOf = (name: string) => readSpec(readFileSync(join(EXAMPLES, name), 'utf8')).spec?.next;
  for (let i = 0; i + 1 < STORY_STEPS.length; i++) {
    let at: string | undefined = STORY_STEPS[i].example;
    const passed: string[] = [];
    while (at && at !== STORY_STEPS[i + 1].example && passed.length < 20) { passed.push(at); at = nextOf(at); }
    assert.equal(at, STORY_STEPS[i + 1].example, `from ${STORY_STEPS[i].example} the Next links reach ${STORY_STEPS[i + 1].example}: ${passed.join(' → ')}`);
  }
});

test('the lens opens where 136 and 64 are in view at once: raw scores of "tech lens", row watch', () => {
  const spec = readSpec(readFileSync(join(EXAMPLES, 'apple-watch-lens.attn.json'), 'utf8')).spec!;
  assert.deepEqual(spec.open, { view: 'matrix', head: 1, token: 3, matrix: 'scores' });
  assert.equal(spec.heads[1].name, 'tech lens');
  assert.equal(spec.inputs[0].tokens[3].text, 'watch');
});
