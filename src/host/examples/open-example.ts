// The command Open Example (attentionLens.openExample, with an example's file name: the walkthrough's
// buttons pass one). The extension's examples are never opened themselves, since in code-server every
// edit is saved at once: they are copied, all of them, into attention-lens-examples/ of the workspace
// (or the extension's storage when no folder is open), where the learner may change any number, and
// the "Next" links between them keep working; the models/ folder goes with them, since a model
// example's "model" names a checkpoint folder beside it. A copy already there is the learner's and is
// opened as it is, never overwritten. Then the copy opens in the first column and its panel beside it,
// on the view its "open" names.
import * as vscode from 'vscode';
import { badNextName } from '../../core/spec/read/story.js';
import { examplesCopyFolder, examplesFolder } from './examples.js';
import { STORY_STEPS, stepContextKey, stepOf } from './steps.js';
import { SPEC_SUFFIX } from '../spec-documents.js';

export interface ExampleContext {
  extensionUri: vscode.Uri;
  globalStorageUri?: vscode.Uri;
  /** Show Attention on a spec. */
  show(uri: vscode.Uri): Promise<unknown>;
}

/** The examples' folder of model checkpoints (a model example's "model" names a folder below it). */
export const MODELS_FOLDER = 'models';

/** The list of the examples' files the build writes (scripts/web-build.mjs), beside examples/ in dist/. */
export const EXAMPLES_INDEX = ['..', 'dist', 'examples.json'] as const;

/** Copies every example spec into `to` that is not there yet, and the models/ folder the model examples run; the names copied. */
export async function copyExamples(from: vscode.Uri, to: vscode.Uri): Promise<string[]> {
  await vscode.workspace.fs.createDirectory(to);
  let listing: [string, vscode.FileType][];
  try {
    listing = await vscode.workspace.fs.readDirectory(from);
  } catch {
    // VS Code for the Web reads an extension's files over HTTP, which lists no folder: the build's list says what is there.
    return copyListed(from, to);
  }
  const copied: string[] = [];
  for (const [name, type] of listing) {
    if (type === vscode.FileType.Directory && name === MODELS_FOLDER) {
      copied.push(...await copyMissing(vscode.Uri.joinPath(from, name), vscode.Uri.joinPath(to, name), name));
      continue;
    }
    if (type !== vscode.FileType.File || !name.toLowerCase().endsWith(SPEC_SUFFIX)) continue;
    if (await copyFile(vscode.Uri.joinPath(from, name), vscode.Uri.joinPath(to, name))) copied.push(name);
  }
  return copied;
}

/** Copies `from` to `to` unless `to` exists; whether it copied. */
async function copyFile(from: vscode.Uri, to: vscode.Uri): Promise<boolean> {
  const there = await vscode.workspace.fs.stat(to).then(() => true, () => false);
  if (there) return false;
  await vscode.workspace.fs.writeFile(to, await vscode.workspace.fs.readFile(from));
  return true;
}

/** Copies the files the examples' index lists (paths below examples/) that `to` lacks; the paths copied. */
async function copyListed(from: vscode.Uri, to: vscode.Uri): Promise<string[]> {
  const index: unknown = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(from, ...EXAMPLES_INDEX))));
  const files = (index as { files?: unknown }).files;
  if (!Array.isArray(files)) throw new Error('the examples\' list (dist/examples.json) holds no "files"');
  const copied: string[] = [];
  for (const path of files) {
    if (typeof path !== 'string' || path.split('/').some((part) => part === '..' || part === '')) continue;
    const parts = path.split('/');
    if (parts.length > 1) await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(to, ...parts.slice(0, -1)));
    if (await copyFile(vscode.Uri.joinPath(from, ...parts), vscode.Uri.joinPath(to, ...parts))) copied.push(path);
  }
  return copied;
}

/** Copies the files of folder `from` (and its folders) that `to` lacks; their paths below `prefix`. */
async function copyMissing(from: vscode.Uri, to: vscode.Uri, prefix: string): Promise<string[]> {
  await vscode.workspace.fs.createDirectory(to);
  const copied: string[] = [];
  for (const [name, type] of await vscode.workspace.fs.readDirectory(from)) {
    const path = `${prefix}/${name}`;
    if (type === vscode.FileType.Directory) copied.push(...await copyMissing(vscode.Uri.joinPath(from, name), vscode.Uri.joinPath(to, name), path));
    else if (type === vscode.FileType.File && await copyFile(vscode.Uri.joinPath(from, name), vscode.Uri.joinPath(to, name))) copied.push(path);
  }
  return copied;
}

/** Opens the learner's copy of example `name` and its panel; the copy's URI, or undefined (with a message) when it cannot. */
export async function openExample(context: ExampleContext, name: unknown): Promise<vscode.Uri | undefined> {
  if (name === undefined) {
    // From the command palette: the story's examples, in its order.
    const picked = await vscode.window.showQuickPick(STORY_STEPS.map((s) => ({ label: s.example, step: s })), { placeHolder: 'Which example?' });
    if (!picked) return undefined;
    name = picked.step.example;
  }
  const bad = typeof name !== 'string' ? 'give the file name of an example' : badNextName(name);
  const from = examplesFolder(context.extensionUri);
  const original = typeof name === 'string' && !bad ? vscode.Uri.joinPath(from, name) : undefined;
  if (!original || !(await vscode.workspace.fs.stat(original).then(() => true, () => false))) {
    void vscode.window.showErrorMessage(`Attention Lens: there is no example ${JSON.stringify(String(name)).slice(0, 80)}${bad ? ` (${bad})` : ''}.`);
    return undefined;
  }
  const to = examplesCopyFolder(context.globalStorageUri);
  if (!to) {
    void vscode.window.showErrorMessage('Attention Lens: open a folder first: the examples are copied into it, so that the originals stay as they are.');
    return undefined;
  }
  let copied: string[];
  try {
    copied = await copyExamples(from, to);
  } catch (err) {
    void vscode.window.showErrorMessage(`Attention Lens: could not copy the examples into ${to.fsPath}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
  const copy = vscode.Uri.joinPath(to, name as string);
  const document = await vscode.workspace.openTextDocument(copy);
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, preview: false });
  await context.show(copy);
  const step = stepOf(name as string);
  if (step) void vscode.commands.executeCommand('setContext', stepContextKey(step), true);
  if (copied.length > 0) {
    const where = vscode.workspace.asRelativePath(to, false);
    void vscode.window.showInformationMessage(`Attention Lens: the examples were copied into ${where}: change any number there; the originals stay as they are.`);
  }
  return copy;
}
