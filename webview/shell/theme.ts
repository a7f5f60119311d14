// The theme a shell draws in, and its changes. VS Code says its colour theme with the body's classes
// (vscode-light, vscode-dark, vscode-high-contrast, vscode-high-contrast-light) and CSS variables on
// the document; when the user switches theme it changes both, and a MutationObserver hears it. The
// views want concrete colours (never CSS variables), so the theme is read again before each drawing.
import { makeTheme, toHex, type Theme } from '../kit/colour.js';
import type { ThemeKind } from '../../src/core/vocabulary.js';

/**
 * The theme of the document a shell lives in, from VS Code's body classes and CSS variables
 * (resolved to concrete values). Outside VS Code (the --html page) the light theme.
 */
export function themeFromDocument(doc: Document): Theme {
  const body = doc.body;
  const cls = body.classList;
  const kind: ThemeKind = cls.contains('vscode-high-contrast-light') ? 'hc-light'
    : cls.contains('vscode-high-contrast') ? 'hc-dark'
    : cls.contains('vscode-dark') ? 'dark' : 'light';
  const view = doc.defaultView;
  const css = view ? view.getComputedStyle(body) : undefined;
  const v = (name: string) => css?.getPropertyValue(name).trim() || undefined;
  const size = Number.parseFloat(v('--vscode-font-size') ?? '');
  return makeTheme(kind, {
    fg: toHex(v('--vscode-editor-foreground')),
    bg: toHex(v('--vscode-editor-background')),
    focus: toHex(v('--vscode-focusBorder')),
    font: v('--vscode-font-family'),
    mono: v('--vscode-editor-font-family'),
    fontSize: Number.isFinite(size) ? Math.max(11, Math.min(16, size)) : undefined,
  });
}

/** Calls `changed` when the theme may have changed (the body's or the root element's class or style); returns how to stop. */
export function watchTheme(doc: Document, changed: () => void): () => void {
  const win = doc.defaultView;
  if (!win?.MutationObserver) return () => {};
  const mo = new win.MutationObserver(() => changed());
  mo.observe(doc.body, { attributes: true, attributeFilter: ['class', 'style'] });
  mo.observe(doc.documentElement, { attributes: true, attributeFilter: ['class', 'style'] });
  return () => mo.disconnect();
}
