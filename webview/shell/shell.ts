// The base every webview surface stands on (the spec panel, the model editor and its --html page,
// and next a notebook renderer): inside a given container, never the whole page, it owns the
// tooltip, reads the theme and hears its changes, hears the views' width change, keeps the
// keyboard's place (Escape, Ctrl+2, the focus across a redraw), and listens to a transport that its
// entry point injects. What a surface draws, and which messages it takes, stay in its own shell.
import type { Theme } from '../kit/colour.js';
import { Tooltip } from '../kit/tooltip.js';
import { markCuts, wireCuts } from './cuts.js';
import { debounce, type Debounced } from './debounce.js';
import { focusFirstControl, focusFirstStop, focusOnArrival, rememberFocus } from './focus.js';
import { escapeHidesTooltip } from './keyboard.js';
import { watchWidth } from './resize.js';
import { themeFromDocument, watchTheme } from './theme.js';
import type { Transport } from './transport.js';

export interface ShellParts {
  /** The container the surface lives in (its toolbar and views). */
  readonly root: HTMLElement;
  /** The element of the views' one tooltip. */
  readonly tooltip: HTMLElement;
  /** The element the views are drawn in: where Ctrl+2 puts the focus, and whose focused element a redraw keeps. */
  readonly view: HTMLElement;
  /** The element whose width the views take, watched for resizes; the view's element when not given. */
  readonly sized?: HTMLElement;
  /** Draws again after a theme change or a resize (nothing the host need hear about). */
  readonly redraw: () => void;
  /** Focus the view's first control when the window gets the focus with nothing focused (VS Code's Ctrl+2); default true. */
  readonly focusOnArrival?: boolean;
}

export class Shell {
  readonly doc: Document;
  readonly tooltip: Tooltip;
  readonly root: HTMLElement;
  private readonly view: HTMLElement;
  private readonly sized: HTMLElement;
  private readonly redraws: Debounced;
  private readonly parts: ShellParts;
  /** The sized element's width at the last drawing (0 before any). */
  private drawnAt = 0;
  private readonly cleanups: (() => void)[] = [];

  constructor(parts: ShellParts) {
    this.parts = parts;
    this.root = parts.root;
    this.doc = parts.root.ownerDocument;
    this.view = parts.view;
    this.sized = parts.sized ?? parts.view;
    this.tooltip = new Tooltip(parts.tooltip);
    this.redraws = debounce(() => parts.redraw());
  }

  /** Listens to the transport (when it can be listened to), the theme, the views' width and the keyboard. */
  start<Out>(transport: Transport<Out>, receive: (message: unknown) => void): void {
    if (transport.listen) this.cleanups.push(transport.listen(receive));
    this.cleanups.push(escapeHidesTooltip(this.doc, this.tooltip));
    // A text the view cut with "…" is whole by keyboard too (webview/shell/cuts.ts).
    this.cleanups.push(wireCuts(this.view, this.tooltip, this.tooltipId()));
    // Arriving (Ctrl+2) on a view with no tab stop of its own, the page's first control takes the keyboard.
    if (this.parts.focusOnArrival !== false) this.cleanups.push(focusOnArrival(this.root, () => this.focusView() || focusFirstControl(this.root)));
    this.cleanups.push(watchWidth(this.sized, () => this.drawnAt, () => this.redraws.schedule()));
    this.cleanups.push(watchTheme(this.doc, () => this.redraws.schedule()));
    this.cleanups.push(() => this.redraws.cancel());
  }

  /** The theme to draw in now. */
  theme(): Theme {
    return themeFromDocument(this.doc);
  }

  /** The width to draw at (at least `min`; `fallback` where nothing is laid out), remembered for the resize check. */
  width(min: number, fallback: number): number {
    const w = this.sized.clientWidth;
    this.drawnAt = w;
    return Math.max(min, w || this.root.clientWidth || fallback);
  }

  /**
   * The view was just drawn, at the width and in the theme of now: a redraw scheduled before it (a
   * resize or a theme change that came while the data was on its way) is owed nothing. The model page
   * drew its grid twice without it: the first width check, as the page is laid out, scheduled a redraw
   * that fell 60 ms after the grid's first drawing. Its texts cut with "…" become controls now, before
   * the focus is put back on one of them.
   */
  drew(): void {
    this.redraws.cancel();
    markCuts(this.view, this.tooltipId());
  }

  /** The tooltip element's id, which a cut text names as what it expands (none in a notebook cell). */
  private tooltipId(): string | undefined {
    return this.parts.tooltip.id || undefined;
  }

  /** Focus the view's first control (its tab stop, or a painted matrix); false when it has none. */
  focusView(): boolean {
    return focusFirstStop(this.view);
  }

  /** Remembers the focused element before a redraw; call what it returns after it (see rememberFocus). */
  keepFocus(skip?: string): (() => void) | undefined {
    return rememberFocus(this.root, this.view, skip);
  }

  dispose(): void {
    this.cleanups.splice(0).forEach((f) => f());
  }
}
