// Process wiring for `attn`: real argv and streams, an exit code, and never a stack trace.
import { join } from 'node:path';
import { run } from './run.js';
import { headsThread } from '../core/threads/heads-thread.js';
import { installProductHelper } from '../core/kernels/product-helper.js';
import { kernelThreads } from '../core/threads/kernel-thread.js';

// A big spec's heads on both cores: the second thread's bundle is built beside this one (dist/).
const helper = headsThread(join(__dirname, 'heads-worker.js'));
// A model run's float32 products on every core, their workers' bundle beside this one too.
installProductHelper(kernelThreads(join(__dirname, 'kernel-worker.js')));

// A reader that stops early (`attn validate … | head -1`) closes the pipe: that is the reader's
// choice, so writing stops quietly, but the exit code is still the command's own (a failed
// validation stays 1). Any other write error (a full disk) is reported and makes the exit code 1.
let closed = false;
let writeFailed = false;
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') { closed = true; return; }
    if (!writeFailed && stream !== process.stderr) process.stderr.write(`attn: cannot write the output (${e.code ?? e.message})\n`);
    writeFailed = true;
    process.exitCode = 1;
  });
}

run(process.argv.slice(2), {
  out: (t) => { if (!closed) process.stdout.write(t + '\n'); },
  err: (t) => { if (!closed) process.stderr.write(t + '\n'); },
  helper,
}).then(
  (code) => { process.exitCode = writeFailed ? 1 : code; },
  (e: unknown) => {
    process.stderr.write(`attn: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 3;
  },
);
