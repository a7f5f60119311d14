// `attn validate FILE...`: check specs without computing them; one FILE:LINE:COL line per problem,
// FILE: ok for a clean one. Exit 1 when any file has a problem (warnings included) or cannot be read.
import { analyze, formatProblem } from '../core/index.js';
import { USAGE, type Args, type Io } from './args.js';
import { readSpecFile } from './read-file.js';
import { filesBeside } from './spec-input.js';
import { printable } from './terminal.js';

export function validateCommand(args: Args, maxBytes: number, io: Io): number {
  if (args.files.length === 0) {
    io.err(`attn validate: name at least one spec file\n${USAGE}`);
    return 2;
  }
  let failed = false;
  for (const file of args.files) {
    const text = readSpecFile(file, maxBytes, io);
    if (text === undefined) { failed = true; continue; }
    const { problems } = analyze(text, { maxBytes, helper: io.helper, files: filesBeside(file) });
    for (const p of problems) io.err(printable(formatProblem(file, text, p)));
    if (problems.length > 0) failed = true;
    else io.out(`${printable(file)}: ok`);
  }
  return failed ? 1 : 0;
}
