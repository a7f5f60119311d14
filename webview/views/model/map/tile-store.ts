// The tiles of the shown big head, kept by the editor across the head view's redraws (a resize, a
// theme switch): a small least-recently-used cache, the asks sent and not yet answered (a few at a
// time, so the host works on what is in view now), the asks waiting (replaced by each new view, so
// only the asks already sent of a view zoomed past are still answered), and the map's colour
// switches and zoom. A view never needs more tiles than are kept (map-view.ts caps the map's
// side). An answer that was not asked for this head (a head shown before, a view made anew) is dropped.
import type { HeadTile, MapColour, MapScale, TileAnswer, TileAsk } from './tile-types.js';
import { tileKey, type KeptZoom, type TileSpec } from './plan.js';
import { tileMassMax } from './shades.js';

/**
 * Tiles kept: a view of the widest map (1,024 px) needs up to 49, and fewer kept made every pan ask
 * again the tiles that pushed out the rest. 64 × 256² blocks × (max + sum) float32 is 32 MiB.
 */
export const TILES_KEPT = 64;
/** Asks sent and not yet answered. */
export const TILES_IN_FLIGHT = 4;

export type { MapColour, MapScale };

export interface MapSettings { colour: MapColour; scale: MapScale }

export class TileStore {
  private shown: { layer: number; head: number; n: number } | undefined;
  private readonly cache = new Map<string, HeadTile>();
  private readonly inFlight = new Set<string>();
  private queue: TileSpec[] = [];
  /** The view's redraw when a tile arrives (one view at a time). */
  listener: ((tile: HeadTile) => void) | undefined;
  settings: MapSettings = { colour: 'max', scale: 'linear' };
  /** The zoom of each head shown (layer:head), so going back to a head finds it as it was left. */
  readonly zooms = new Map<string, KeptZoom>();
  /** The editor keeps the zoom (VS Code's webview state) when it settles. */
  onZoom: (() => void) | undefined;
  /** The editor draws the view anew when a colour switch changes (its note and legend say it). */
  onSettings: (() => void) | undefined;
  /**
   * The largest block mass per query seen at each level of the shown head (kept when its tiles are
   * pushed out): the mass scale's real top, where the map's bound is often several times too high.
   */
  readonly massSeen = new Map<number, number>();
  /** Answers dropped (for tests and the bench). */
  dropped = 0;

  constructor(private readonly post: (ask: TileAsk) => void, private readonly capacity = TILES_KEPT, private readonly parallel = TILES_IN_FLIGHT) {}

  /** The head the tiles are of (`n` tokens): another one forgets the tiles, the asks and the masses seen. */
  showing(layer: number, head: number, n = Infinity): void {
    if (this.shown?.layer === layer && this.shown.head === head && this.shown.n === n) return;
    this.shown = { layer, head, n };
    this.massSeen.clear();
    this.cache.clear();
    this.inFlight.clear();
    this.queue = [];
  }

  /**
   * The tiles forgotten (a file read again, a new run): answers to earlier asks are dropped. The zooms
   * stay (they are in tokens, and clamped to the head they are shown on).
   */
  reset(): void {
    this.shown = undefined;
    this.massSeen.clear();
    this.cache.clear();
    this.inFlight.clear();
    this.queue = [];
  }

  /** A kept tile (now the most recently used), or undefined. */
  get(spec: TileSpec): HeadTile | undefined {
    const key = tileKey(spec);
    const tile = this.cache.get(key);
    if (tile) { this.cache.delete(key); this.cache.set(key, tile); }
    return tile;
  }

  /** The kept tiles, without touching their order. */
  kept(): HeadTile[] {
    return [...this.cache.values()];
  }

  /** The tiles the view needs, most needed first: those not kept nor asked are asked, a few at a time. */
  want(specs: readonly TileSpec[]): void {
    // The tiles in view become the most recently used, so that answers arriving for the rest of the
    // view push out tiles no longer shown, never one on screen (which nothing would ask for again).
    for (const s of specs) this.get(s);
    this.queue = specs.filter((s) => !this.cache.has(tileKey(s)) && !this.inFlight.has(tileKey(s)));
    this.pump();
  }

  /** An answer from the host: kept and drawn if this head asked for it, else dropped (false). */
  receive(answer: TileAnswer): boolean {
    const key = tileKey(answer);
    if (!this.shown || answer.layer !== this.shown.layer || answer.head !== this.shown.head || !this.inFlight.has(key)) {
      this.dropped++;
      return false;
    }
    this.inFlight.delete(key);
    const { type: _t, layer: _l, head: _h, ...tile } = answer;
    this.cache.set(key, tile);
    this.massSeen.set(tile.level, Math.max(this.massSeen.get(tile.level) ?? 0, tileMassMax(tile, this.shown.n)));
    while (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value as string);
    this.pump();
    this.listener?.(tile);
    return true;
  }

  private pump(): void {
    const shown = this.shown;
    if (!shown) return;
    while (this.inFlight.size < this.parallel && this.queue.length) {
      const s = this.queue.shift()!;
      this.inFlight.add(tileKey(s));
      this.post({ type: 'tile', layer: shown.layer, head: shown.head, ...s });
    }
  }
}
