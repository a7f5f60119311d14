// Parsing JSON with positions. jsonc-parser gives every value its offset and length, which is
// what lets each problem point at the exact place. Its parser recurses, so nesting is measured
// first with its (iterative) scanner and absurd depths are refused before they can overflow the stack.
import { createScanner, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Problem } from './problems.js';

export type { Node };

/** A spec nests six levels at most (inputs[0].tokens[0].embedding[0]); 64 leaves room without risking the stack. */
export const MAX_DEPTH = 64;
/** Specs are small; big tensors belong in a binary file, not in JSON. */
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

const PARSE_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'not a valid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected text after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in string',
};

function whole(text: string): { offset: number; length: number } {
  return { offset: 0, length: Math.min(text.length, 1) };
}

/**
 * The first place where brackets nest deeper than `max`, or undefined. A closer only closes the
 * bracket it matches: jsonc-parser's error recovery does not close a level on a stray or
 * mismatched closer, so counting those down would let `]]]` followed by deep nesting slip past.
 */
function tooDeep(text: string, max: number): number | undefined {
  const scanner = createScanner(text, true);
  const open: number[] = [];
  for (let kind = scanner.scan(); kind !== 17 /* EOF */; kind = scanner.scan()) {
    if (kind === 1 || kind === 3) {
      open.push(kind);
      if (open.length > max) return scanner.getTokenOffset();
    } else if (kind === 2 || kind === 4) {
      // 1 "{" is closed by 2 "}", 3 "[" by 4 "]"
      if (open.length > 0 && open[open.length - 1] === kind - 1) open.pop();
    }
  }
  return undefined;
}

/** UTF-8 size without Buffer, so the core stays free of Node APIs. */
function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? (i++, 4) : 3;
  }
  return n;
}

export interface ParsedJson {
  root?: Node;
  problems: Problem[];
}

function size(bytes: number): string {
  return bytes >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

/** The one message for a spec over the size cap, from the reader and from the CLI (which checks before reading). */
export function sizeLimitMessage(bytes: number | undefined, maxBytes: number): string {
  // undefined: the reader stopped at the budget, so the whole size is not known.
  const what = bytes === undefined ? 'the spec is' : `the spec is ${size(bytes)},`;
  return `${what} over the ${size(maxBytes)} limit: a spec is for small, readable examples; big tensors belong in a binary file`;
}

export function parseJson(text: string, maxBytes = DEFAULT_MAX_BYTES): ParsedJson {
  const bytes = utf8Length(text);
  if (bytes > maxBytes) {
    return { problems: [{ severity: 'error', path: '', span: whole(text), message: sizeLimitMessage(bytes, maxBytes) }] };
  }
  // Editors on Windows may save a byte-order mark: read it as a space, so every offset stays put.
  if (text.charCodeAt(0) === 0xfeff) text = ' ' + text.slice(1);
  if (text.trim() === '') {
    return { problems: [{ severity: 'error', path: '', span: whole(text), message: 'the file is empty: expected a JSON object such as { "embeddings": {...}, "inputs": [...] }' }] };
  }
  const deep = tooDeep(text, MAX_DEPTH);
  if (deep !== undefined) {
    return { problems: [{ severity: 'error', path: '', span: { offset: deep, length: 1 }, message: `nested more than ${MAX_DEPTH} levels deep; a spec needs six at most` }] };
  }
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch (e) {
    // The guard above should make this unreachable; if a recovery path still recurses too deep, say so in place.
    if (!(e instanceof RangeError)) throw e;
    return { problems: [{ severity: 'error', path: '', span: whole(text), message: `nested too deeply to read; a spec needs six levels at most` }] };
  }
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const message = `invalid JSON: ${PARSE_MESSAGES[printParseErrorCode(e.error)] ?? printParseErrorCode(e.error)}`;
    const span = insideText(text, e.offset, e.length);
    const key = `${span.offset}:${message}`;
    if (seen.has(key)) continue; // the parser repeats itself at the end of a truncated file
    seen.add(key);
    problems.push({ severity: 'error', path: '', span, message });
  }
  return { root, problems };
}

/** A range clamped into the text; an error at the very end is put on the last character so it can be underlined. */
function insideText(text: string, offset: number, length: number): { offset: number; length: number } {
  const start = Math.min(Math.max(offset, 0), Math.max(text.length - 1, 0));
  return { offset: start, length: Math.min(Math.max(length, 1), text.length - start) };
}

/** The node at a path of property names and indices, as jsonc-parser's findNodeAtLocation but for our node type. */
export function childAt(node: Node | undefined, segment: string | number): Node | undefined {
  if (!node) return undefined;
  if (typeof segment === 'number') return node.type === 'array' ? node.children?.[segment] : undefined;
  if (node.type !== 'object') return undefined;
  const prop = node.children?.find((p) => p.children?.[0]?.value === segment);
  return prop?.children?.[1];
}

/** The property node (key and value) named `name` in an object node. */
export function propertyNode(node: Node | undefined, name: string): Node | undefined {
  if (!node || node.type !== 'object') return undefined;
  return node.children?.find((p) => p.children?.[0]?.value === name);
}
