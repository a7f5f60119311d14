// What a view may ask of a tooltip: the panel's one element (tooltip.ts) or, on jsdom, each element's
// <title>. Its own file, so the view contract (view.ts) and the tooltip can both name it without a cycle.

/** A rectangle in the window's coordinates (a focused cell of a canvas has no element of its own). */
export interface Box { left: number; top: number; right: number; bottom: number }

export interface TooltipApi {
  show(lines: readonly string[], at: { x: number; y: number } | Element | Box): void;
  hide(): void;
}
