// `attn validate FILE...`: check specs without computing them; one FILE:LINE:COL line per problem,
// FILE: ok for a clean one. Exit 1 when any file has a problem (warnings included) or cannot be read.
// A model spec's "model" is held to the rules its run applies (resolveModelFolder: beside the spec
// or below it, no "..", a model id in the Hugging Face cache, an absolute path as a trusted
// workspace and the command line allow), so "ok" means the spec runs as far as its folder goes.
import { dirname, resolve } from 'node:path';
import { analyze, formatProblem, type Problem } from '../core/index.js';
import type { ModelSpec } from '../core/checkpoint-spec/read-model.js';
import { hfCacheRoot, nodeFolderFs, resolveModelFolder } from '../core/checkpoint-files/model-location.js';
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
    const analysis = analyze(text, { maxBytes, helper: io.helper, files: filesBeside(file) });
    const problems = [...analysis.problems];
    if (analysis.model) {
      const where = modelFolderProblem(file, analysis.model);
      if (where) problems.push(where);
    }
    for (const p of problems) io.err(printable(formatProblem(file, text, p)));
    if (problems.length > 0) failed = true;
    else io.out(`${printable(file)}: ok`);
  }
  return failed ? 1 : 0;
}

/** Why a model spec's "model" cannot be read where the spec is, at "model", or undefined. */
export function modelFolderProblem(file: string, spec: ModelSpec, cacheRoot = hfCacheRoot()): Problem | undefined {
  const at = resolveModelFolder(spec.model, {
    specFolder: file === '-' ? undefined : dirname(resolve(file)),
    workspaceFolders: [], cacheRoot, trusted: true, fs: nodeFolderFs,
  });
  return 'problem' in at ? { severity: 'error', path: 'model', message: at.problem, span: spec.modelSpan } : undefined;
}
