// Export from a shell: the shown view's standalone SVG text (what kit/export makes, unchanged), and
// the browser's download of it in the --html page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { download, pictureOf } from '../../../../webview/shell/export.js';
import { standaloneSvg } from '../../../../webview/kit/export.js';
import { renderArcs } from '../../../../webview/views/spec/arcs.js';
import { makeTheme } from '../../../../webview/kit/colour.js';
import { analyze } from '../../../../src/core/index.js';
import { exampleText } from '../../../support/specs.js';

test('pictureOf in SVG is the standalone SVG of the view, every cell in it', async () => {
  const dom = new JSDOM('<!doctype html><body><div id="v"></div></body>');
  const doc = dom.window.document;
  const data = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  const handle = renderArcs(doc.getElementById('v') as unknown as HTMLElement, data, {
    theme: makeTheme('light'), width: 700, head: 'all', input: 0, token: 0, matrixMode: 'weights', projection: 'wq', interactive: true,
  });
  const text = await pictureOf(handle, doc, 'svg');
  assert.equal(text, standaloneSvg(handle, doc).text);
  assert.match(text, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg /);
  assert.doesNotMatch(text, /tabindex/, 'no keyboard stops in a file');
  handle.destroy();
  dom.window.close();
});

test('download clicks a link that names the file and carries the picture', () => {
  const dom = new JSDOM('<!doctype html><body></body>');
  const doc = dom.window.document;
  const clicked: { download: string; href: string }[] = [];
  dom.window.HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) { clicked.push({ download: this.download, href: this.href }); };
  download(doc, 'attention.model.png', 'png', 'data:image/png;base64,AAAA');
  assert.deepEqual(clicked, [{ download: 'attention.model.png', href: 'data:image/png;base64,AAAA' }]);
  dom.window.close();
});
