// The `attn` command: reads the command line, answers --help and --version, checks the one option
// every command shares (--max-bytes), and hands the rest to the command's own file (one file per
// command: validate.ts, compute.ts, analyze.ts, inspect.ts, train.ts, render/command.ts, model/run-model.ts). `run` takes
// its arguments and output streams as parameters, so tests call it directly; main.ts wires it to
// the process.
import { DEFAULT_MAX_BYTES } from '../core/json/json-tree.js';
import { intFlag, isBad, parseArgs, USAGE, type Command, type Io } from './args.js';
import { analyzeCommand } from './analyze.js';
import { computeCommand } from './compute.js';
import { inspectCommand } from './inspect.js';
import { renderCommand } from './render/command.js';
import { runModelCommand } from './model/run-model.js';
import { trainCommand } from './train.js';
import { validateCommand } from './validate.js';
import { printable } from './terminal.js';

export type { Io } from './args.js';

/** Every command by its name: a new command is a file of its own, a line here and a line in USAGE. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  validate: validateCommand,
  compute: computeCommand,
  render: renderCommand,
  train: trainCommand,
  analyze: analyzeCommand,
  inspect: inspectCommand,
  run: runModelCommand,
};

/** A spec is read into one string: past this size neither the string nor the JSON tree would fit. */
const MAX_MAX_BYTES = 256 * 1024 * 1024;

export async function run(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    io.err(`attn: ${printable(args)}\n${USAGE}`);
    return 2;
  }
  if (args.flags.has('--help') || !args.command) {
    (args.command || args.flags.has('--help') ? io.out : io.err)(USAGE);
    return args.flags.has('--help') ? 0 : 2;
  }
  if (args.flags.has('--version')) {
    io.out('attn 0.1.0');
    return 0;
  }
  const maxBytes = intFlag(args, '--max-bytes', DEFAULT_MAX_BYTES);
  if (isBad(maxBytes)) {
    io.err(`attn: ${printable(maxBytes.error)}`);
    return 2;
  }
  if (maxBytes > MAX_MAX_BYTES) {
    io.err(`attn: --max-bytes ${maxBytes} is more than ${MAX_MAX_BYTES} (256 MB), the largest spec attn can hold`);
    return 2;
  }
  const command = Object.hasOwn(COMMANDS, args.command) ? COMMANDS[args.command] : undefined;
  if (!command) {
    io.err(`attn: unknown command ${printable(JSON.stringify(args.command))}\n${USAGE}`);
    return 2;
  }
  return command(args, maxBytes, io);
}
