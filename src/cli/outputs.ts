// A command's outputs never replace its inputs: before anything is written, every file it writes is
// compared with every file it read (the spec, the tensor files the spec names, a model file and its
// tokens beside it). Paths are compared as the files they name: resolved through symbolic links,
// and by device and inode, so a hard link or a ./x/../x spelling is the same file too. Each output is
// written whole or not at all (writeWhole), and never opened when it is a pipe or a device.
import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, existsSync, fchmodSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

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

/**
 * Why `path` cannot take a written file, or undefined: a folder (EISDIR), or a pipe, device or socket
 * (a FIFO's open waits for good for a reader; replacing a device node would remove it). A missing
 * file, or a regular one, can be written.
 */
export function unwritable(path: string): string | undefined {
  let stat;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? String(e);
  }
  if (!stat || stat.isFile()) return undefined;
  return stat.isDirectory() ? 'EISDIR' : 'not a regular file: a pipe, device or socket';
}

/**
 * Writes `parts` to `path` whole or not at all: into a new file beside it, renamed over it once every
 * byte is written, so a write that fails part-way (a full disk) leaves the file that was there, or
 * none, and never half of one. A symbolic link is written through (its target replaced). Returns
 * why it could not (an error code or a phrase), or undefined.
 */
export function writeWhole(path: string, parts: Iterable<Uint8Array | string>): string | undefined {
  const refused = unwritable(path);
  if (refused) return refused;
  let target = path, mode: number | undefined;
  try {
    if (existsSync(path)) {
      target = realpathSync(path);
      mode = statSync(target).mode & 0o7777;
      // The rename needs only the folder's permission: a file its owner made read-only is refused, as opening it would be.
      accessSync(target, constants.W_OK);
    }
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? String(e);
  }
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.part`);
  let fd: number;
  try {
    fd = openSync(temporary, 'wx');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? String(e);
  }
  let written = false;
  try {
    if (mode !== undefined) fchmodSync(fd, mode);
    for (const part of parts) {
      // A write may take fewer bytes than it is given: every part is written until it is all out.
      const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    }
    closeSync(fd);
    fd = -1;
    renameSync(temporary, target);
    written = true;
    return undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? String(e);
  } finally {
    try {
      if (fd >= 0) closeSync(fd);
    } finally {
      if (!written) rmSync(temporary, { force: true });
    }
  }
}
