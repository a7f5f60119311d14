// The story fields of a spec: what it is about ("description", shown at the top of the panel), where
// the panel opens on it ("open": a view, and the input, head, token, matrix mode or projection it
// shows) and which example comes after it ("next": a spec in the same folder). Read once the inputs
// and heads are known, since "open" names them by name; each field gets its own problem, as the rest
// of the spec does.
import { childAt, type Node } from '../../json/json-tree.js';
import type { JsonPath } from '../../json/path.js';
import { listSome, quote } from '../../json/quote.js';
import { MATRIX_MODES, ROLES, VIEW_NAMES } from '../../vocabulary.js';
import type { HeadSpec, InputSpec, Spec, SpecOpen } from '../spec.js';
import { describe, type Reader } from './values.js';

export interface SpecStory {
  readonly description?: string;
  readonly open?: SpecOpen;
  /** The file name of the spec that comes next, in this spec's folder. */
  readonly next?: string;
}

export const OPEN_KEYS = ['view', 'input', 'head', 'token', 'matrix', 'projection'] as const;

const SPEC_SUFFIX = '.attn.json';
const MAX_NEXT_NAME = 200;

/**
 * Why `name` cannot be the "next" spec, or undefined: only the name of a *.attn.json file in the same
 * folder (no folder, no separator, nothing hidden), so a spec (or a webview that relays it) can point
 * at nothing but a sibling spec.
 */
export function badNextName(name: string): string | undefined {
  if (name.length === 0) return 'the file name is empty';
  if (name.length > MAX_NEXT_NAME) return `the file name is over ${MAX_NEXT_NAME} characters`;
  if (/[\\/\0:]/.test(name)) return 'give the name of a spec in the same folder, without a folder or a separator';
  if (name.startsWith('.')) return 'the name cannot start with "."';
  if (!name.toLowerCase().endsWith(SPEC_SUFFIX) || name.length === SPEC_SUFFIX.length) return `expected the name of a spec file, ending ${SPEC_SUFFIX}`;
  return undefined;
}

function readNext(r: Reader, node: Node): string | undefined {
  const name = r.string(node, ['next'], `the name of the spec that comes next (${SPEC_SUFFIX}, in this folder)`);
  if (name === undefined) return undefined;
  const bad = badNextName(name);
  return bad ? r.error(node, ['next'], bad) : name;
}

/** A name from `names` (the first one written so); a problem listing the names when it is not one. */
function named(r: Reader, node: Node, path: JsonPath, what: string, names: readonly string[]): number | undefined {
  const name = r.string(node, path, `${what}'s name`);
  if (name === undefined) return undefined;
  const index = names.indexOf(name);
  return index >= 0 ? index : r.error(node, path, `no ${what} is named ${quote(name)}: expected one of ${listSome(names.map((n) => quote(n)))}`);
}

function oneOf<T extends string>(r: Reader, node: Node, path: JsonPath, options: readonly T[]): T | undefined {
  if (node.type === 'string' && (options as readonly string[]).includes(node.value as string)) return node.value as T;
  return r.error(node, path, `expected one of ${options.map((o) => quote(o)).join(', ')}, got ${describe(node)}`);
}

function readOpen(r: Reader, node: Node, context: { inputs: readonly InputSpec[]; heads: readonly HeadSpec[]; hasWo: boolean }): SpecOpen | undefined {
  if (!r.object(node, ['open'], 'where the panel opens { "view", "input", "head", "token", "matrix", "projection" }')) return undefined;
  r.unknownKeys(node, ['open'], new Set(OPEN_KEYS));
  const at = (key: string) => childAt(node, key);
  const out: { -readonly [K in keyof SpecOpen]: SpecOpen[K] } = {};
  let ok = true;
  /** Reads `key` when the spec gives it; a given key that is refused makes the whole "open" refused. */
  const field = <K extends keyof SpecOpen>(key: K, read: (node: Node) => SpecOpen[K] | undefined) => {
    const node = at(key);
    if (!node) return;
    out[key] = read(node);
    ok &&= out[key] !== undefined;
  };
  field('view', (n) => oneOf(r, n, ['open', 'view'], VIEW_NAMES));
  field('input', (n) => named(r, n, ['open', 'input'], 'input', context.inputs.map((i) => i.name)));
  field('head', (n) => (n.type === 'string' && n.value === 'all' ? 'all' : named(r, n, ['open', 'head'], 'head', context.heads.map((h) => h.name))));
  field('token', (n) => {
    const input = context.inputs[out.input ?? 0];
    return input ? named(r, n, ['open', 'token'], `token of input ${quote(input.name)}`, input.tokens.map((t) => t.text)) : undefined;
  });
  field('matrix', (n) => oneOf(r, n, ['open', 'matrix'], MATRIX_MODES));
  field('projection', (n) => oneOf(r, n, ['open', 'projection'], context.hasWo ? ROLES : ROLES.filter((role) => role !== 'wo')));
  return ok ? out : undefined;
}

/**
 * The story fields, or undefined when one of them is wrong (its problem is added). `inputs` and `heads`
 * are those read from the spec; when either could not be read, "open" is not checked (their own
 * problems come first) and the rest still is.
 */
export function readStory(r: Reader, root: Node, context: { inputs?: readonly InputSpec[]; heads?: readonly HeadSpec[]; hasWo: boolean }): SpecStory | undefined {
  const out: { -readonly [K in keyof SpecStory]: SpecStory[K] } = {};
  let ok = true;
  const descriptionNode = childAt(root, 'description');
  if (descriptionNode) {
    out.description = r.string(descriptionNode, ['description'], 'a sentence or two about the spec');
    ok &&= out.description !== undefined;
  }
  const nextNode = childAt(root, 'next');
  if (nextNode) {
    out.next = readNext(r, nextNode);
    ok &&= out.next !== undefined;
  }
  const openNode = childAt(root, 'open');
  if (openNode && context.inputs && context.heads) {
    out.open = readOpen(r, openNode, { inputs: context.inputs, heads: context.heads, hasWo: context.hasWo });
    ok &&= out.open !== undefined;
  }
  return ok ? out : undefined;
}

/** A read spec's story fields, or undefined when it has none. */
export function storyOf(spec: Spec): SpecStory | undefined {
  if (spec.description === undefined && !spec.open && spec.next === undefined) return undefined;
  return {
    ...(spec.description !== undefined ? { description: spec.description } : {}),
    ...(spec.open ? { open: spec.open } : {}),
    ...(spec.next !== undefined ? { next: spec.next } : {}),
  };
}
