// The story part of a panel's render: the spec's description and "open" as the worker read them,
// and its "next" spec with that spec's title, read from the file beside it (a missing next spec is
// left out, so the panel never offers a link that leads nowhere). The webview's "Next" comes back
// as a bare file name; siblingSpec() turns it into the URI beside the shown spec, refusing anything
// else (badNextName: no folder, no separator, *.attn.json only).
import * as vscode from 'vscode';
import type { SpecStory } from '../../core/spec/read/story.js';
import { badNextName } from '../../core/spec/read/story.js';
import type { PanelStory } from '../../protocol/panel.js';
import { log } from '../log.js';

/** A next spec larger than this is named by its file name only (its title is not worth reading it). */
const MAX_TITLE_READ_BYTES = 1 << 20;

/** The spec named `file` in the folder of `specUri`, or undefined when `file` is not a bare spec name. */
export function siblingSpec(specUri: vscode.Uri, file: string): vscode.Uri | undefined {
  if (badNextName(file) !== undefined) return undefined;
  const folder = specUri.path.slice(0, specUri.path.lastIndexOf('/') + 1);
  return specUri.with({ path: folder + file, query: '', fragment: '' });
}

/** The "title" of the spec at `uri`; undefined when it cannot be read, is not JSON or has no title. */
export async function specTitle(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  let text: string;
  if (open) text = open.getText();
  else {
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.byteLength > MAX_TITLE_READ_BYTES) return undefined;
    text = new TextDecoder().decode(bytes);
  }
  try {
    const value: unknown = JSON.parse(text);
    const title = typeof value === 'object' && value !== null ? (value as { title?: unknown }).title : undefined;
    return typeof title === 'string' && title.trim() !== '' ? title : undefined;
  } catch {
    return undefined;
  }
}

/** What the panel's render carries of the spec's story; undefined when there is nothing to show. */
export async function panelStory(specUri: vscode.Uri, story: SpecStory | undefined): Promise<PanelStory | undefined> {
  if (!story) return undefined;
  let next: PanelStory['next'];
  const nextUri = story.next !== undefined ? siblingSpec(specUri, story.next) : undefined;
  if (story.next !== undefined && nextUri) {
    try {
      await vscode.workspace.fs.stat(nextUri);
      next = { file: story.next, title: (await specTitle(nextUri).catch(() => undefined)) ?? story.next };
    } catch {
      log().warn(`the spec's "next", ${story.next}, is not beside it (${nextUri.toString()}); no Next link is shown`);
    }
  }
  const out: PanelStory = {
    ...(story.description !== undefined ? { description: story.description } : {}),
    ...(story.open ? { open: { ...story.open } } : {}),
    ...(next ? { next } : {}),
  };
  return Object.keys(out).length > 0 ? out : undefined;
}
