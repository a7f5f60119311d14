// What `npm run bench:vscode` reports when not every figure could be taken: the in-host bench
// (test/integration/bench/index.ts) writes <result>.partial after each figure and <result> at the
// end; this reads the whole result, or the partial one when the host stopped answering (then the
// rest is listed as not measured, with why), and says each figure it could not take in one line.
import * as fs from 'node:fs';

/**
 * The bench's result: `file` when the host finished, else `file`.partial with "the rest of the bench"
 * added to `missing` (why: `stalled`); undefined when the host wrote neither (nothing was measured).
 */
export function readBenchResult(file, stalled) {
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
  const partial = `${file}.partial`;
  if (!fs.existsSync(partial)) return undefined;
  const result = JSON.parse(fs.readFileSync(partial, 'utf8'));
  return { ...result, missing: [...(result.missing ?? []), { what: 'the rest of the bench', why: stalled ?? 'the host stopped before it finished' }] };
}

/** One line per figure not taken, and the host's own error, if any: empty when every figure was taken. */
export function missingLines(result) {
  return [
    ...(result.missing ?? []).map((m) => `not measured: ${m.what}: ${m.why.split('\n')[0]}`),
    ...(result.error ? [`the bench inside VS Code stopped: ${result.error.split('\n')[0]}`] : []),
  ];
}

/** Whether anything at all was measured (a run that measured nothing fails; one that measured some reports them). */
export function measuredAnything(result) {
  return (result.rows?.length ?? 0) > 0 || (result.models?.length ?? 0) > 0;
}
