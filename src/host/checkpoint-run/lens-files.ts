// Writing a real head as a spec (the lens, core/checkpoint-spec/lens-spec.ts): the .attn.json and its
// tensor file beside it (<stem>.safetensors). Neither may land in the model's own folder (a model's
// files are never replaced: a spec saved there could overwrite a shard or config.json), and the
// tensor file never replaces a file that is not a lens's own earlier one: one whose spec is beside it
// and whose metadata says Attention Lens wrote it. Neither is written through a symbolic link (which
// could point anywhere). No VS Code: the session asks where, this writes.
import { existsSync, lstatSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { within } from '../../core/checkpoint-files/model-location.js';
import { lensSpec } from '../../core/checkpoint-spec/lens-spec.js';
import { writeSafetensors } from '../../core/tensors/safetensors-write.js';
import { readSafetensors } from '../../core/tensors/safetensors.js';
import { fileSource } from '../../core/files/file-source.js';
import type { HeadLens } from '../../core/checkpoint/types.js';

/** A file name's stem from a model's name and a head: "gpt2-layer3-head5". */
export function lensStem(model: string, layer: number, head: number): string {
  const name = basename(model.replace(/[\\/]+$/, '')).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '') || 'model';
  return `${name.slice(0, 60)}-layer${layer + 1}-head${head + 1}`;
}

/** The tensor file of the spec at `specPath`: <stem>.safetensors beside it. */
export function lensTensorPath(specPath: string): string {
  return specPath.replace(/(\.attn)?\.json$/i, '') + '.safetensors';
}

/** Why `specPath` cannot be written for a head of the model in `modelFolder`, or undefined. */
export function lensTargetProblem(specPath: string, modelFolder: string): string | undefined {
  if (!/\.attn\.json$/i.test(specPath)) return 'a spec\'s name ends in .attn.json';
  let folder: string, model: string;
  try {
    folder = realpathSync(dirname(specPath));
    model = realpathSync(modelFolder);
  } catch {
    return `${dirname(specPath)}: no such folder`;
  }
  if (within(model, folder)) return 'this is the model\'s own folder: its files are never replaced, so choose another folder for the spec';
  const tensorPath = lensTensorPath(specPath);
  for (const path of [specPath, tensorPath]) {
    if (isSymbolicLink(path)) return `${basename(path)} is a symbolic link: a lens is not written through one, so choose another name`;
  }
  if (existsSync(tensorPath) && !(existsSync(specPath) && isLensTensorFile(tensorPath))) {
    return `${basename(tensorPath)} is there and is not an earlier lens's own tensor file: it is never replaced, so choose another name`;
  }
  return undefined;
}

/** The start of the `about` a lens's tensor file says in its metadata. */
const LENS_ABOUT = 'Attention Lens: ';

function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Whether the file at `path` is a safetensors file whose metadata says a lens wrote it (writeLensFiles). */
function isLensTensorFile(path: string): boolean {
  let source: ReturnType<typeof fileSource>;
  try {
    source = fileSource(path);
  } catch {
    return false;
  }
  try {
    const about: string | undefined = readSafetensors(source).metadata.about;
    return about?.startsWith(LENS_ABOUT) === true;
  } catch {
    return false;
  } finally {
    source.close();
  }
}

/** Writes the spec and its tensor file; returns the spec's path. Throws with a sentence when it may not. */
export function writeLensFiles(specPath: string, lens: HeadLens, options: { model: string; modelFolder: string; query: number }): string {
  const problem = lensTargetProblem(specPath, options.modelFolder);
  if (problem) throw new Error(problem);
  const tensorPath = lensTensorPath(specPath);
  const { spec, tensors } = lensSpec(lens, { tensorFile: basename(tensorPath), model: options.model, query: options.query });
  writeFileSync(tensorPath, writeSafetensors(tensors, { about: `${LENS_ABOUT}${options.model}, layer ${lens.layer + 1} head ${lens.head + 1}` }));
  writeFileSync(specPath, `${JSON.stringify(spec, null, 2)}\n`);
  return specPath;
}

/**
 * The save dialog's filter. VS Code's own dialog (code-server's, and the desktop's when native dialogs
 * are off) compares a typed name's last extension with the filter's and appends the first when none
 * matches; "json" beside "attn.json" keeps x.attn.json as it is, where "attn.json" alone made it
 * x.attn.json.attn.json. A name typed without extension still gets .attn.json.
 */
export const LENS_SAVE_FILTERS: Record<string, string[]> = { 'Attention Lens spec': ['attn.json', 'json'] };

/** The spec path for a name the save dialog gave: a doubled ".attn.json.attn.json" written once. */
export function lensSpecPath(chosen: string): string {
  return chosen.replace(/(\.attn\.json)(?:\.attn\.json)+$/i, '$1');
}

/** A fresh spec path in `folder` for the stem (stem.attn.json, else stem-2.attn.json, …). */
export function freshLensPath(folder: string, stem: string): string {
  for (let k = 1; ; k++) {
    const path = join(folder, `${stem}${k === 1 ? '' : `-${k}`}.attn.json`);
    if (!existsSync(path) && !existsSync(lensTensorPath(path))) return path;
  }
}
