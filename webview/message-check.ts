// Checks every message from the host before the panel acts on it: a message is untrusted until
// checked, and a malformed result must produce a sentence on screen, never a crash or a blank panel.
// The result is checked for shape and consistency (every matrix as wide and tall as it claims).
import type { AttentionJson, HeadJson, InputJson } from '../src/core/result-json.js';
import { EXPORT_FORMATS, ROLES, type HostMessage, type PanelProblem } from '../src/protocol.js';
import { isIndex, isObject, isOneOf } from '../src/protocol-check.js';

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isStr = (x: unknown): x is string => typeof x === 'string';

/** rows × cols of finite numbers (nulls allowed where `nulls`). */
function isRows(x: unknown, rows: number | undefined, cols: number | undefined, nulls = false): boolean {
  if (!Array.isArray(x) || (rows !== undefined && x.length !== rows)) return false;
  let width = cols;
  for (const r of x) {
    if (!Array.isArray(r)) return false;
    if (width === undefined) width = r.length;
    if (r.length !== width) return false;
    for (const v of r) if (!(isNum(v) || (nulls && v === null))) return false;
  }
  return true;
}

function isHead(x: unknown, n: number, d: number): x is HeadJson {
  if (!isObject(x) || !isStr(x.name) || !isIndex(x.dk) || !isIndex(x.dv) || !isNum(x.divisor)) return false;
  return isRows(x.q, n, x.dk) && isRows(x.k, n, x.dk) && isRows(x.v, n, x.dv)
    && isRows(x.scores, n, n) && isRows(x.scaled, n, n, true) && isRows(x.weights, n, n) && isRows(x.output, n, x.dv)
    && d >= 0;
}

function isInput(x: unknown, d: number): x is InputJson {
  if (!isObject(x) || !isStr(x.name) || !Array.isArray(x.tokens) || !x.tokens.every(isStr)) return false;
  const n = x.tokens.length;
  return isRows(x.embeddings, n, d) && Array.isArray(x.heads) && x.heads.every((h) => isHead(h, n, d))
    && isRows(x.concat, n, undefined) && isRows(x.output, n, undefined);
}

function isAxis(x: unknown, d: number): boolean {
  return isObject(x) && isStr(x.label) && Array.isArray(x.direction) && x.direction.length === d && x.direction.every(isNum)
    && (x.ends === undefined || (Array.isArray(x.ends) && x.ends.length === 2 && x.ends.every(isStr)));
}

/** Why `x` is not a usable AttentionJson, or undefined when it is. */
export function attentionJsonProblem(x: unknown): string | undefined {
  if (!isObject(x)) return 'the result is not an object';
  if (!isIndex(x.dModel, 1)) return 'dModel is not a positive whole number';
  const d = x.dModel;
  if (!Array.isArray(x.features) || x.features.length !== d || !x.features.every(isStr)) return 'features do not match dModel';
  if (!isStr(x.scale) || !isStr(x.mask)) return 'scale or mask is missing';
  if (x.title !== undefined && !isStr(x.title)) return 'title is not text';
  if (!Array.isArray(x.inputs)) return 'inputs is not a list';
  for (let i = 0; i < x.inputs.length; i++) if (!isInput(x.inputs[i], d)) return `input ${i + 1} is malformed`;
  if (!Array.isArray(x.matrices)) return 'matrices is not a list';
  for (const m of x.matrices) {
    if (!isObject(m) || !isOneOf(m.role, ROLES) || !isIndex(m.rows) || !isIndex(m.cols)
      || (m.head !== undefined && !isIndex(m.head)) || !isRows(m.values, m.rows, m.cols)) return 'a weight matrix is malformed';
  }
  if (!isObject(x.views)) return 'views is missing';
  const q = x.views.quadrant;
  if (q !== undefined && !(isObject(q) && isAxis(q.x, d) && isAxis(q.y, d)
    && (q.quadrants === undefined || (Array.isArray(q.quadrants) && q.quadrants.length === 4 && q.quadrants.every(isStr))))) {
    return 'views.quadrant is malformed';
  }
  const p = x.parameters;
  if (!isObject(p) || !isNum(p.total) || !isNum(p.wo) || !Array.isArray(p.heads) || !isObject(p.fullSize) || !isNum(p.fullSize.total)) {
    return 'parameters are malformed';
  }
  if (!Array.isArray(x.warnings)) return 'warnings is not a list';
  return undefined;
}

export function isAttentionJson(x: unknown): x is AttentionJson {
  return attentionJsonProblem(x) === undefined;
}

function isProblem(x: unknown): x is PanelProblem {
  return isObject(x) && (x.severity === 'error' || x.severity === 'warning') && isStr(x.message) && isStr(x.path)
    && isIndex(x.line, 1) && isIndex(x.column, 1);
}

/** Checks a host message; `why` receives a sentence when it is rejected. */
export function isHostMessage(x: unknown, why: (reason: string) => void = () => {}): x is HostMessage {
  if (!isObject(x)) { why('not an object'); return false; }
  switch (x.type) {
    case 'render': {
      if (!isStr(x.documentUri) || !isStr(x.fileName) || !isIndex(x.version)) { why('render: documentUri, fileName or version missing'); return false; }
      if (!Array.isArray(x.warnings) || !x.warnings.every(isProblem)) { why('render: warnings malformed'); return false; }
      const problem = attentionJsonProblem(x.result);
      if (problem) { why(`render: ${problem}`); return false; }
      return true;
    }
    case 'problems':
      if (!isStr(x.documentUri) || !isStr(x.fileName) || !isIndex(x.version) || !Array.isArray(x.problems) || !x.problems.every(isProblem)) {
        why('problems: malformed'); return false;
      }
      return true;
    case 'exportRequest':
      if (!isIndex(x.requestId) || !isOneOf(x.format, EXPORT_FORMATS)) { why('exportRequest: malformed'); return false; }
      return true;
    case 'lock':
      if (typeof x.locked !== 'boolean') { why('lock: malformed'); return false; }
      return true;
    default:
      why(`unknown message type ${JSON.stringify(String(x.type)).slice(0, 40)}`);
      return false;
  }
}
