// The file a reference spec names (src/host/panel/reference.ts): beside the spec or below it, else a
// sentence saying why not; and the tensor and tokens the model editor opens it with.
import '../../../support/vscode/register.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { referencedFile, referenceOpenOptions } from '../../../../src/host/panel/reference.js';
import { asVscode, Uri } from '../../../support/vscode/index.js';
import { examplesInTemp } from '../../../support/host-fixture.js';

const ref = (file: string, extra = {}) => ({ file, span: { offset: 0, length: 1 }, ...extra });

test('a file beside the spec resolves; a missing one, one leading out, or an unsaved spec say why', () => {
  const { folder } = examplesInTemp();
  writeFileSync(`${folder}/run.npy`, 'x');
  const spec = asVscode<import('vscode').Uri>(Uri.file(`${folder}/s.attn.json`));
  const found = referencedFile(spec, ref('run.npy'));
  assert.equal(typeof found === 'string' ? found : found.fsPath, `${folder}/run.npy`);
  assert.equal(typeof referencedFile(spec, ref('gone.npy')), 'string');
  assert.match(String(referencedFile(spec, ref('../run.npy'))), /\.\./);
  assert.match(String(referencedFile(asVscode(Uri.parse('untitled:s.attn.json')), ref('run.npy'))), /save it first/);
});

test('the options carry the tensor and tokens only when the spec names them', () => {
  assert.deepEqual(referenceOpenOptions(ref('a.npy')), {});
  assert.deepEqual(referenceOpenOptions(ref('a.npz', { tensor: 'attn', tokens: ['a'] })), { tensor: 'attn', tokens: ['a'] });
});
