// Export SVG / PNG, the pure half (src/host/panel/export-file.ts): the file name and the bytes the
// untrusted webview sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { posix } from 'node:path';
import { exportBytes, exportedMessage, exportFileName, exportPath, safeViewName } from '../../../../src/host/panel/export-file.js';

const SPEC = '/w/specs/apple-watch-lens.attn.json';
// A 1×1 PNG.
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const SVG = '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>\n';

test('a real view name: <stem>.<view>.<format> next to the spec', () => {
  assert.equal(exportPath(SPEC, 'arcs', 'svg'), '/w/specs/apple-watch-lens.arcs.svg');
  assert.equal(exportPath(SPEC, 'matrix', 'png'), '/w/specs/apple-watch-lens.matrix.png');
  assert.equal(exportFileName('/w/UPPER.ATTN.JSON', 'steps', 'svg'), 'UPPER.steps.svg');
  assert.equal(exportPath('untitled-1.attn.json', 'arcs', 'svg'), 'untitled-1.arcs.svg', 'no folder: no folder added');
});

test('hostile view names can only make <stem>.<view>.svg|png in the spec\'s own folder', () => {
  const hostile = ['../../x', 'a/b', '..', '.', '', '/etc/passwd', '..\\..\\x', 'a\u0000b', 'ビュー', '😀', '%2e%2e%2fx',
    'arcs/../../../x', ' ', 'x'.repeat(500), 'a.b', 'arcs.svg/..', 'C:\\x'];
  for (const view of hostile) {
    for (const format of ['svg', 'png'] as const) {
      const path = exportPath(SPEC, view, format);
      const name = exportFileName(SPEC, view, format);
      assert.equal(posix.dirname(path), '/w/specs', `${JSON.stringify(view)}: same folder`);
      assert.equal(posix.normalize(path), path, `${JSON.stringify(view)}: nothing to resolve`);
      assert.equal(posix.basename(path), name);
      assert.match(name, new RegExp(`^apple-watch-lens\\.[A-Za-z0-9_-]{1,40}\\.${format}$`), JSON.stringify(view));
      assert.ok(!name.includes('/') && !name.includes('\\') && !name.includes('..'), JSON.stringify(view));
    }
  }
  assert.equal(safeViewName('../../x'), 'x');
  assert.equal(safeViewName('a/b'), 'ab');
  assert.equal(safeViewName('..'), 'view');
  assert.equal(safeViewName(''), 'view');
  assert.equal(safeViewName('ビュー'), 'view');
  assert.equal(exportPath(SPEC, '..', 'svg'), '/w/specs/apple-watch-lens.view.svg');
});

test('a spec whose name is only the suffix still gets a name', () => {
  assert.equal(exportPath('/w/.attn.json', 'arcs', 'png'), '/w/spec.arcs.png');
});

test('svg: only SVG text is written', () => {
  const ok = exportBytes('svg', SVG);
  assert.ok(ok instanceof Uint8Array);
  assert.equal(Buffer.from(ok).toString('utf8'), SVG);
  assert.ok(exportBytes('svg', '<svg viewBox="0 0 1 1"></svg>') instanceof Uint8Array);
  assert.ok(exportBytes('svg', '<!-- c --><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x"><svg>\n</svg>') instanceof Uint8Array);
  for (const bad of ['', 'hello', '<html><body><svg></svg></body></html>', '<script>alert(1)</script><svg></svg>',
    '<svgfoo></svgfoo>', '<svg>', PNG, '<?xml version="1.0"?><html/>', 'text <svg></svg>']) {
    const r = exportBytes('svg', bad);
    assert.equal(typeof r, 'string', JSON.stringify(bad.slice(0, 40)));
    assert.match(r as string, /did not send an SVG/);
  }
});

test('png: only a data URL holding real PNG bytes is written', () => {
  const ok = exportBytes('png', PNG);
  assert.ok(ok instanceof Uint8Array);
  assert.deepEqual([...ok.slice(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.match(exportBytes('png', SVG) as string, /not send a PNG data URL/);
  assert.match(exportBytes('png', 'data:image/jpeg;base64,/9j/4AAQ') as string, /not send a PNG data URL/);
  assert.match(exportBytes('png', `data:image/png;base64,${Buffer.from('GIF89a not a png').toString('base64')}`) as string, /not a PNG/);
  assert.match(exportBytes('png', 'data:image/png;base64,') as string, /not a PNG/);
  assert.match(exportBytes('png', `data:image/png;base64,${Buffer.from(SVG).toString('base64')}`) as string, /not a PNG/);
  assert.match(exportBytes('png', 'data:image/png;base64,iVBO$$not base64') as string, /not a PNG/, 'text that is not base64 is a message, not a throw');
});

test('the bytes written are the same as Node\'s Buffer makes (the web host has no Buffer)', () => {
  assert.deepEqual([...exportBytes('png', PNG) as Uint8Array], [...Buffer.from(PNG.slice(PNG.indexOf(',') + 1), 'base64')]);
  const svg = '<svg><text>é → 136</text></svg>';
  assert.deepEqual([...exportBytes('svg', svg) as Uint8Array], [...Buffer.from(svg, 'utf8')]);
});

test('the message says when an existing file was replaced', () => {
  assert.equal(exportedMessage('specs/a.arcs.svg', false), 'Attention Lens: exported specs/a.arcs.svg');
  assert.match(exportedMessage('specs/a.arcs.svg', true), /^Attention Lens: exported specs\/a\.arcs\.svg \(replaced the file that was there\)$/);
});
