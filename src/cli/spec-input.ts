// The one spec a command reads, for validate, compute, render, train and analyze: read within the
// byte budget, its problems printed as FILE:LINE:COL, the tensor files it names looked up beside
// it. Each says why it cannot go on and gives the exit code instead.
import { dirname, resolve } from 'node:path';
import { folderFiles, type TensorFiles } from '../core/files/spec-files.js';
import { analyze, formatProblem, hasErrors, readSpec } from '../core/index.js';
import type { Spec } from '../core/spec/spec.js';
import { USAGE, type Args, type Io } from './args.js';
import { readSpecFile } from './read-file.js';
import { printable } from './terminal.js';

/** The tensor files a spec names are read from its folder (each path opened is added to `read`); a spec from standard input has none. */
export function filesBeside(file: string, read?: string[]): TensorFiles | undefined {
  if (file === '-') return undefined;
  const files = folderFiles(dirname(resolve(file)));
  return read ? { ...files, open: (name) => { read.push(resolve(dirname(resolve(file)), name)); return files.open(name); } } : files;
}

/**
 * Reads and computes one file, printing its problems; undefined when it cannot be computed. `read` gets
 * every file read (the spec, its tensor files); `stdinText`, a spec already read from standard input.
 */
export function analyzeFile(args: Args, maxBytes: number, io: Io, command: 'compute' | 'render', read?: string[], stdinText?: string) {
  if (args.files.length !== 1) {
    io.err(`attn ${command}: name exactly one spec file\n${USAGE}`);
    return undefined;
  }
  const file = args.files[0];
  read?.push(file);
  // Standard input already read (to tell a spec from a model's file) is not read again.
  const text = stdinText ?? readSpecFile(file, maxBytes, io);
  if (text === undefined) return undefined;
  // Only compute prints arrays of rows; render reads the typed model.
  const analysis = analyze(text, { maxBytes, helper: io.helper, json: command === 'compute', linalg: command === 'render', files: filesBeside(file, read) });
  for (const p of analysis.problems) io.err(printable(formatProblem(file, text, p)));
  if (analysis.reference) {
    io.err(`attn ${command}: ${printable(file)} shows a model's attention from ${printable(analysis.reference.file)}: use attn inspect ${printable(file)}, or attn render with --view model, head, finder or rollout`);
    return undefined;
  }
  if (analysis.model) {
    io.err(`attn ${command}: ${printable(file)} runs the model ${printable(analysis.model.model)} on a text: use attn run, or Show Attention in VS Code`);
    return undefined;
  }
  if (hasErrors(analysis.problems) || !analysis.data) return undefined;
  return { file, data: analysis.data, json: analysis.json };
}

/** Reads the one spec a command takes: the spec, or the exit code after printing why not. */
export function readOneSpec(args: Args, maxBytes: number, io: Io, command: 'train' | 'analyze'): { file: string; spec: Spec } | number {
  if (args.files.length !== 1) { io.err(`attn ${command}: name exactly one spec file\n${USAGE}`); return 2; }
  const file = args.files[0];
  const text = readSpecFile(file, maxBytes, io);
  if (text === undefined) return 1;
  const { spec, problems, model } = readSpec(text, { maxBytes, files: filesBeside(file) });
  for (const p of problems) io.err(printable(formatProblem(file, text, p)));
  if (model) { io.err(`attn ${command}: ${printable(file)} runs the model ${printable(model.model)} on a text: use attn run, or Show Attention in VS Code`); return 1; }
  if (!spec || hasErrors(problems)) return 1;
  return { file, spec };
}
