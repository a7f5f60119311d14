// Process wiring for `attn`: real argv and streams, an exit code, and never a stack trace.
import { run } from './run.js';

run(process.argv.slice(2), {
  out: (t) => process.stdout.write(t + '\n'),
  err: (t) => process.stderr.write(t + '\n'),
}).then(
  (code) => { process.exitCode = code; },
  (e: unknown) => {
    process.stderr.write(`attn: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 3;
  },
);
