// The child of the widths property test (test/unit/cli/widths.test.ts): runs each case's `attn`
// command in turn, in-process, under the heap limit the parent set (--max-old-space-size). Before a
// case it prints `start K`, after it one JSON line with its exit code, output and time, so a case
// that hangs or aborts is named by the last line the parent got.
import { readFileSync, writeSync } from 'node:fs';
import { run } from '../../src/cli/run.js';

interface Case { argv: string[] }

async function main(): Promise<void> {
  const cases = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Case[];
  for (const [k, c] of cases.entries()) {
    writeSync(1, `start ${k}\n`);
    // Output is counted, not kept: what a case prints must not weigh on the next one.
    const err: string[] = [];
    let outBytes = 0;
    const t0 = performance.now();
    const code = await run(c.argv, { out: (t) => { outBytes += t.length; }, err: (t) => err.push(t) });
    const ms = performance.now() - t0;
    writeSync(1, `${JSON.stringify({ k, heapMB: Math.round(process.memoryUsage().heapUsed / 1e6), code, ms, outBytes, err: err.slice(0, 20).join('\n') })}\n`);
  }
}

void main();
