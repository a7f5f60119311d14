// The CLI's tests call `attn` in-process through run(), with its output collected, and write the specs
// they need into a fresh temporary folder.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../../src/cli/run.js';
import { tempDir } from './temp-dir.js';

/** Runs `attn ARGV…` in-process: its exit code and what it printed on stdout and stderr. */
export async function attn(...argv: string[]) {
  const out: string[] = [], err: string[] = [];
  const code = await run(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A spec file holding `text` in a new temporary folder. */
export function tempSpec(text: string): string {
  const file = join(tempDir('attn-'), 'bad.attn.json');
  writeFileSync(file, text);
  return file;
}
