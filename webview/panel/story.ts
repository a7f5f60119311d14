// The story strip at the top of the panel: the spec's description (its text, wrapped, never markup)
// and "Next: <title>", which asks the host to open the spec the story names next. And the spec's
// "open": where the panel opens on a spec the user has not yet looked at here (a view, and the
// input, head, token and modes it shows), applied over the state the panel has.
import type { PanelStory } from '../../src/protocol/panel.js';
import type { UiState } from './state.js';

/** The state with the spec's "open" applied: each field it names, and the first input when it names a token but no input. */
export function applyOpen(state: UiState, open: PanelStory['open']): UiState {
  if (!open) return state;
  const out: UiState = { ...state, hiddenHeads: [...state.hiddenHeads] };
  if (open.view !== undefined) out.view = open.view;
  if (open.input !== undefined) out.input = open.input;
  else if (open.token !== undefined) out.input = 0;
  if (open.head !== undefined) out.head = open.head;
  if (open.token !== undefined) out.token = open.token;
  if (open.matrix !== undefined) out.matrixMode = open.matrix;
  if (open.projection !== undefined) out.projection = open.projection;
  return out;
}

/** Fills `box` with the description and the Next button (hidden when the story has neither). */
export function showStory(box: HTMLElement, story: PanelStory | undefined, onNext: (file: string) => void): void {
  const doc = box.ownerDocument;
  const parts: HTMLElement[] = [];
  if (story?.description) {
    const p = doc.createElement('p');
    p.className = 'al-description';
    p.textContent = story.description;
    parts.push(p);
  }
  const next = story?.next;
  if (next) {
    const b = doc.createElement('button');
    b.type = 'button';
    b.className = 'al-next';
    b.dataset.file = next.file;
    b.title = `Open ${next.file}`;
    b.textContent = `Next: ${next.title}`;
    b.addEventListener('click', () => onNext(next.file));
    parts.push(b);
  }
  box.replaceChildren(...parts);
  box.hidden = parts.length === 0;
}
