// Checks every message from the host before the panel acts on it: a message is untrusted until
// checked, and a malformed result must produce a sentence on screen, never a crash or a blank panel.
// The result is decoded here, once: its header checked for shape and consistency, and every
// tensor's place in the binary buffer checked against its shape (not every number walked).
import type { AttentionData } from '../core/result/attention-data.js';
import type { SpecOpen } from '../core/spec/spec.js';
import { decodeAttention, linalgProblem, WireError } from '../core/result/wire.js';
import { EXPORT_FORMATS, MATRIX_MODES, ROLES, VIEW_NAMES, type HostMessage } from './panel.js';
import { badNextName } from '../core/spec/read/story.js';
import { isObject } from '../core/json/object.js';
import { shown } from '../core/json/shown.js';
import { isIndex, isOneOf } from './panel-check.js';
import { checkOf, type ByType } from './by-type.js';

const isStr = (x: unknown): x is string => typeof x === 'string';

/** Why a result (the wire header and its buffer) cannot be shown, naming the field at fault; undefined when it can. */
export function resultProblem(header: unknown, buffer: unknown): string | undefined {
  try {
    decodeAttention(header, buffer);
    return undefined;
  } catch (err) {
    if (err instanceof WireError) return err.message;
    throw err;
  }
}

/** Why `x` at `path` is not a PanelProblem, or undefined. */
function problemProblem(x: unknown, path: string): string | undefined {
  if (!isObject(x)) return `${path} is not an object`;
  if (x.severity !== 'error' && x.severity !== 'warning') return `${path}.severity is not "error" or "warning"`;
  if (!isStr(x.message)) return `${path}.message is not text`;
  if (!isStr(x.path)) return `${path}.path is not text`;
  if (!isIndex(x.line, 1)) return `${path}.line is not a line number`;
  if (!isIndex(x.column, 1)) return `${path}.column is not a column number`;
  return undefined;
}

function problemsProblem(x: unknown, path: string): string | undefined {
  if (!Array.isArray(x)) return `${path} is not a list`;
  for (let i = 0; i < x.length; i++) {
    const problem = problemProblem(x[i], `${path}[${i}]`);
    if (problem) return problem;
  }
  return undefined;
}

/** documentUri, fileName and version, shared by 'render' and 'problems'. */
function documentProblem(x: Record<string, unknown>): string | undefined {
  if (!isStr(x.documentUri)) return 'documentUri is not text';
  if (!isStr(x.fileName)) return 'fileName is not text';
  if (!isIndex(x.version)) return 'version is not a whole number';
  return undefined;
}

/**
 * The check of each field of a story's "open" (SpecOpen, every one optional), with what it should be.
 * The compiler holds the table to SpecOpen's fields: one added there without a check here fails typecheck.
 */
const OPEN_FIELDS = {
  view: { is: (v) => isOneOf(v, VIEW_NAMES), what: 'a view' },
  input: { is: (v) => isIndex(v), what: 'an index' },
  head: { is: (v) => v === 'all' || isIndex(v), what: 'an index or "all"' },
  token: { is: (v) => isIndex(v), what: 'an index' },
  matrix: { is: (v) => isOneOf(v, MATRIX_MODES), what: 'a matrix mode' },
  projection: { is: (v) => isOneOf(v, ROLES), what: 'a role' },
} satisfies { readonly [K in keyof SpecOpen]-?: { is: (v: unknown) => boolean; what: string } };

/** Why a render's story (description, open, next) is malformed, or undefined. */
export function storyProblem(x: unknown): string | undefined {
  if (x === undefined) return undefined;
  if (!isObject(x)) return 'story is not an object';
  if (x.description !== undefined && !isStr(x.description)) return 'story.description is not text';
  const o = x.open;
  if (o !== undefined) {
    if (!isObject(o)) return 'story.open is not an object';
    for (const [key, field] of Object.entries(OPEN_FIELDS)) {
      if (o[key] !== undefined && !field.is(o[key])) return `story.open.${key} is not ${field.what}`;
    }
  }
  const n = x.next;
  if (n !== undefined && (!isObject(n) || !isStr(n.file) || badNextName(n.file) !== undefined || !isStr(n.title))) {
    return 'story.next is not { file: a spec\'s name in the same folder, title }';
  }
  return undefined;
}

/** Why a 'problems' message's `elsewhere` (a sentence and a button's label) is malformed, or undefined. */
function elsewhereProblem(x: unknown): string | undefined {
  if (x === undefined) return undefined;
  return isObject(x) && isStr(x.message) && isStr(x.action) ? undefined : 'elsewhere is not { message, action } in text';
}

/** A checked host message; a 'render' comes with its decoded result. */
export type CheckedMessage = { message: HostMessage; data?: AttentionData } | { why: string };

/** A message of its type (its type already matched), checked and, for a render, decoded. */
type HostCheck = (x: Record<string, unknown>) => CheckedMessage;

const accepted = (x: Record<string, unknown>): CheckedMessage => ({ message: x as unknown as HostMessage });

/** The check of every message the host sends (panel.ts's HostMessage), by its type. */
const HOST_CHECKS = {
  render: (x) => {
    const problem = documentProblem(x) ?? problemsProblem(x.warnings, 'warnings') ?? storyProblem(x.story);
    if (problem) return { why: `render: ${problem}` };
    try {
      return { message: x as unknown as HostMessage, data: decodeAttention(x.result, x.buffer) };
    } catch (err) {
      if (err instanceof WireError) return { why: `render: ${err.message}` };
      throw err;
    }
  },
  problems: (x) => {
    const problem = documentProblem(x) ?? problemsProblem(x.problems, 'problems') ?? elsewhereProblem(x.elsewhere);
    return problem ? { why: `problems: ${problem}` } : accepted(x);
  },
  exportRequest: (x) => {
    if (!isIndex(x.requestId)) return { why: 'exportRequest: requestId is not a whole number' };
    if (!isOneOf(x.format, EXPORT_FORMATS)) return { why: `exportRequest: format is not ${EXPORT_FORMATS.join(' or ')}` };
    if (x.theme !== undefined && x.theme !== 'light') return { why: 'exportRequest: theme is not "light"' };
    return accepted(x);
  },
  progress: (x) => {
    if (!isStr(x.documentUri) || !isIndex(x.version) || !isIndex(x.done) || !isIndex(x.total) || x.done > x.total) {
      return { why: 'progress: documentUri, version, done or total is malformed' };
    }
    return accepted(x);
  },
  linalg: (x) => {
    if (!isStr(x.documentUri) || !isIndex(x.version)) return { why: 'linalg: documentUri or version is malformed' };
    const problem = linalgProblem(x.linalg);
    return problem ? { why: `linalg: ${problem}` } : accepted(x);
  },
  lock: (x) => (typeof x.locked === 'boolean' ? accepted(x) : { why: 'lock: locked is not true or false' }),
} satisfies ByType<HostMessage, HostCheck>;

/** Checks a host message and decodes a render's result: the message, or a sentence naming the field at fault. */
export function readHostMessage(x: unknown): CheckedMessage {
  if (!isObject(x)) return { why: 'the message is not an object' };
  const check = checkOf<HostCheck>(HOST_CHECKS, x.type);
  return check ? check(x) : { why: `unknown message type ${shown(x.type)}` };
}

/** Checks a host message; `why` receives a sentence naming the field at fault when it is rejected. */
export function isHostMessage(x: unknown, why: (reason: string) => void = () => {}): x is HostMessage {
  const checked = readHostMessage(x);
  if ('why' in checked) {
    why(checked.why);
    return false;
  }
  return true;
}
