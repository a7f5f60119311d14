// The notebook output's style sheet, put once into the notebook's webview (a renderer's page is
// VS Code's, shared by every output: each rule is scoped under .al-notebook, and the page's body is
// left alone). The model editor's media/model.css, for what the model app draws, in the theme's
// CSS variables VS Code sets on the notebook webview.

const CSS = `
.al-notebook { display: flex; flex-direction: column; gap: 6px; padding: 4px 0 8px;
  color: var(--vscode-editor-foreground, #1f1f1f); font-family: var(--vscode-font-family, system-ui, sans-serif); font-size: var(--vscode-font-size, 13px); }
.al-notebook-bar { display: flex; gap: 10px; align-items: center; }
.al-notebook-root { display: flex; flex-direction: column; gap: 6px; }
.al-notebook .toolbar { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; }
.al-notebook .toolbar input[type=number] { width: 5em; }
.al-notebook select, .al-notebook input, .al-notebook button {
  font: inherit; padding: 2px 4px;
  color: var(--vscode-dropdown-foreground, var(--vscode-editor-foreground, #1f1f1f));
  background: var(--vscode-dropdown-background, var(--vscode-editor-background, #ffffff));
  border: 1px solid var(--vscode-dropdown-border, #c8c8c8); }
.al-notebook input { color: var(--vscode-input-foreground, inherit); background: var(--vscode-input-background, inherit); border-color: var(--vscode-input-border, var(--vscode-dropdown-border, #c8c8c8)); }
.al-notebook button { color: var(--vscode-button-secondaryForeground, inherit); background: var(--vscode-button-secondaryBackground, inherit);
  border-color: var(--vscode-button-border, transparent); cursor: pointer; }
.al-notebook button.al-notebook-open { color: var(--vscode-button-foreground, #ffffff); background: var(--vscode-button-background, #0078d4); }
.al-notebook button:hover { background: var(--vscode-button-secondaryHoverBackground, var(--vscode-button-secondaryBackground, inherit)); }
.al-notebook button.al-notebook-open:hover { background: var(--vscode-button-hoverBackground, var(--vscode-button-background, #0078d4)); }
.al-notebook :focus-visible { outline: 2px solid var(--vscode-focusBorder, #0090f1); outline-offset: 1px; }
.al-notebook .model-warning { padding: 4px 8px; border-left: 3px solid var(--vscode-editorWarning-foreground, #bf8803); }
.al-notebook .model-warning button { margin-left: 8px; }
.al-notebook .model-error, .al-notebook-error { padding: 4px 8px; margin: 0; border-left: 3px solid var(--vscode-editorError-foreground, #e51400); }
.al-notebook .model-stage { overflow: auto; }
.al-notebook-tip { position: fixed; z-index: 10; pointer-events: none; max-width: 480px; padding: 4px 8px;
  background: var(--vscode-editorHoverWidget-background, #f3f3f3); color: var(--vscode-editorHoverWidget-foreground, #1f1f1f);
  border: 1px solid var(--vscode-editorHoverWidget-border, #c8c8c8); white-space: pre-wrap; font-size: 12px; }
.al-notebook-tip[hidden] { display: none; }
.al-notebook .tip-head, .al-notebook-tip .tip-head { font-weight: bold; }
`;

const STYLE_ID = 'attention-lens-notebook-style';

/** Puts the style sheet into `doc` once. */
export function addStyle(doc: Document): void {
  if (doc.getElementById(STYLE_ID)) return;
  const style = doc.createElement('style');
  style.id = STYLE_ID;
  style.textContent = CSS;
  doc.head.append(style);
}
