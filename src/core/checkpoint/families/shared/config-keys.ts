// The readers every family description uses on config.json: a size, a positive number, a flag, and
// the refusal of a key whose value would change the computation in a way the block does not
// implement. Each failure is one sentence naming the file and the key, so a description states what
// a key means and never how to word a message.
import type { Obj } from '../../../json/object.js';
import { shown } from '../../../json/shown.js';
import { ModelError } from '../../error.js';

/** Largest size we believe (a config asking for more is a typo or hostile; the budget refuses the rest). */
export const MAX_SIZE = 1 << 24;

/** A whole number ≥ 1 under `key` (or the first of `keys` present), `fallback` when absent. */
export function size(json: Obj, file: string, keys: readonly string[], fallback?: number): number {
  const key = keys.find((k) => json[k] !== undefined && json[k] !== null);
  if (key === undefined) {
    if (fallback !== undefined) return fallback;
    throw new ModelError(`${file}: "${keys[0]}" is missing (a whole number ≥ 1)`);
  }
  const v = json[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_SIZE) {
    throw new ModelError(`${file}: "${key}" must be a whole number from 1 to ${MAX_SIZE}, got ${shown(v)}`);
  }
  return v;
}

/** A positive finite number under `key`, `fallback` when absent. */
export function positive(json: Obj, file: string, key: string, fallback: number): number {
  const v = json[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) throw new ModelError(`${file}: "${key}" must be a positive number, got ${shown(v)}`);
  return v;
}

/** true or false under `key`, `fallback` when absent. */
export function flag(json: Obj, file: string, key: string, fallback: boolean): boolean {
  const v = json[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw new ModelError(`${file}: "${key}" must be true or false, got ${shown(v)}`);
  return v;
}

/** Refuses a key whose value would change the computation in a way we do not implement. */
export function refuse(file: string, key: string, value: unknown, why: string): never {
  throw new ModelError(`${file}: "${key}": ${shown(value)} is not supported (${why})`);
}

/** A divisibility the shapes need, refused naming both keys. */
export function multiple(file: string, key: string, value: number, ofKey: string, of: number, more = ''): void {
  if (value % of !== 0) throw new ModelError(`${file}: "${key}" ${value} is not a multiple of "${ofKey}" ${of}${more}`);
}

/** A whole number ≥ 0 under `key`, `fallback` when absent (a count that may be none, such as max_window_layers). */
export function count(json: Obj, file: string, key: string, fallback: number): number {
  const v = json[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_SIZE) throw new ModelError(`${file}: "${key}" must be a whole number from 0 to ${MAX_SIZE}, got ${shown(v)}`);
  return v;
}
