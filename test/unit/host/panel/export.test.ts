// Export's writing half (src/host/panel/export.ts) in the vscode stand-in: the picture goes beside the
// spec as <stem>.<view>.<format>, the message names it relative to the workspace folder and says when
// a file was replaced; bytes that are not the format, or a spec that is not on disk, write nothing.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { exportUri, writeExport } from '../../../../src/host/panel/export.js';
import { asVscode, standIn, Uri } from '../../../support/vscode/index.js';
import { examplesInTemp } from '../../../support/host-fixture.js';

beforeEach(() => standIn.reset());

const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>\n';

test('the SVG goes beside the spec; the second export says it replaced the first', async () => {
  const { folder, uris: [spec] } = examplesInTemp('apple-watch-lens.attn.json');
  standIn.documents.setFolders(Uri.file(folder));
  const written = await writeExport(asVscode(spec), 'matrix', 'svg', SVG);
  assert.equal(written?.fsPath, join(folder, 'apple-watch-lens.matrix.svg'));
  assert.equal(readFileSync(join(folder, 'apple-watch-lens.matrix.svg'), 'utf8'), SVG);
  await writeExport(asVscode(spec), 'matrix', 'svg', SVG);
  assert.deepEqual(standIn.windows.state.messages.map((m) => m.message), [
    'Attention Lens: exported apple-watch-lens.matrix.svg',
    'Attention Lens: exported apple-watch-lens.matrix.svg (replaced the file that was there)',
  ]);
});

test('a view name cannot lead out of the folder, and a query or fragment of the spec is dropped', () => {
  const spec = Uri.parse('file:///work/specs/a.attn.json?x=1#frag');
  assert.equal(exportUri(asVscode(spec), '../../etc/passwd', 'png').toString(), 'file:///work/specs/a.etcpasswd.png');
});

test('bytes that are not the format, or a spec not on disk, write nothing and say why', async () => {
  const { folder, uris: [spec] } = examplesInTemp('apple-watch-lens.attn.json');
  assert.equal(await writeExport(asVscode(spec), 'arcs', 'svg', '<html><svg></svg></html>'), undefined);
  assert.equal(await writeExport(asVscode(Uri.parse('untitled:Untitled-1.attn.json')), 'arcs', 'svg', SVG), undefined);
  assert.deepEqual(readdirSync(folder), ['apple-watch-lens.attn.json']);
  const [notSvg, notOnDisk] = standIn.windows.state.messages;
  assert.deepEqual(notSvg, { severity: 'error', message: 'Attention Lens: export failed: the panel did not send an SVG.' });
  assert.equal(notOnDisk.severity, 'error');
  assert.match(notOnDisk.message, /^Attention Lens: could not write /);
});
