// Checks every message from the host before the panel acts on it: a message is untrusted until
// checked, and a malformed result must produce a sentence on screen, never a crash or a blank panel.
// The result is checked for shape and consistency (every matrix as wide and tall as it claims).
import type { AttentionJson, HeadJson } from '../src/core/result-json.js';
import { EXPORT_FORMATS, ROLES, type HostMessage } from '../src/protocol.js';
import { isIndex, isObject, isOneOf } from '../src/protocol-check.js';

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isStr = (x: unknown): x is string => typeof x === 'string';

/** Why `x` at `path` is not rows × cols of finite numbers (nulls allowed where `nulls`), or undefined. */
function rowsProblem(x: unknown, path: string, rows: number | undefined, cols: number | undefined, nulls = false): string | undefined {
  if (!Array.isArray(x)) return `${path} is not a list`;
  if (rows !== undefined && x.length !== rows) return `${path} has ${x.length} rows, expected ${rows}`;
  let width = cols;
  for (let r = 0; r < x.length; r++) {
    const row: unknown = x[r];
    if (!Array.isArray(row)) return `${path}[${r}] is not a list`;
    if (width === undefined) width = row.length;
    if (row.length !== width) return `${path}[${r}] has ${row.length} numbers, expected ${width}`;
    for (let c = 0; c < row.length; c++) {
      const v: unknown = row[c];
      if (!(isNum(v) || (nulls && v === null))) return `${path}[${r}][${c}] is not a finite number${nulls ? ' or null' : ''}`;
    }
  }
  return undefined;
}

function headProblem(x: unknown, path: string, n: number): string | undefined {
  if (!isObject(x)) return `${path} is not an object`;
  if (!isStr(x.name)) return `${path}.name is not text`;
  if (!isIndex(x.dk)) return `${path}.dk is not a whole number`;
  if (!isIndex(x.dv)) return `${path}.dv is not a whole number`;
  if (!isNum(x.divisor)) return `${path}.divisor is not a number`;
  const dk = x.dk, dv = x.dv;
  const shapes: [keyof HeadJson, number, boolean?][] = [
    ['q', dk], ['k', dk], ['v', dv], ['scores', n], ['scaled', n, true], ['weights', n], ['output', dv],
  ];
  for (const [key, cols, nulls] of shapes) {
    const problem = rowsProblem(x[key], `${path}.${key}`, n, cols, nulls);
    if (problem) return problem;
  }
  return undefined;
}

function inputProblem(x: unknown, path: string, d: number): string | undefined {
  if (!isObject(x)) return `${path} is not an object`;
  if (!isStr(x.name)) return `${path}.name is not text`;
  if (!Array.isArray(x.tokens)) return `${path}.tokens is not a list`;
  const badToken = x.tokens.findIndex((t) => !isStr(t));
  if (badToken >= 0) return `${path}.tokens[${badToken}] is not text`;
  const n = x.tokens.length;
  const embeddings = rowsProblem(x.embeddings, `${path}.embeddings`, n, d);
  if (embeddings) return embeddings;
  if (!Array.isArray(x.heads)) return `${path}.heads is not a list`;
  for (let h = 0; h < x.heads.length; h++) {
    const problem = headProblem(x.heads[h], `${path}.heads[${h}]`, n);
    if (problem) return problem;
  }
  return rowsProblem(x.concat, `${path}.concat`, n, undefined) ?? rowsProblem(x.output, `${path}.output`, n, undefined);
}

function axisProblem(x: unknown, path: string, d: number): string | undefined {
  if (!isObject(x)) return `${path} is not an object`;
  if (!isStr(x.label)) return `${path}.label is not text`;
  if (!Array.isArray(x.direction) || x.direction.length !== d || !x.direction.every(isNum)) return `${path}.direction is not ${d} numbers`;
  if (x.ends !== undefined && !(Array.isArray(x.ends) && x.ends.length === 2 && x.ends.every(isStr))) return `${path}.ends is not two texts`;
  return undefined;
}

/** Why `x` is not a usable AttentionJson, naming the field at fault, or undefined when it is. */
export function attentionJsonProblem(x: unknown): string | undefined {
  if (!isObject(x)) return 'the result is not an object';
  if (!isIndex(x.dModel, 1)) return 'dModel is not a positive whole number';
  const d = x.dModel;
  if (!Array.isArray(x.features) || x.features.length !== d || !x.features.every(isStr)) return `features are not ${d} texts (dModel)`;
  if (!isStr(x.scale)) return 'scale is missing';
  if (!isStr(x.mask)) return 'mask is missing';
  if (x.title !== undefined && !isStr(x.title)) return 'title is not text';
  if (!Array.isArray(x.inputs)) return 'inputs is not a list';
  for (let i = 0; i < x.inputs.length; i++) {
    const problem = inputProblem(x.inputs[i], `inputs[${i}]`, d);
    if (problem) return `input ${i + 1} is malformed: ${problem}`;
  }
  if (!Array.isArray(x.matrices)) return 'matrices is not a list';
  for (let i = 0; i < x.matrices.length; i++) {
    const m: unknown = x.matrices[i];
    const path = `matrices[${i}]`;
    const problem = !isObject(m) ? `${path} is not an object`
      : !isOneOf(m.role, ROLES) ? `${path}.role is not one of ${ROLES.join(', ')}`
      : !isIndex(m.rows) ? `${path}.rows is not a whole number`
      : !isIndex(m.cols) ? `${path}.cols is not a whole number`
      : m.head !== undefined && !isIndex(m.head) ? `${path}.head is not a whole number`
      : rowsProblem(m.values, `${path}.values`, m.rows, m.cols);
    if (problem) return `a weight matrix is malformed: ${problem}`;
  }
  if (!isObject(x.views)) return 'views is missing';
  const q = x.views.quadrant;
  if (q !== undefined) {
    const problem = !isObject(q) ? 'views.quadrant is not an object'
      : axisProblem(q.x, 'views.quadrant.x', d) ?? axisProblem(q.y, 'views.quadrant.y', d)
      ?? (q.quadrants === undefined || (Array.isArray(q.quadrants) && q.quadrants.length === 4 && q.quadrants.every(isStr))
        ? undefined : 'views.quadrant.quadrants is not four texts');
    if (problem) return `views.quadrant is malformed: ${problem}`;
  }
  const p = x.parameters;
  const parameters = !isObject(p) ? 'parameters is not an object'
    : !isNum(p.total) ? 'parameters.total is not a number'
    : !isNum(p.wo) ? 'parameters.wo is not a number'
    : !Array.isArray(p.heads) ? 'parameters.heads is not a list'
    : !isObject(p.fullSize) ? 'parameters.fullSize is not an object'
    : !isNum(p.fullSize.total) ? 'parameters.fullSize.total is not a number'
    : undefined;
  if (parameters) return `parameters are malformed: ${parameters}`;
  if (!Array.isArray(x.warnings)) return 'warnings is not a list';
  if (x.training !== undefined) {
    const problem = trainingProblem(x.training, x.inputs as unknown[]);
    if (problem) return `training is malformed: ${problem}`;
  }
  return undefined;
}

/** The Training view's data: every frame's matrices and weights the right shape, once, here. */
function trainingProblem(t: unknown, inputs: unknown[]): string | undefined {
  if (!isObject(t)) return 'not an object';
  if (!isIndex(t.head) || !isStr(t.headName) || !isNum(t.rate) || !isIndex(t.steps)) return 'head, headName, rate or steps is missing';
  if (!isIndex(t.input) || t.input >= inputs.length) return 'input is not one of the inputs';
  if (!Array.isArray(t.learn) || !t.learn.every((r) => isOneOf(r, ROLES))) return 'learn is not a list of roles';
  if (!Array.isArray(t.loss) || !t.loss.every(isNum)) return 'loss is not a list of numbers';
  if (!Array.isArray(t.targets) || !t.targets.every((g) => isObject(g) && isIndex(g.input) && isIndex(g.query))) return 'targets are malformed';
  if (t.tooBig !== undefined && !isStr(t.tooBig)) return 'tooBig is not text';
  if (t.stoppedAt !== undefined && !isIndex(t.stoppedAt)) return 'stoppedAt is not a whole number';
  const input = inputs[t.input] as { tokens: unknown[] };
  const n = input.tokens.length;
  if (!Array.isArray(t.frames)) return 'frames is not a list';
  for (let f = 0; f < t.frames.length; f++) {
    const fr: unknown = t.frames[f];
    const path = `frames[${f}]`;
    const problem = !isObject(fr) ? `${path} is not an object`
      : !isIndex(fr.step) ? `${path}.step is not a whole number`
      : rowsProblem(fr.wq, `${path}.wq`, undefined, undefined) ?? rowsProblem(fr.wk, `${path}.wk`, undefined, undefined)
        ?? rowsProblem(fr.wv, `${path}.wv`, undefined, undefined) ?? rowsProblem(fr.weights, `${path}.weights`, n, n);
    if (problem) return problem;
  }
  return undefined;
}

export function isAttentionJson(x: unknown): x is AttentionJson {
  return attentionJsonProblem(x) === undefined;
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

/** Checks a host message; `why` receives a sentence naming the field at fault when it is rejected. */
export function isHostMessage(x: unknown, why: (reason: string) => void = () => {}): x is HostMessage {
  const reject = (reason: string) => { why(reason); return false; };
  if (!isObject(x)) return reject('the message is not an object');
  switch (x.type) {
    case 'render': {
      const problem = documentProblem(x) ?? problemsProblem(x.warnings, 'warnings') ?? attentionJsonProblem(x.result);
      return problem ? reject(`render: ${problem}`) : true;
    }
    case 'problems': {
      const problem = documentProblem(x) ?? problemsProblem(x.problems, 'problems');
      return problem ? reject(`problems: ${problem}`) : true;
    }
    case 'exportRequest':
      if (!isIndex(x.requestId)) return reject('exportRequest: requestId is not a whole number');
      if (!isOneOf(x.format, EXPORT_FORMATS)) return reject(`exportRequest: format is not ${EXPORT_FORMATS.join(' or ')}`);
      if (x.theme !== undefined && x.theme !== 'light') return reject('exportRequest: theme is not "light"');
      return true;
    case 'lock':
      return typeof x.locked === 'boolean' ? true : reject('lock: locked is not true or false');
    default:
      return reject(`unknown message type ${JSON.stringify(String(x.type)).slice(0, 40)}`);
  }
}
