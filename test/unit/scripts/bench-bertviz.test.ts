// scripts/bench-bertviz.ts builds BertViz's head-view page for bench-page.ts from the BertViz the user
// names. These tests use a made-up BertViz of a few lines in its shape (none of BertViz's code is kept
// here): where the sources are read from (a checkout, a package folder, a git directory), the HTML taken
// from head_view.py, the CDN paths pointed at local files, and the page's params written at every
// PYTHON_PARAMS marker, as Python's str.replace does.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { givenBertvizLibs, headViewHtml, localHeadViewJs, prettifyTokens, readBertviz, writeHeadViewPage } from '../../../scripts/bench-bertviz.js';

const dir = mkdtempSync(join(tmpdir(), 'attn-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const PY = [
  'def head_view(attention, tokens, html_action="view"):',
  '    vis_html = f"""',
  '      <div id="{vis_id}"><select id="layer"></select>{select_html}<div id=\'vis\'></div></div>',
  '    """',
  "    if html_action == 'view':",
  "        pass",
  "    elif html_action == 'return':",
  "        html1 = HTML('<script src=\"https://cdn.example/require.min.js\"></script>')",
  "        script = '\\n<script type=\"text/javascript\">\\n' + html3.data + '\\n</script>\\n'",
  '',
].join('\n');
const JS = [
  "require.config({ paths: { d3: 'https://cdn.example/d3.min', jquery: 'https://cdn.example/jquery.min' } });",
  'const params = PYTHON_PARAMS; // PYTHON_PARAMS is replaced',
  '',
].join('\n');
const libs = { dir: '/libs', versions: [] };

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

test('readBertviz reads a checkout (with setup.py\'s version), a package folder and a git directory\'s HEAD', () => {
  const checkout = join(dir, 'checkout');
  writeFiles(checkout, { 'bertviz/head_view.py': PY, 'bertviz/head_view.js': JS, 'setup.py': 'setup(\n    name="bertviz",\n    version="1.4.1",\n)\n' });
  assert.deepEqual(readBertviz(checkout), { headViewPy: PY, headViewJs: JS, version: '1.4.1', form: 'a checkout' });
  assert.deepEqual(readBertviz(join(checkout, 'bertviz')), { headViewPy: PY, headViewJs: JS, form: 'an installed package' });
  const git = (...args: string[]) => execFileSync('git', ['-C', checkout, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'ignore' });
  git('init', '-q'); git('add', '.'); git('commit', '-q', '-m', 'x');
  // The git directory alone (as a mirror keeps it), its work tree apart.
  const bare = join(dir, 'bare.git');
  execFileSync('git', ['clone', '-q', '--bare', checkout, bare], { stdio: 'ignore' });
  assert.deepEqual(readBertviz(bare), { headViewPy: PY, headViewJs: JS, version: '1.4.1', form: 'a git directory (HEAD)' });
  assert.throws(() => readBertviz(join(dir, 'nothing')), /not a BertViz checkout/);
});

test('headViewHtml takes the require.js tag of the \'return\' branch and the vis div with its id, no filter select', () => {
  const { requireTag, visHtml } = headViewHtml(PY, 'bertviz-abc');
  assert.equal(requireTag, '<script src="https://cdn.example/require.min.js"></script>');
  assert.equal(visHtml, '\n      <div id="bertviz-abc"><select id="layer"></select><div id=\'vis\'></div></div>\n    ');
  assert.throws(() => headViewHtml(PY.replace("'return'", "'other'"), 'x'), /not the head_view.py this bench knows/);
  assert.throws(() => headViewHtml(PY.replace('html3.data', 'js'), 'x'), /not wrapped/);
  assert.throws(() => headViewHtml(PY.replace('{select_html}', '{other}'), 'x'), /a field this bench does not fill/);
});

test('localHeadViewJs points require.config\'s d3 and jquery at the libraries\' folder', () => {
  const js = localHeadViewJs(JS, libs);
  assert.ok(js.includes(`d3: '${pathToFileURL('/libs/d3.min').href}', jquery: '${pathToFileURL('/libs/jquery.min').href}'`), js);
  assert.doesNotMatch(js, /https/);
  assert.throws(() => localHeadViewJs(JS.replace("d3: 'https://cdn.example/d3.min', ", ''), libs), /found 1/);
});

test('prettifyTokens does what BertViz\'s prettify_tokens does: Ġ and ▁ are spaces, </w> goes', () => {
  assert.deepEqual(prettifyTokens(['Ġthe', '▁cat', 'sat</w>', 'ĠĠ']), [' the', ' cat', 'sat', '  ']);
});

test('writeHeadViewPage writes the tag, the div and the script with the params at both markers, and returns its bytes', () => {
  const page = join(dir, 'page.html');
  const attention = { layers: 1, heads: 1, n: 2, head: () => [0.5, 0.5, 0.25, 0.75] };
  const bytes = writeHeadViewPage(page, { headViewPy: PY, headViewJs: JS, form: 'a checkout' }, libs, attention, ['Ġa', 'é'], 'bertviz-abc');
  const html = readFileSync(page, 'utf8');
  assert.equal(bytes, statSync(page).size);
  const params = '{"attention": [{"name": null, "attn": [[[[0.5, 0.5], [0.25, 0.75]]]], "left_text": [" a", "\\u00e9"], "right_text": [" a", "\\u00e9"]}], "default_filter": "0", "root_div_id": "bertviz-abc", "layer": null, "heads": null, "include_layers": [0]}';
  assert.equal(html, `<script src="${pathToFileURL('/libs/require.js').href}"></script>`
    + '\n      <div id="bertviz-abc"><select id="layer"></select><div id=\'vis\'></div></div>\n    '
    + '\n<script type="text/javascript">\n'
    + localHeadViewJs(JS, libs).replace('PYTHON_PARAMS', params).replace('PYTHON_PARAMS', params)
    + '\n</script>\n');
});

test('givenBertvizLibs wants require.js, d3.min.js and jquery.min.js in the folder', () => {
  const folder = join(dir, 'libs');
  writeFiles(folder, { 'require.js': '', 'd3.min.js': '' });
  assert.throws(() => givenBertvizLibs(folder), /no jquery.min.js/);
  writeFiles(folder, { 'jquery.min.js': '' });
  assert.equal(givenBertvizLibs(folder).dir, folder);
});
