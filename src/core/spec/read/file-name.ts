// The rule for a file name a spec gives (a tensor file, a model's attention file): relative, inside the
// spec's folder. Pure (no node:path: a leading slash or backslash and a drive letter are what
// path.isAbsolute finds on either platform), so the spec's reader is the same on the web.

/** Why a name a spec gives cannot be a file beside it, or undefined when it can. */
export function badFileName(name: string): string | undefined {
  if (name.length === 0) return 'the file name is empty';
  if (name.length > 1000) return 'the file name is over 1,000 characters';
  if (name.includes('\0')) return 'the file name holds a NUL character';
  if (/^[a-zA-Z]:/.test(name) || name.startsWith('\\') || name.startsWith('/')) return 'give a path relative to the spec\'s folder, not an absolute one';
  if (name.split(/[\\/]/).includes('..')) return 'the file must be in the spec\'s folder or below it ("..", going up, is not allowed)';
  return undefined;
}
