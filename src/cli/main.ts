// Process wiring for `attn`: real argv and streams, an exit code, and never a stack trace.
import { run } from './run.js';

// A reader that stops early (`attn compute … --json | head -c 10`) closes the pipe: that is the
// reader's choice, not a failure to report, so writing stops quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.exitCode = 3;
  });
}

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
