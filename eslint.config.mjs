// Lint config: recommended JS + typescript-eslint rules, plus a ban on innerHTML
// so spec strings can only ever reach the DOM as text.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
);
