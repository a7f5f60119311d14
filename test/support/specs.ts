// Helpers shared by the unit tests: reading the examples, and building small specs inline.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { analyze, type Analysis } from '../../src/core/index.js';

export const EXAMPLES = join(__dirname, '..', '..', 'examples');

/** Every example spec, the model specs among them. */
export function allExampleFiles(): string[] {
  return readdirSync(EXAMPLES).filter((f) => f.endsWith('.attn.json')).map((f) => join(EXAMPLES, f));
}

/** Whether the spec's text runs a real model ({ "model", "text" }): the model views draw it, not the spec views. */
export function isModelSpecText(text: string): boolean {
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && 'model' in value;
}

/** The examples the core computes (the spec views draw them): every example but the model specs. */
export function exampleFiles(): string[] {
  return allExampleFiles().filter((f) => !isModelSpecText(readFileSync(f, 'utf8')));
}

/** The examples that run a real model (examples/models/ holds their checkpoints). */
export function modelExampleFiles(): string[] {
  return allExampleFiles().filter((f) => isModelSpecText(readFileSync(f, 'utf8')));
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
