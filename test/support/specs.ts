// Helpers shared by the unit tests: reading the examples, and building small specs inline.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { analyze, type Analysis } from '../../src/core/index.js';

export const EXAMPLES = join(__dirname, '..', '..', 'examples');

export function exampleFiles(): string[] {
  return readdirSync(EXAMPLES).filter((f) => f.endsWith('.attn.json')).map((f) => join(EXAMPLES, f));
}

export function exampleText(name: string): string {
  return readFileSync(join(EXAMPLES, name), 'utf8');
}

/** Analyzes a spec given as an object and fails the test if it has errors. */
export function analyzeOk(spec: unknown): Required<Pick<Analysis, 'spec' | 'result' | 'json' | 'data'>> & Analysis {
  const a = analyze(JSON.stringify(spec, null, 2), { json: true });
  assert.deepEqual(a.problems.filter((p) => p.severity === 'error'), []);
  assert.ok(a.spec && a.result && a.json && a.data);
  return a as Required<Pick<Analysis, 'spec' | 'result' | 'json' | 'data'>> & Analysis;
}

export function assertInDelta(actual: number, expected: number, delta = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= delta, `expected ${actual} to be within ${delta} of ${expected}`);
}

/** The seeds' Apple/orange/watch lens, with W_Q and W_K exactly as the seed gives them. */
export const SEED_LENS = {
  features: ['is_tech', 'is_watch', 'is_fruit'],
  embeddings: { apple: [2, 0, 2], orange: [0, 0, 3], watch: [1, 3, 0] },
  inputs: [{ name: 'apple orange watch', tokens: ['apple', 'orange', 'watch'] }],
  heads: [{ name: 'lens', wq: [[4, 3], [2, 1], [0, 1]], wk: [[1, 1], [1, 1], [4, 2]] }],
  scale: 'none',
};
