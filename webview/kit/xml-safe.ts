// Spec strings end up in exported SVG files, and XML 1.0 forbids some characters outright (C0
// controls other than tab and line breaks, U+FFFE, U+FFFF, lone surrogates): one of them in a
// token makes the whole file unreadable. The DOM keeps them, so the serialized text is cleaned:
// C0 controls become their visible Control Pictures (U+2400 + code, e.g. ESC → ␛), the others
// U+FFFD, and DEL and C1 controls (legal but invisible, and terminal commands when the SVG is
// printed) are written as character references.

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function xmlSafe(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    const c = ch.charCodeAt(0);
    if (c < 0x20) return String.fromCharCode(0x2400 + c);
    // Legal but invisible or reordering (DEL, C1, bidi overrides, zero-width): references, so no raw byte reaches a terminal.
    if (c !== 0xfffe && c !== 0xffff && c < 0xd800 || (c > 0xdfff && c < 0xfffe)) return `&#x${c.toString(16)};`;
    return '\ufffd';
  });
}
