// The linear-algebra views' numbers arrive in a message from the host: checked here, whole, before
// a view draws them. A shallow check (the lists are lists) let a malformed message through to the
// views, which then threw in the middle of a drawing (v.toFixed is not a function, items is not
// iterable) or wrote "dundefined" into the SVG. Each field is checked for the type the views read,
// and a problem names its place (spectra[0][1].restricted.rows).
//
// Numbers: the statistics a view prints (singular values, ranks, variances) must be finite; the
// coordinates of a plane picture may not be (its `finite` flag says so, and the view checks it).
import { isObject } from '../json/object.js';

type Check = (x: unknown, path: string) => string | undefined;

const finite: Check = (x, p) => (typeof x === 'number' && Number.isFinite(x) ? undefined : `${p} is not a finite number`);
const number: Check = (x, p) => (typeof x === 'number' ? undefined : `${p} is not a number`);
const whole: Check = (x, p) => (Number.isSafeInteger(x) && (x as number) >= 0 ? undefined : `${p} is not a whole number`);
const text: Check = (x, p) => (typeof x === 'string' ? undefined : `${p} is not text`);
const flag: Check = (x, p) => (typeof x === 'boolean' ? undefined : `${p} is not true or false`);
const nullable = (c: Check): Check => (x, p) => (x === null ? undefined : c(x, p));
const optional = (c: Check): Check => (x, p) => (x === undefined ? undefined : c(x, p));
const oneOf = (...values: string[]): Check => (x, p) => (typeof x === 'string' && values.includes(x) ? undefined : `${p} is not one of ${values.join(', ')}`);

function list(item: Check, length?: number): Check {
  return (x, p) => {
    if (!Array.isArray(x)) return `${p} is not a list`;
    if (length !== undefined && x.length !== length) return `${p} has ${x.length} items, expected ${length}`;
    for (let i = 0; i < x.length; i++) {
      const problem = item(x[i], `${p}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  };
}

function record(fields: Record<string, Check>): Check {
  return (x, p) => {
    if (!isObject(x)) return `${p} is not an object`;
    for (const [key, check] of Object.entries(fields)) {
      const problem = check(Object.hasOwn(x, key) ? x[key] : undefined, `${p}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  };
}

const vec2 = list(number, 2);
const picture = record({
  matrix: list(list(number, 2), 2),
  circle: list(number),
  image: list(number),
  singular: list(record({ sigma: number, input: vec2, output: vec2 })),
  eigenvalues: list(vec2),
  eigenDirections: list(record({ lambda: number, direction: vec2 })),
  finite: flag,
});

const spectrum = record({
  name: text, label: text, rows: whole, cols: whole,
  singularValues: list(finite),
  conditionNumber: nullable(finite),
  effectiveRank: finite, stableRank: finite,
  eigenvalues: nullable(list(vec2)),
  zeroEigenvalues: whole,
  copyingScore: optional(finite),
  restricted: nullable(record({ rows: list(whole, 2), cols: list(whole, 2), picture })),
  strongest: nullable(picture),
});

const space = record({
  label: text, n: whole, d: whole,
  correlation: nullable(list(number)),
  constant: list(flag),
  redundant: list(record({ a: whole, b: whole, correlation: finite })),
  explained: list(finite),
  eigenvalues: list(number),
});

const init = record({
  width: whole, layers: whole, tokens: whole,
  curves: list(record({
    label: text, activation: oneOf('linear', 'relu'), variance: list(number), expected: list(number), weightVariance: finite,
    stopped: optional(record({ layer: whole, why: text })),
  })),
  spectra: list(record({ label: text, singularValues: list(finite), edges: list(finite, 2) })),
  scores: list(record({ dk: whole, dotVariance: number, scaledVariance: number, maxWeight: number, maxWeightScaled: number })),
});

const linalg = record({
  tooBig: optional(text),
  spectra: list(nullable(list(spectrum))),
  overlap: nullable(record({ wq: list(list(number)), wk: list(list(number)), wv: list(list(number)) })),
  covariance: list(record({ name: text, spaces: list(space) })),
  init,
});

/** What is wrong with the linear-algebra views' numbers, naming the field, or undefined when they are whole. */
export function linalgProblem(l: unknown): string | undefined {
  const problem = linalg(l, 'linalg');
  return problem?.replace(/^linalg\./, '');
}
