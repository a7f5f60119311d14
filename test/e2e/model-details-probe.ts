// What the model widths test (model-widths.e2e.test.ts) reads inside Chromium beside the text
// probe (widths-probe.ts): a model page loaded in a frame of one width, waited for frame by frame
// until drawn and drawn again at VS Code's font size, then the finder's rows of numbers (how far
// apart each two are) and the rollout's labels. Bundled by esbuild into the test page; it imports nothing.

/** What a finder or a rollout shows, read in a frame of one width by Chromium's layout. */
export interface Detail { state: string; numbers: number; exponents: number; touching: string[]; legend: string[]; rows: string[]; columns: string[]; bars: string[] }
/**
 * Runs in the test page: loads `url` in a frame `width` px wide, waits (frame by frame) until its
 * model page is drawn, and reads the finder's rows of numbers and the rollout's labels.
 */
export async function inFrame({ url, width, gap, fontSize }: { url: string; width: number; gap: number; fontSize: number }): Promise<Detail> {
  const frame = document.createElement('iframe');
  frame.width = String(width); frame.height = '900'; frame.style.border = '0';
  await new Promise<void>((resolve) => { frame.onload = () => resolve(); frame.src = url; document.body.append(frame); });
  const doc = frame.contentDocument!;
  const started = performance.now();
  // Drawn: ready, with the finder's rows or the rollout's labels (a rollout says "computing…" first).
  const drawn = () => doc.getElementById('model-root')?.dataset.state === 'ready' && doc.querySelector('g.head-row, text.row-label') !== null;
  const until = async (done: () => boolean) => {
    while (!done() && performance.now() - started < 20_000) await new Promise((resolve) => requestAnimationFrame(resolve));
  };
  await until(drawn);
  // VS Code's font size, as its webviews get it (a CSS variable): the page draws again at it.
  doc.body.style.setProperty('--vscode-font-size', `${fontSize}px`);
  await until(() => drawn() && doc.querySelector('#model-root svg')?.getAttribute('font-size') === String(fontSize));
  const texts = (sel: string) => Array.from(doc.querySelectorAll(sel), (t) => t.textContent ?? '');
  const touching: string[] = [];
  let numbers = 0, exponents = 0;
  for (const row of Array.from(doc.querySelectorAll('g.head-row'))) {
    const values = Array.from(row.querySelectorAll('text.value'));
    numbers += values.length;
    for (let k = 1; k < values.length; k++) {
      const a = values[k - 1].getBoundingClientRect(), b = values[k].getBoundingClientRect();
      if (/e/.test(values[k - 1].textContent ?? '') && /e/.test(values[k].textContent ?? '')) exponents++;
      if (b.left - a.right < gap) touching.push(`"${values[k - 1].textContent}" and "${values[k].textContent}": ${(b.left - a.right).toFixed(1)} px apart`);
    }
  }
  const detail = {
    state: doc.getElementById('model-root')?.dataset.state ?? 'none', numbers, exponents, touching,
    legend: texts('text.legend-line'), rows: texts('text.row-label'), columns: texts('text.col-label'), bars: texts('text.bar-label'),
  };
  frame.remove();
  return detail;
}
