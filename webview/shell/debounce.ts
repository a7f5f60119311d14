// Theme changes and resizes come in bursts (a dragged sash sends dozens of sizes, a theme switch
// several attribute changes): the shell redraws once, a moment after the last of them.

/** How long a burst must be quiet before the redraw, in milliseconds. */
export const REDRAW_DELAY_MS = 60;

export interface Debounced {
  /** Asks for a call; a call already asked for is put off. */
  schedule(): void;
  /** Forgets a call asked for. */
  cancel(): void;
}

export function debounce(f: () => void, ms = REDRAW_DELAY_MS): Debounced {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return {
    schedule() {
      cancel();
      timer = setTimeout(() => { timer = undefined; f(); }, ms);
    },
    cancel,
  };
}
