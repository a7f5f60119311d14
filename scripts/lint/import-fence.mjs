// An ESLint rule: imports only point down. Its options are zones: files under `target` may not import
// a file under any of `from`; each zone says why. Every relative import is resolved to its file first
// (`../x.js` is `../x.ts` in our sources, as import-cycles.mjs resolves it), so a wrong-way import fails
// however it is spelt, and it reads every form TypeScript has (static and dynamic imports, re-exports,
// `import x = require()`, `import('…')` types) from the syntax tree. (eslint-plugin-import-x's
// no-restricted-paths did this too, but its resolver needs a native binding per platform, and the
// registry these machines reach serves only Linux's, so `npm ci` refused the lock file.)
import { relative, resolve, sep } from 'node:path';
import { importsOf, resolveSpecifier } from './import-cycles.mjs';

/** Whether `file` (absolute) lies in `folder` (absolute) or is it. */
const inside = (file, folder) => file === folder || file.startsWith(folder + sep);

export const importFence = {
  meta: {
    type: 'problem',
    docs: { description: 'imports only point down: a file of a zone imports nothing from the layers named above it' },
    schema: [{
      type: 'object',
      properties: {
        zones: {
          type: 'array',
          items: {
            type: 'object',
            properties: { target: { type: 'string' }, from: { type: 'array', items: { type: 'string' } }, message: { type: 'string' } },
            required: ['target', 'from', 'message'],
            additionalProperties: false,
          },
        },
      },
      additionalProperties: false,
    }],
  },
  create(context) {
    const cwd = context.cwd ?? process.cwd();
    const file = resolve(context.filename);
    const zones = (context.options[0]?.zones ?? []).filter((z) => inside(file, resolve(cwd, z.target)));
    if (zones.length === 0) return {};
    return {
      Program(node) {
        for (const specifier of new Set(importsOf(context.sourceCode.text))) {
          const target = resolveSpecifier(file, specifier);
          if (!target) continue;
          for (const zone of zones) {
            const from = zone.from.find((f) => inside(target, resolve(cwd, f)));
            if (from === undefined) continue;
            const line = context.sourceCode.lines.findIndex((l) => l.includes(`'${specifier}'`) || l.includes(`"${specifier}"`) || l.includes(`\`${specifier}\``));
            context.report({
              node,
              ...(line >= 0 ? { loc: { line: line + 1, column: 0 } } : {}),
              message: `${specifier} (${relative(cwd, target)}) is imported against the layers: ${zone.message}`,
            });
          }
        }
      },
    };
  },
};
