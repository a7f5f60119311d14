// The story part of a render (src/host/panel/story.ts): the next spec's URI beside the shown one (a
// bare *.attn.json name only) and its title, from the open document if there is one, else the file.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { panelStory, siblingSpec, specTitle } from '../../../../src/host/panel/story.js';
import { asVscode, standIn, Uri } from '../../../support/vscode/index.js';
import { examplesInTemp } from '../../../support/host-fixture.js';

beforeEach(() => standIn.reset());

test('siblingSpec stays in the folder of the spec', () => {
  const spec = asVscode<import('vscode').Uri>(Uri.parse('file:///w/specs/a.attn.json?q#f'));
  assert.equal(siblingSpec(spec, 'b.attn.json')?.toString(), 'file:///w/specs/b.attn.json');
  for (const bad of ['../b.attn.json', 'sub/b.attn.json', 'b.json']) assert.equal(siblingSpec(spec, bad), undefined, bad);
});

test('the title comes from the open document first, then the file; no title or no JSON is undefined', async () => {
  const { folder } = examplesInTemp();
  writeFileSync(`${folder}/b.attn.json`, JSON.stringify({ title: 'On disk' }));
  writeFileSync(`${folder}/c.attn.json`, '{ not json');
  const b = Uri.file(`${folder}/b.attn.json`);
  assert.equal(await specTitle(asVscode(b)), 'On disk');
  assert.equal(await specTitle(asVscode(Uri.file(`${folder}/c.attn.json`))), undefined);
  standIn.documents.type(await (await import('../../../support/vscode/index.js')).workspace.openTextDocument(b), JSON.stringify({ title: 'Typed' }));
  assert.equal(await specTitle(asVscode(b)), 'Typed');
  const story = await panelStory(asVscode(Uri.file(`${folder}/a.attn.json`)), { description: 'd', next: 'c.attn.json' });
  assert.deepEqual(story, { description: 'd', next: { file: 'c.attn.json', title: 'c.attn.json' } }, 'no title: the file name');
  assert.equal(await panelStory(asVscode(Uri.file(`${folder}/a.attn.json`)), { next: 'gone.attn.json' }), undefined, 'nothing left to show');
});
