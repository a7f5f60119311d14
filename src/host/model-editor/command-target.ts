// Which file "Open Model Attention" opens: the one it was given (the explorer's menu), else the
// active tab's when it is a model file. The active tab, not the active text editor: a .safetensors
// double-clicked shows VS Code's binary page, which is no text editor, so the command run from it
// (its title bar, or the palette) asked the user to choose a file they were already looking at.
// Pure (no VS Code): editor.ts passes the tab's input and the Uri test.

/** The model files the editor reads (package.json's customEditors selector says the same). */
export const MODEL_FILE = /\.(safetensors|npy|npz)$/i;

/**
 * The file to open: `given` when it is a URI, else the URI of the active tab's input (a text, binary
 * or custom editor's `uri`) or of the active text editor, when it names a model file.
 */
export function modelTarget<U extends { path: string }>(given: unknown, isUri: (x: unknown) => x is U, tabInput: unknown, textUri: U | undefined): U | undefined {
  if (isUri(given)) return given;
  const fromTab = typeof tabInput === 'object' && tabInput !== null ? (tabInput as { uri?: unknown }).uri : undefined;
  for (const candidate of [fromTab, textUri]) {
    if (isUri(candidate) && MODEL_FILE.test(candidate.path)) return candidate;
  }
  return undefined;
}
