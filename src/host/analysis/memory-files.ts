// A spec's tensor files as the host read them beforehand (the web build reads them through
// vscode.workspace.fs, which the analysis cannot call): the core's TensorFiles over bytes in memory.
// A name the host did not read, or could not, is a problem at its "file" with the host's sentence.
// No .npz here: its members are inflated with node:zlib, which only the desktop has.
import type { TensorFiles } from '../../core/files/spec-files.js';
import { findTensorsIn } from '../../core/tensors/find-tensors.js';
import { memorySource, TensorFileError } from '../../core/tensors/source.js';

export function memoryFiles(files: Readonly<Record<string, Uint8Array | string>>): TensorFiles {
  return {
    open(name) {
      const held = Object.hasOwn(files, name) ? files[name] : undefined;
      if (held === undefined) throw new TensorFileError(`${name}: was not read with the spec`);
      if (typeof held === 'string') throw new TensorFileError(held);
      return memorySource(name, held);
    },
    find: (source, wanted) => findTensorsIn(source, wanted),
  };
}
