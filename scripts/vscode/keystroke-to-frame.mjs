// `npm run bench:vscode`'s typing part, on the browser's side: a key pressed in the spec's editor ->
// the frame in which the panel's webview shows the result. That is edit -> paint as a user sees it,
// with none of what the in-host bench adds to it: the WorkspaceEdit's trip out to the workbench and
// back, and the webview's 'painted' message on its way back to the host.
//
// The extension host side (test/integration/bench/index.ts) puts the cursor before a number's first
// digit and writes `request-N.json` ({ spec, keys, gapMs }) into the typing folder; here Playwright
// presses 1 and Backspace in turn, `keys` times, `gapMs` apart (each a lone edit after a quiet spell),
// and writes `result-N.json`. Both clocks are the browser's: the key's event time in the workbench's
// frame and, in the webview's frame, the end of the frame after #attention-view's content was last
// replaced (a requestAnimationFrame, then a message posted from it: that runs once the frame's style,
// layout and paint are done). Each is turned into wall time with its frame's performance.timeOrigin;
// the skew between the two frames' clocks is measured and printed beside the figures.
/* global requestAnimationFrame, MutationObserver, MessageChannel */
import * as fs from 'node:fs';
import * as path from 'node:path';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The webview frame whose #attention-root shows `fileName`, or undefined. */
async function panelFrame(page, fileName) {
  for (const f of page.frames()) {
    const name = await f.evaluate(() => document.getElementById('attention-root')?.dataset.fileName).catch(() => undefined);
    if (name === fileName) return f;
  }
  return undefined;
}

/** In the webview: every replacement of the view's content, with the end of the frame that showed it (wall ms). */
function watchFrames() {
  if (window.__alFrames) return;
  const frames = [];
  window.__alFrames = frames;
  const view = document.getElementById('attention-view');
  let pending;
  new MutationObserver(() => {
    if (pending) return;
    pending = { changedAt: performance.timeOrigin + performance.now() };
    const entry = pending;
    requestAnimationFrame(() => {
      pending = undefined;
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { entry.shownAt = performance.timeOrigin + performance.now(); frames.push(entry); };
      channel.port2.postMessage(0);
    });
  }).observe(view, { childList: true });
}

/** In the workbench: the event time of every key pressed (wall ms). */
function watchKeys() {
  if (window.__alKeys) return;
  const keys = [];
  window.__alKeys = keys;
  window.addEventListener('keydown', (e) => keys.push(performance.timeOrigin + e.timeStamp), true);
}

const wallNow = () => performance.timeOrigin + performance.now();

/** The webview clock minus the workbench's (ms), bounded by half the round trip between the two readings. */
async function clockSkew(page, frame) {
  const estimates = [];
  for (let i = 0; i < 5; i++) {
    const a = await page.evaluate(wallNow);
    const b = await frame.evaluate(wallNow);
    const c = await page.evaluate(wallNow);
    estimates.push({ skew: b - (a + c) / 2, within: (c - a) / 2 });
  }
  return estimates.sort((x, y) => x.within - y.within)[0];
}

/** `pressed(i)`: called after the i-th key, so the host sees the typing move (progress-N.json) and waits on. */
async function typeOn(page, request, pressed = () => {}) {
  const frame = await panelFrame(page, request.spec);
  if (!frame) return { error: `no webview frame shows ${request.spec}` };
  await frame.evaluate(watchFrames);
  await page.evaluate(watchKeys);
  const skew = await clockSkew(page, frame);
  const keysBefore = (await page.evaluate(() => window.__alKeys.length));
  const framesBefore = (await frame.evaluate(() => window.__alFrames.length));
  for (let i = 0; i < request.keys; i++) {
    await page.keyboard.press(i % 2 === 0 ? '1' : 'Backspace');
    pressed(i + 1);
    await sleep(request.gapMs);
  }
  const keys = (await page.evaluate(() => window.__alKeys)).slice(keysBefore);
  const frames = (await frame.evaluate(() => window.__alFrames)).slice(framesBefore);
  // Each key's last shown frame before the next key: the picture settled (a view that asks the host for
  // more, as the linear-algebra views do, draws once without it and again with it). How many times
  // a key's edit drew is reported, and a key that drew nothing is NaN.
  const keyToFrameMs = [];
  let redraws = 0;
  keys.forEach((k, i) => {
    const until = keys[i + 1] ?? Infinity;
    const own = frames.filter((f) => f.changedAt - skew.skew > k && f.changedAt - skew.skew < until);
    redraws = Math.max(redraws, own.length);
    keyToFrameMs.push(own.length ? own[own.length - 1].shownAt - skew.skew - k : NaN);
  });
  return { spec: request.spec, keys: keys.length, keyToFrameMs, maxRedrawsPerKey: redraws, skewMs: skew.skew, skewWithinMs: skew.within };
}

/**
 * Answers the in-host bench's typing requests in `dir` until `stop()` says the bench is over.
 * Every failure is written as the request's result ({ error }), never thrown: the bench goes on.
 */
export async function answerTyping(page, dir, stop) {
  let next = 0;
  while (!stop()) {
    const request = path.join(dir, `request-${next}.json`);
    if (!fs.existsSync(request)) {
      await sleep(100);
      continue;
    }
    let result;
    try {
      const progress = path.join(dir, `progress-${next}.json`);
      fs.writeFileSync(progress, JSON.stringify({ keys: 0 })); // picked up: the host's wait starts its quiet time again
      result = await typeOn(page, JSON.parse(fs.readFileSync(request, 'utf8')), (keys) => fs.writeFileSync(progress, JSON.stringify({ keys })));
    } catch (e) {
      result = { error: e instanceof Error ? e.message : String(e) };
    }
    fs.writeFileSync(path.join(dir, `result-${next}.json.tmp`), JSON.stringify(result));
    fs.renameSync(path.join(dir, `result-${next}.json.tmp`), path.join(dir, `result-${next}.json`));
    next++;
  }
}
