// A spec's tensor files on the web: the analysis there has no disk to open them from, so each file a
// spec names is a problem at its "file" saying so in one line (not "save it first", which would not help).
import type { TensorFiles } from '../../core/files/spec-files.js';
import { TensorFileError } from '../../core/tensors/source.js';
import { NOT_ON_THE_WEB } from './not-on-web-text.js';

export const TENSOR_FILES_ON_THE_WEB = `a tensor file beside a spec is read from a disk, which ${NOT_ON_THE_WEB}`;

/** The files of a spec's folder on the web: none can be opened, each says why. */
export function filesNotRead(_folder: string): TensorFiles {
  const refuse = (name: string): never => { throw new TensorFileError(`${name}: ${TENSOR_FILES_ON_THE_WEB}`); };
  return { open: refuse, find: (source) => refuse(source.name) };
}
