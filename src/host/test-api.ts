// What activate() returns: a small window into the panels and model editors for the integration tests.
// Only extension.ts builds it (from the panels' and editors' own reports); product code never imports it.
import type { PanelInfo, Timings } from './panel/info.js';
import type { ModelEditorInfo } from './model-editor/info.js';
import type { ModelViewName } from '../core/vocabulary.js';
import type { SaveDialogAnswer } from './dialogs.js';
import type { NotebookOutputInfo } from './notebook/open-output.js';

export interface AttentionLensApi {
  panels(): PanelInfo[];
  timings(): Timings;
  /** The open model editors (.safetensors, .npy, .npz). */
  modelEditors(): ModelEditorInfo[];
  /** Asks the model editors open on a file (URI string) to show a view of a head. */
  showModel(uri: string, view: ModelViewName, layer: number, head: number): void;
  /** The longest stall of the extension host's thread since the last resetStall(), in ms. */
  maxStallMs(): number;
  resetStall(): void;
  /**
   * How save dialogs (Export, "Save this head as a spec") are answered: 'default' installs dialogs that
   * take the file they propose at once (the integration tests cannot press Save), 'ask' the user's again.
   */
  answerSaveDialogs(how: SaveDialogAnswer): void;
  /** What the notebook renderer reported drawing (view, heads or cells), oldest first. */
  notebookOutputs(): NotebookOutputInfo[];
  /** The notebook outputs "Open in Attention Lens" showed in the model views (URI strings: their names in global storage). */
  notebookOpened(): string[];
}
