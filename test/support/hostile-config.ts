// The shared steps of the families' hostile config.json properties: a published config with some keys
// changed or deleted, read, and either refused in one clean sentence or returned for the family's own
// checks of what it computes.
import assert from 'node:assert/strict';
import { readModelConfig, type ModelConfig } from '../../src/core/checkpoint/config.js';
import { ModelError } from '../../src/core/checkpoint/error.js';

/** A change that deletes its key instead of setting it. */
export const ABSENT = Symbol('absent');

/** `base` (copied) with each [key, value] set, or deleted where the value is ABSENT. */
export function changed(base: object, changes: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const json: Record<string, unknown> = { ...base };
  for (const [key, value] of changes) {
    if (value === ABSENT) delete json[key];
    else json[key] = value;
  }
  return json;
}

/**
 * The config `json` reads as, or undefined when it is refused: then the refusal is a ModelError whose
 * one sentence starts as `start` says (config.json and the key) and holds no NaN or undefined.
 */
export function readOrRefused(json: object, start: RegExp): ModelConfig | undefined {
  try {
    return readModelConfig(JSON.stringify(json));
  } catch (e) {
    assert.ok(e instanceof ModelError, String(e));
    assert.match(e.message, start);
    assert.doesNotMatch(e.message, /\n|NaN|undefined/);
    return undefined;
  }
}
