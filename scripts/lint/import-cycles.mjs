// An ESLint rule: no import cycles among our own files, type-only imports included. import-x's
// no-cycle skips `import type`, but a cycle of types is still two files that cannot be understood, moved
// or tested one without the other (view.ts <-> tooltip.ts was one). The graph is every relative import
// and re-export of the sources (side-effect imports, `import x = require()` and dynamic imports too,
// read from TypeScript's syntax tree, so nothing in a comment or a string counts), read once per lint run;
// the file being linted is read from the text ESLint lints, so an editor's long-running ESLint sees an
// import added or removed. A file inside a cycle gets one report naming it.
import { readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, resolve, relative } from 'node:path';
import ts from 'typescript';

const RELATIVE = /^\.{1,2}\//;

/** The file a relative specifier names: `./x.js` is `./x.ts` in our TypeScript sources. */
export function resolveSpecifier(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, `${base}.ts`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The relative imports of one source text, as specifiers. */
export function importsOf(text) {
  const names = [];
  const literal = (node) => (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined);
  const visit = (node) => {
    let name;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) name = literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) name = literal(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) name = literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) name = literal(node.argument.literal);
    if (name !== undefined && RELATIVE.test(name)) names.push(name);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('imports.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return names;
}

/** The files `file` imports, read from `text`. */
function targetsOf(file, text) {
  return importsOf(text).map((s) => resolveSpecifier(file, s)).filter((t) => t !== undefined);
}

/**
 * The cycles of a graph (file -> files it imports), as strongly connected components of two or more
 * files, or of one file importing itself. Tarjan's algorithm, iterative so a deep chain cannot
 * overflow the stack; linear in files and imports.
 */
export function cyclesOf(graph) {
  const index = new Map(), low = new Map(), onStack = new Set(), stack = [], cycles = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, next); low.set(start, next); next++; stack.push(start); onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const edges = graph.get(node) ?? [];
      if (i < edges.length) {
        frame[1]++;
        const to = edges[i];
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next); low.set(to, next); next++; stack.push(to); onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) {
          low.set(node, Math.min(low.get(node), index.get(to)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do { member = stack.pop(); onStack.delete(member); component.push(member); } while (member !== node);
        if (component.length > 1 || edges.includes(node)) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

/** The import graph reachable from `files` (absolute paths), added to `graph` (files already in it are not read again). */
export function importGraph(files, graph = new Map()) {
  const todo = [...files];
  while (todo.length > 0) {
    const file = todo.pop();
    if (graph.has(file)) continue;
    const targets = targetsOf(file, readFileSync(file, 'utf8'));
    graph.set(file, targets);
    todo.push(...targets);
  }
  return graph;
}

const sameFiles = (a, b) => a.length === b.length && a.every((f, i) => f === b[i]);

let cached;
/**
 * The cycle `file` is in, its imports read from `text` (what ESLint lints now). The graph is kept
 * between files (one lint run reads each file once), and the cycles are found again whenever a
 * file linted imports other files than the graph says.
 */
export function cycleOf(file, cwd, text) {
  if (!cached || cached.cwd !== cwd) cached = { cwd, graph: new Map(), cycleOf: new Map() };
  const targets = targetsOf(file, text);
  const known = cached.graph.get(file);
  if (!known || !sameFiles(known, targets)) {
    cached.graph.set(file, targets);
    importGraph(targets, cached.graph);
    cached.cycleOf.clear();
    for (const cycle of cyclesOf(cached.graph)) for (const f of cycle) cached.cycleOf.set(f, cycle);
  }
  return cached.cycleOf.get(file);
}

export const importCycles = {
  meta: { type: 'problem', docs: { description: 'no import cycles among our own files, type-only imports included' }, schema: [] },
  create(context) {
    return {
      Program(node) {
        const cwd = context.cwd ?? process.cwd();
        const cycle = cycleOf(resolve(context.filename), cwd, (context.sourceCode ?? context.getSourceCode()).text);
        if (cycle) {
          const names = cycle.map((f) => relative(cwd, f)).join(', ');
          context.report({ node, message: `This file is in an import cycle: ${names}. Move what both need into a file below them.` });
        }
      },
    };
  },
};
