// A model run's controls beyond its pattern, in the model page's toolbar: the switch between the
// heads' weights and their value-weighted norms (button, key n), and head ablation (ablate or
// restore the shown or focused head: a button, the key a, a right click on a thumbnail; restore
// all; zero or mean), with Ctrl+Z undoing the last ablation toggle. The host keeps the truth (the
// norms in its header, the ablated heads in the run's message); this keeps only what was asked last,
// so a second toggle before the run comes back builds on the first, and the history for undo.
import type { ModelHeader, ModelRunInfo } from '../../src/core/model-attention/data.js';
import type { AblationMode, HeadRef } from '../../src/core/model-analysis/types.js';
import type { ModelWebviewMessage } from '../../src/protocol/model-editor.js';

/** The most ablation toggles Ctrl+Z goes back through. */
export const UNDO_KEPT = 50;

type Ablate = Extract<ModelWebviewMessage, { type: 'ablate' }>;

export const headKey = (h: HeadRef): string => `${h.layer}.${h.head}`;

/** "2.3" for layer 1 head 2 (0-based): as the command line and the screen count, from 1. */
export const headLabel = (h: HeadRef): string => `${h.layer + 1}.${h.head + 1}`;

/** Whether a run's heads can be ablated: only a model that predicts a next token (an encoder's ablation has nothing to score). */
export const canAblate = (run: ModelRunInfo | undefined): run is ModelRunInfo => !!run && run.next.length > 0;

export class AnalysisBar {
  /** The heads and mode asked for last (undefined: the run's own). */
  private asked: { heads: HeadRef[]; mode: AblationMode } | undefined;
  private readonly undo: { heads: HeadRef[]; mode: AblationMode }[] = [];

  constructor(private readonly doc: Document, private readonly post: (m: ModelWebviewMessage) => void) {}

  /** The run came: what it ablated is the truth from now on. */
  ran(run: ModelRunInfo): void {
    const a = run.ablation;
    if (this.asked && sameHeads(this.asked.heads, a?.heads ?? [])) this.asked = undefined;
  }

  /** The heads switched off (those asked for last, until their run comes) and how. */
  ablation(run: ModelRunInfo | undefined): { heads: HeadRef[]; mode: AblationMode } {
    return this.asked ?? { heads: run?.ablation?.heads ?? [], mode: run?.ablation?.mode ?? 'zero' };
  }

  /** Whether the head is switched off. */
  isAblated(run: ModelRunInfo | undefined, h: HeadRef): boolean {
    return this.ablation(run).heads.some((x) => x.layer === h.layer && x.head === h.head);
  }

  /** Switches `h` off, or on again when it is off. */
  toggle(run: ModelRunInfo | undefined, h: HeadRef): void {
    if (!canAblate(run)) return;
    const now = this.ablation(run);
    const heads = this.isAblated(run, h) ? now.heads.filter((x) => headKey(x) !== headKey(h)) : [...now.heads, { layer: h.layer, head: h.head }];
    this.ask(now, { heads, mode: now.mode });
  }

  /** Every head on again. */
  restoreAll(run: ModelRunInfo | undefined): void {
    const now = this.ablation(run);
    if (now.heads.length) this.ask(now, { heads: [], mode: now.mode });
  }

  /** Zero or mean: the ablated heads run again the new way (none ablated: kept for the next). */
  setMode(run: ModelRunInfo | undefined, mode: AblationMode): void {
    const now = this.ablation(run);
    if (mode !== now.mode) this.ask(now, { heads: now.heads, mode });
  }

  /** Ctrl+Z: the heads as they were before the last toggle; false when there is nothing to undo. */
  undoLast(): boolean {
    const before = this.undo.pop();
    if (!before) return false;
    this.asked = before;
    this.send(before);
    return true;
  }

  /** The toolbar's controls for a model run: the norms switch, the ablation of the shown head, restore all, the mode. */
  controls(run: ModelRunInfo | undefined, header: ModelHeader, shown: HeadRef, redraw: () => void): HTMLElement[] {
    if (!run) return [];
    const doc = this.doc;
    const norms = doc.createElement('button');
    norms.dataset.control = 'norms';
    norms.setAttribute('aria-pressed', String(!!header.norms));
    norms.title = 'show each head\'s weights α, or its value-weighted norms ‖α v W_O‖: how much each key really writes (key n)';
    const weightsPart = doc.createElement('span'), normsPart = doc.createElement('span');
    weightsPart.textContent = 'weights';
    normsPart.textContent = 'norms';
    (header.norms ? normsPart : weightsPart).className = 'on';
    norms.append(weightsPart, doc.createTextNode(' | '), normsPart);
    norms.addEventListener('click', () => this.switchNorms(header));
    if (!canAblate(run)) return [norms];
    const ablated = this.isAblated(run, shown);
    const ablate = doc.createElement('button');
    ablate.dataset.control = 'ablate';
    ablate.textContent = `${ablated ? 'Restore' : 'Ablate'} head ${headLabel(shown)}`;
    ablate.title = `${ablated ? 'switch this head on again' : 'run again with this head\'s output replaced'} (key a on a head; Ctrl+Z undoes)`;
    ablate.addEventListener('click', () => { this.toggle(run, shown); redraw(); });
    const { heads, mode } = this.ablation(run);
    const restore = doc.createElement('button');
    restore.dataset.control = 'restore-all';
    restore.textContent = heads.length ? `Restore all (${heads.length})` : 'Restore all';
    restore.disabled = heads.length === 0;
    restore.addEventListener('click', () => { this.restoreAll(run); redraw(); });
    const wrap = doc.createElement('label');
    wrap.textContent = 'ablation ';
    const select = doc.createElement('select');
    select.dataset.control = 'ablation-mode';
    select.title = 'zero: the head\'s output is 0; mean: its mean over this text\'s positions';
    for (const m of ['zero', 'mean'] as const) {
      const o = doc.createElement('option');
      o.value = m; o.textContent = m; o.selected = m === mode;
      select.append(o);
    }
    select.addEventListener('change', () => { this.setMode(run, select.value === 'mean' ? 'mean' : 'zero'); redraw(); });
    wrap.append(select);
    return [norms, ablate, restore, wrap];
  }

  /** The norms switch: the host scans the other kind and sends a new header. */
  switchNorms(header: ModelHeader): void {
    this.post({ type: 'norms', on: !header.norms });
  }

  private ask(before: { heads: HeadRef[]; mode: AblationMode }, next: { heads: HeadRef[]; mode: AblationMode }): void {
    this.undo.push({ heads: [...before.heads], mode: before.mode });
    if (this.undo.length > UNDO_KEPT) this.undo.shift();
    this.asked = next;
    this.send(next);
  }

  private send(a: { heads: HeadRef[]; mode: AblationMode }): void {
    const m: Ablate = { type: 'ablate', heads: a.heads.map(({ layer, head }) => ({ layer, head })), mode: a.mode };
    this.post(m);
  }
}

function sameHeads(a: readonly HeadRef[], b: readonly HeadRef[]): boolean {
  const keys = new Set(a.map(headKey));
  return a.length === b.length && b.every((h) => keys.has(headKey(h)));
}
