// A value from a file quoted in a message: the file is hostile or broken, so the value may be
// megabytes long or nested so deep that JSON.stringify overflows the stack. Quoted as JSON, cut with
// "…" past a readable length, or said to be nested too deep to print.

/** Most characters of a string quoted (twice that for any other value). */
const SHOWN_CHARS = 60;

export function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > SHOWN_CHARS ? `${v.slice(0, SHOWN_CHARS)}…` : v);
  let text: string;
  try {
    text = String(JSON.stringify(v));
  } catch {
    return 'a value nested too deep to print';
  }
  return text.length > SHOWN_CHARS * 2 ? `${text.slice(0, SHOWN_CHARS * 2)}…` : text;
}
