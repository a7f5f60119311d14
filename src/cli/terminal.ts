// Spec strings printed by `attn` are data, not terminal commands: an ESC in a token could
// recolour or clear the terminal, a BEL ring it, and a newline forge a whole problem line
// ("/etc/passwd:1:1: forged problem"). Everything not printable is written as an escape.

// C0 and C1 controls, DEL, the bidirectional overrides that can reorder what a line shows, and the
// invisible ones (zero-width spaces and joiners, the BOM, noncharacters) that can hide text in a line.
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u2028\u2029\ufeff\ufff9-\ufffb\ufffe\uffff]/g;

/** One line with every unprintable character written as \n, \t, \e or \u{XX}. */
export function printable(s: string): string {
  return s.replace(UNPRINTABLE, (ch) => {
    const c = ch.charCodeAt(0);
    return c === 10 ? '\\n' : c === 13 ? '\\r' : c === 9 ? '\\t' : c === 27 ? '\\e' : `\\u{${c.toString(16)}}`;
  });
}

// JSON.stringify escapes C0 controls but leaves C1 controls, DEL and bidi overrides raw.
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u2028\u2029\ufeff\ufff9-\ufffb\ufffe\uffff]/g;

/** JSON text with those characters written as \uXXXX: the same JSON value, safe to print. */
export function printableJson(json: string): string {
  return json.replace(JSON_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
