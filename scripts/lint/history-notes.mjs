// History belongs in the commits: a comment or a test name says what the code does or what the test
// checks, not which issue, review round or defect it came from ("issue N, defect M:", "round N", the
// session it was found in). This finds such notes in a file's comments and test names (test/unit/scripts/lint/
// history-notes.test.ts runs it over src, webview, test, scripts and python). TypeScript and JavaScript
// are read with TypeScript's parser, so a string or a regular expression in the code never counts;
// Python by its `#` comments, its docstrings and its test functions' names.
import ts from 'typescript';

/**
 * A note of history: an issue, round or defect by its number (not "round4(m)", "around 3", "rounds 0.5"),
 * or the session it was found in.
 */
export const HISTORY = /(?<![a-z])(?:issue|round|defect)s?[ _#-]+\d+(?!\.\d|\d)|\bthis session\b/i;

/** The functions whose first argument is a test's name (node:test, mocha). */
const TEST_CALLS = new Set(['test', 'it', 'describe', 'suite']);

/** The 1-based line of an offset. */
const lineOf = (text, offset) => text.slice(0, offset).split('\n').length;

/** The comments and test names of a TypeScript or JavaScript text, each with its line. */
function scriptNotes(text, fileName) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const notes = new Map();
  const comments = (ranges) => {
    for (const r of ranges ?? []) notes.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node) => {
    comments(ts.getLeadingCommentRanges(text, node.pos));
    comments(ts.getTrailingCommentRanges(text, node.end));
    if (ts.isCallExpression(node) && node.arguments.length > 0) {
      // test('…'), t.test('…'), describe.skip('…'), test.only('…')
      const e = node.expression;
      const callees = ts.isPropertyAccessExpression(e) ? [e.name, e.expression] : [e];
      const name = node.arguments[0];
      if (callees.some((c) => ts.isIdentifier(c) && TEST_CALLS.has(c.text)) && (ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name) || ts.isTemplateExpression(name))) {
        notes.set(name.getStart(source), name.getText(source));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  comments(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return [...notes].map(([pos, note]) => ({ line: lineOf(text, pos), note }));
}

/** The comments, docstrings and test functions' names of a Python text, each with its line. */
function pythonNotes(text) {
  const notes = [];
  for (const m of text.matchAll(/"""[^]*?"""|'''[^]*?'''/g)) notes.push({ line: lineOf(text, m.index), note: m[0] });
  text.split('\n').forEach((line, i) => {
    const comment = /(?:^|\s)(#.*)$/.exec(line);
    if (comment) notes.push({ line: i + 1, note: comment[1] });
    const name = /^\s*def (test\w*)/.exec(line);
    if (name) notes.push({ line: i + 1, note: name[1] });
  });
  return notes;
}

/** The notes of history in a file's comments and test names: its line and the comment or name. */
export function historyNotes(text, fileName) {
  const notes = fileName.endsWith('.py') ? pythonNotes(text) : scriptNotes(text, fileName);
  return notes.filter((n) => HISTORY.test(n.note)).sort((a, b) => a.line - b.line);
}
