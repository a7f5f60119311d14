// Lint config: recommended JS + typescript-eslint rules, a ban on innerHTML so spec strings can only
// ever reach the DOM as text, and the fence between the layers (see "Layout" in the README):
//
//   core  <-  protocol  <-  pages          (pure; core/files, core/checkpoint-files and core/threads alone touch Node)
//     ^          ^           ^
//   webview/kit <- webview/views <- webview/{panel, model-editor, notebook}    (the shells; notebook uses model-editor/app.ts)
//   webview/kit <- webview/shell (the shells' base: theme, resize, focus, transport) <- the shells
//   src/cli: core, protocol, pages, views, kit (it draws through the views, never a shell)
//   src/host: core, protocol, pages (never a webview file or the CLI)
//
// attention-lens/import-fence (scripts/lint) resolves every import to its file, so a wrong-way import fails
// lint whatever its spelling; attention-lens/import-cycles fails any cycle, types included.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importCycles } from './scripts/lint/import-cycles.mjs';
import { importFence } from './scripts/lint/import-fence.mjs';

const HOST = './src/host';
const CLI = './src/cli';
const PAGES = './src/pages';
const PROTOCOL = './src/protocol';
const CORE = './src/core';
const WEBVIEW = './webview';
const KIT = './webview/kit';
const VIEWS = './webview/views';
const SHELL_BASE = './webview/shell';
const SHELLS = ['./webview/panel', './webview/model-editor', './webview/notebook'];

/** `target` may not import from any of `from`, with the reason lint prints. */
const zone = (target, from, message) => ({ target, from, message });

const layers = [
  zone(CORE, [PROTOCOL, PAGES, HOST, CLI, WEBVIEW], 'core is the bottom layer: it imports no protocol, page, host, CLI or webview file.'),
  zone(PROTOCOL, [PAGES, HOST, CLI, WEBVIEW], 'the protocol is shared by host, webviews and workers: it imports core only.'),
  zone(PAGES, [HOST, CLI, WEBVIEW], 'pages are built from core and protocol only (the host and the CLI both use them).'),
  zone(KIT, [VIEWS, SHELL_BASE, ...SHELLS, HOST, CLI, PAGES], 'the webview kit is below the views and the shells.'),
  zone(VIEWS, [SHELL_BASE, ...SHELLS, HOST, CLI, PAGES], 'a view imports no shell: the shells (panel, model editor) import the views.'),
  zone(SHELL_BASE, [VIEWS, ...SHELLS, HOST, CLI, PAGES], 'the shell base (theme, resize, focus, transport) knows no view and no surface: the shells build on it.'),
  zone(SHELLS[0], [SHELLS[1], SHELLS[2], HOST, CLI, PAGES], 'the panel shell imports no other shell, host or CLI file.'),
  zone(SHELLS[1], [SHELLS[0], SHELLS[2], HOST, CLI, PAGES], 'the model editor shell imports no other shell, host or CLI file.'),
  // The notebook renderer stands on the model editor's app (webview/model-editor/app.ts, the toolbar and
  // the model views over any transport), never on its entry point or another shell.
  zone(SHELLS[2], [SHELLS[0], './webview/model-editor/main.ts', HOST, CLI, PAGES], 'the notebook shell imports the model editor\'s app only, no other shell, host or CLI file.'),
  zone(CLI, [SHELL_BASE, ...SHELLS, HOST], 'the CLI draws through the views, never through a webview shell or the host.'),
  zone(HOST, [WEBVIEW, CLI], 'the host posts data to the webviews; it imports no webview or CLI file.'),
];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-results/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly', process: 'readonly', require: 'readonly', module: 'writable',
        __dirname: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
        window: 'readonly', document: 'readonly', performance: 'readonly', URL: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error',
        { property: 'innerHTML', message: 'Spec strings are data: use textContent or d3 .text().' },
        { property: 'outerHTML', message: 'Spec strings are data: use textContent or d3 .text().' }],
      'no-restricted-syntax': ['error',
        { selector: "CallExpression[callee.property.name='html']", message: 'd3 .html() parses markup; use .text().' },
        { selector: "CallExpression[callee.property.name='insertAdjacentHTML']", message: 'No markup from strings.' }],
    },
  },
  {
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    plugins: { 'attention-lens': { rules: { 'import-cycles': importCycles, 'import-fence': importFence } } },
    rules: {
      'attention-lens/import-fence': ['error', { zones: layers }],
      'attention-lens/import-cycles': 'error',
    },
  },
  {
    // Pure layers: the browser bundles and the workers take them, so no Node module and no VS Code API.
    // (core/files, core/checkpoint-files and core/threads are the rooms of core that touch Node.)
    files: ['src/core/**/*.ts', 'src/protocol/**/*.ts', 'webview/**/*.ts'],
    ignores: ['src/core/files/**', 'src/core/checkpoint-files/**', 'src/core/threads/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['node:*', 'fs', 'path', 'zlib', 'crypto', 'worker_threads', 'child_process'], message: 'a pure layer: Node modules belong in src/core/files, checkpoint-files or threads, the host or the CLI.' },
        { group: ['vscode'], message: 'only src/host talks to VS Code.' },
      ] }],
    },
  },
  {
    // The test seam is injected by extension.ts (the one place that builds the host), never imported by
    // the panel, the model editor or anything else of the product.
    files: ['src/host/**/*.ts'],
    ignores: ['src/host/extension.ts', 'src/host/test-api.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/test-api', '**/test-api.js'], message: 'product code gets the test seam injected; only extension.ts imports it.' },
      ] }],
    },
  },
);
