// The shell's own keys: Escape hides the tooltip and leaves the focus where it is. (Inside a view,
// the arrows move through its tokens and cells: webview/kit/keyboard.ts, wired by each view.)
import type { TooltipApi } from '../kit/tooltip-api.js';

/** Escape anywhere in the document hides `tooltip`; returns how to stop. */
export function escapeHidesTooltip(doc: Document, tooltip: TooltipApi): () => void {
  const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') tooltip.hide(); };
  doc.addEventListener('keydown', onKey);
  return () => doc.removeEventListener('keydown', onKey);
}
