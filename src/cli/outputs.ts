// A command's outputs never replace its inputs: before anything is written, every file it writes is
// compared with every file it read (the spec, the tensor files the spec names, a model file and its
// tokens beside it). Paths are compared as the files they name: resolved through symbolic links,
// and by device and inode, so a hard link or a ./x/../x spelling is the same file too.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/** True when two paths name one file (through symbolic and hard links too). */
export function sameFile(a: string, b: string): boolean {
  const real = (p: string) => (existsSync(p) ? realpathSync(p) : resolve(p));
  try {
    if (existsSync(a) && existsSync(b)) {
      const sa = statSync(a), sb = statSync(b);
      if (sa.dev === sb.dev && sa.ino === sb.ino) return true;
    }
    return real(a) === real(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

/** The first of `inputs` that writing `output` would replace, or undefined (standard input, "-", is no file). */
export function inputReplacedBy(output: string, inputs: readonly string[]): string | undefined {
  return inputs.find((input) => input !== '-' && sameFile(output, input));
}
