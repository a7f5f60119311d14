// Types for bench-result.mjs, for its unit tests.
export interface BenchResultFile {
  rows?: unknown[];
  models?: unknown[];
  missing?: { what: string; why: string }[];
  error?: string;
  [key: string]: unknown;
}
export function readBenchResult(file: string, stalled?: string): BenchResultFile | undefined;
export function missingLines(result: BenchResultFile): string[];
export function measuredAnything(result: BenchResultFile): boolean;
