// The first check of any untrusted value (a JSON header, a message, a spec's node): is it a plain
// object? One definition for the tensor headers, the result's wire format and every message check.

export type Obj = Record<string, unknown>;

/** A plain object (not null, not an array). */
export function isObject(x: unknown): x is Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
