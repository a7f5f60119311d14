// A size in the words a limit's sentence uses: MiB to a tenth, rounded up, so a file just over a
// limit never reads as the limit itself. Pure: the web build and the desktop say it alike.

/** Bytes in MiB to a tenth, rounded up. */
export function mib(bytes: number): string {
  return `${(Math.ceil(bytes / 2 ** 20 * 10) / 10).toFixed(1)} MiB`;
}
