// A big head (above WHOLE_HEAD_MAX tokens) as a map: zoom and pan by wheel, drag and keyboard, and
// at each zoom the level whose blocks are about a pixel, its tiles asked of the host and drawn as
// they come; meanwhile the coarser tiles kept (and under them the head's picture) are shown scaled,
// so a zoom step redraws at once. Blocks are coloured by their strongest weight (a needle stays
// visible) or by their mass, on a linear or a log scale; the sink keys are drawn as their own
// columns at the left on their own scale, and the legend gives both scales.
import { pointer, select, zoom, zoomIdentity, type ZoomTransform } from 'd3';
import type { HeadData, ModelViewData } from '../../../../src/core/model-attention/data.js';
import { createSvg, type ViewHandle } from '../../../kit/view.js';
import { clip, fmt, textWidth } from '../../../kit/format.js';
import { crosshair, headName, indicesHref, NOTE_LINE, noteLines, shown, tokenLabel, wrappedNote, type ModelViewOptions } from '../common.js';
import type { HeadMap, HeadTile } from './tile-types.js';
import { inView, keptZoom, levelFor, meets, tileKey, tilesFor, zoomOf, type Zoom } from './plan.js';
import { TileStore, TILES_KEPT } from './tile-store.js';
import { LOG_DECADES, levelMassTop, padded, sinkShades, tileShades } from './shades.js';
import { snap, tileRect } from './place.js';
import { blockLinksInView } from './block-arcs.js';
import { axisLabels, labelStride } from './axis.js';
import { describeCell, describeSink, tileAt } from './hover.js';
import { arcWindowNote, drawArcLinks, linksInView } from './arcs.js';

/** A sink key's column on screen. */
export const SINK_W = 12;
const SINK_GAP = 8, LEFT = 110, LEGEND_W = 120;
/** At the deepest zoom a token is this many px. */
const DEEPEST_PX = 24;
/** Blocks a tile's image reaches under the next tile's (its last column and row repeated). */
const PAD = 2;
/** Images of tiles drawn at once at most (coarser ones under the level in view): all those kept. */
const DRAWN_MAX = TILES_KEPT;

/**
 * The map's greatest side: wider, a view needed more tiles than the store keeps (64 at a 1,920 px
 * editor), half stayed the coarse picture and every pan asked again tiles that pushed out the
 * others. At 1,024 px a view spans up to 1,024 × √2 blocks of its level a side (levelFor rounds log2
 * of the tokens a pixel): at most 7 tiles a side, 49 (TILES_KEPT holds them). It also keeps the
 * square map inside a window's height.
 */
export const MAP_SIDE_MAX = 1024;

/** The map's side in an editor `width` px wide: the width there is (blocks a pixel each), up to MAP_SIDE_MAX. */
export function mapSide(width: number, sinkArea: number): number {
  return Math.floor(Math.min(MAP_SIDE_MAX, Math.max(Math.min(200, width - 130 - sinkArea), width - 140 - sinkArea)));
}

/** What the map view needs beyond the model views' options: the editor's tile store. */
export interface MapViewOptions extends ModelViewOptions { tiles?: TileStore }

/** A big head as the editor sends it: the picture, and the map of levels and sinks. */
export type MapHead = HeadData & { map?: HeadMap };

export function renderHeadMapView(container: HTMLElement, data: ModelViewData, options: MapViewOptions, loaded: MapHead & { map: HeadMap }, store: TileStore): ViewHandle {
  const { theme } = options;
  const { map, layer, head } = loaded;
  const n = map.n;
  const tokens = data.header.tokenTexts;
  const labelled = tokens.length === n;
  const norms = !!data.header.norms;
  store.showing(layer, head, n);
  const sinkArea = map.sinks.length ? map.sinks.length * SINK_W + SINK_GAP : 0;
  const side = mapSide(options.width, sinkArea);
  const width = LEFT + sinkArea + side + 20;
  const cell = side / n;
  const maxK = Math.max(1, (n * DEEPEST_PX) / side);
  const sinkWords = map.sinks.map((k) => tokenLabel(tokens, k, 90, 11)).join(', ');
  const settings = store.settings;
  const what = norms ? 'norm' : 'weight';
  const topNote = `rows: queries, columns: keys; a pixel is a block of queries × keys coloured by its ${settings.colour === 'max' ? `strongest ${what}` : `mass (the ${what}s' sum per query)`}, on a ${settings.scale} scale; zoom in for every cell`
    + (map.sinks.length ? `; the sink key${map.sinks.length > 1 ? 's' : ''} ${sinkWords} drawn apart at the left on ${map.sinks.length > 1 ? 'their' : 'its'} own scale` : '');
  // Up to five lines: in a 430 px editor four cut the sink's part.
  const topLines = noteLines(topNote, width - 16, 5, theme.fontSize);
  const switchesY = 36 + topLines.length * NOTE_LINE + 4;
  const top = switchesY + 110;
  const keyLabelPx = top - 4 - (switchesY + 14);
  // Under the map: the range in view, the arcs of the queries in view (at level 0) and their line, the legend.
  const arcTop = top + side + 30 + NOTE_LINE, arcBase = arcTop + Math.min(160, side / 3);
  const legendTop = arcBase + 20 + 3 * NOTE_LINE + 6;
  // The two scales side by side when their words fit, else one under the other.
  const keysLabel = `${map.sinks.length ? 'other keys' : 'keys'}: ${settings.colour === 'max' ? `strongest ${what}` : 'mass per query'} (${settings.scale})`;
  const sinksLabel = `sink${map.sinks.length > 1 ? 's' : ''}: ${settings.colour === 'max' ? `strongest ${what}` : `mean ${what}`} (${settings.scale})`;
  const stacked = map.sinks.length > 0 && Math.max(textWidth(keysLabel, 11), textWidth(sinksLabel, 11)) > width / 2 - 24;
  const height = legendTop + (stacked ? 110 : 64);
  const svg = createSvg(container, theme, width, height, `${headName(layer, head)}: ${n} × ${n}, a map`, 'head');
  svg.attr('data-map', 'true');
  svg.append('text').attr('x', 8).attr('y', 18).attr('font-weight', 'bold').text(`${headName(layer, head)}: ${n} × ${n} ${norms ? 'norms' : 'weights'}`);
  wrappedNote(svg, theme, 8, 36, topNote, topLines);
  const notes = [topNote];

  const rowLabels = svg.append('g').attr('class', 'row-labels');
  const colLabels = svg.append('g').attr('class', 'col-labels');
  const range = svg.append('text').attr('class', 'zoom-range').attr('x', LEFT).attr('y', top + side + 16).attr('fill', theme.muted);
  const uid = Math.random().toString(36).slice(2, 8);
  const defs = svg.append('defs');
  defs.append('clipPath').attr('id', `al-map-${uid}`).append('rect').attr('width', side).attr('height', side);
  defs.append('clipPath').attr('id', `al-sinks-${uid}`).append('rect').attr('width', Math.max(0, sinkArea - SINK_GAP)).attr('height', side);
  const sinkFrame = svg.append('g').attr('class', 'sink-columns').attr('transform', `translate(${LEFT},${top})`).attr('clip-path', `url(#al-sinks-${uid})`);
  const sinkG = sinkFrame.append('g');
  const frame = svg.append('g').attr('class', 'head-picture head-map').attr('transform', `translate(${LEFT + sinkArea},${top})`).attr('clip-path', `url(#al-map-${uid})`);
  const frameNode = frame.node();
  frame.attr('data-layer', layer).attr('data-head', head);
  frame.append('rect').attr('class', 'hit').attr('width', side).attr('height', side).attr('fill', theme.bg);
  const matrix = frame.append('g').attr('class', 'matrix');
  if (loaded.picture) {
    // The host's picture (max-pooled, its own colours) under everything until tiles cover it.
    matrix.append('image').attr('class', 'heatmap').attr('width', side).attr('height', side).attr('preserveAspectRatio', 'none')
      .attr('image-rendering', 'pixelated').attr('href', indicesHref(onKeysScale(loaded.picture.indices, loaded.max, map.max, settings), loaded.picture.res, loaded.picture.res, theme, options.deflate));
  }
  // The tiles are placed on screen pixels (place.ts), not scaled with the picture under them.
  const tilesG = frame.append('g').attr('class', 'tiles');
  const overlay = frame.append('g').attr('class', 'overlay');
  const highlight = overlay.append('g').attr('class', 'highlight').attr('pointer-events', 'none');
  const frames = svg.append('g').attr('pointer-events', 'none');
  frames.append('rect').attr('x', LEFT + sinkArea).attr('y', top).attr('width', side).attr('height', side).attr('fill', 'none').attr('stroke', theme.grid);
  if (sinkArea) frames.append('rect').attr('x', LEFT).attr('y', top).attr('width', sinkArea - SINK_GAP).attr('height', side).attr('fill', 'none').attr('stroke', theme.grid);

  // The two switches: what colours a block, and the scale (after the map in the tab order).
  const switches = svg.append('g').attr('class', 'map-switches').attr('transform', `translate(8,${switchesY})`);
  const toggle = (x: number, cls: string, label: string, options_: readonly string[], on: string, flip: () => void) => {
    const g = switches.append('g').attr('class', `map-switch ${cls}`).attr('data-side', cls).attr('transform', `translate(${x},0)`).attr('cursor', 'pointer');
    g.append('text').attr('y', 0).attr('fill', theme.muted).text(`${label}:`);
    let at = textWidth(`${label}: `, theme.fontSize);
    for (const o of options_) {
      g.append('text').attr('class', o === on ? 'on' : 'off').attr('x', at).attr('font-weight', o === on ? 'bold' : 'normal')
        .attr('text-decoration', o === on ? 'underline' : 'none').attr('fill', o === on ? theme.fg : theme.muted).text(o);
      at += textWidth(`${o}  `, theme.fontSize);
    }
    if (options.interactive) {
      g.attr('role', 'button').attr('tabindex', 0).attr('aria-label', `${label}: ${on}; press to switch`)
        .on('click', flip).on('keydown', (e: KeyboardEvent) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); flip(); } });
    }
    return at;
  };
  // New colours: the editor draws the view anew (its note, legend and every tile say them), the zoom kept.
  const recolour = () => {
    store.zooms.set(`${layer}:${head}`, keptZoom(n, side, t));
    store.onSettings?.();
  };
  const w1 = toggle(0, 'map-colour', 'colour', ['max', 'mass'], settings.colour, () => { settings.colour = settings.colour === 'max' ? 'mass' : 'max'; recolour(); });
  toggle(w1 + 16, 'map-scale', 'scale', ['linear', 'log'], settings.scale, () => { settings.scale = settings.scale === 'linear' ? 'log' : 'linear'; recolour(); });

  // Arcs: at level 0 (every cell kept exact), each query's k strongest links among the keys in view,
  // the sink keys' included, for the queries in view (their last ARCS_MAX); above it, the links of
  // groups of whole blocks by their strongest weight (block-arcs.ts), the sinks left out.
  defs.append('clipPath').attr('id', `al-map-arcs-${uid}`).append('rect').attr('x', LEFT + sinkArea).attr('y', arcTop - 10).attr('width', side).attr('height', arcBase - arcTop + 12);
  const arcLayer = svg.append('g').attr('class', 'arc-window').attr('clip-path', `url(#al-map-arcs-${uid})`);
  svg.append('line').attr('x1', LEFT + sinkArea).attr('x2', LEFT + sinkArea + side).attr('y1', arcBase).attr('y2', arcBase).attr('stroke', theme.grid);
  const arcNoteG = svg.append('g').attr('class', 'arc-note');
  const arcNoteAt = notes.length;
  notes.push('');
  const drawArcs = (level: number) => {
    const view = inView(n, side, t);
    arcLayer.selectAll('*').remove();
    arcNoteG.selectAll('*').remove();
    let said: string;
    const k = Math.max(1, Math.floor(options.k));
    if (level > 0) {
      // Above single cells: groups of whole blocks, each query group's strongest links by its blocks' max.
      const arcs = blockLinksInView(store.kept(), level, view.i0, view.i1, view.j0, view.j1, k);
      const g = arcs.group;
      drawArcLinks(arcLayer, arcs.links, (i) => LEFT + sinkArea + t.x + (Math.min(n, i + g / 2)) * view.px, arcTop, arcBase, theme, map.max);
      const reading = arcs.read < arcs.groups ? '; reading the blocks in view…' : '';
      said = `arcs: each ${g} queries' ${k} strongest blocks of ${g} × ${g} in view, by strongest ${what} (sinks left out; ${arcs.links.length} drawn); zoom in for single tokens${reading}`;
    } else {
      const kept = store.kept().filter((tile) => tile.level === 0);
      let last: HeadTile | undefined;
      const weightAt = (i: number, j: number) => {
        const sink = map.sinks.indexOf(j);
        if (!last || !(i >= last.i0 && i < last.i0 + last.rows && j >= last.j0 && j < last.j0 + last.cols)) last = tileAt(kept, 0, i, j)?.tile;
        if (!last) return undefined;
        if (sink >= 0) return last.sinkColumns?.find((c) => c.key === j)?.max[i - last.i0];
        return last.max[(i - last.i0) * last.cols + (j - last.j0)];
      };
      const win = linksInView(weightAt, view.i0, view.i1, view.j0, view.j1, k);
      drawArcLinks(arcLayer, win.links, (i) => LEFT + sinkArea + t.x + (i + 0.5) * view.px, arcTop, arcBase, theme, Math.max(map.max, map.sinkMax));
      const reading = kept.some((tile) => meets(tile, view)) ? '' : '; reading the cells in view…';
      said = `${arcWindowNote(win, k, view.i1 - view.i0 + 1)}${reading}`;
    }
    notes[arcNoteAt] = said;
    wrappedNote(arcNoteG, theme, 8, arcBase + 20, said, noteLines(said, width - 16, 3, theme.fontSize));
  };

  // The legend: the keys' scale, and the sinks' beside it.
  const legend = svg.append('g').attr('class', 'legend').attr('transform', `translate(8,${legendTop})`);
  const bar = (x: number, y: number, label: string, lo: string, hi: string, cls: string) => {
    const g = legend.append('g').attr('class', cls).attr('transform', `translate(${x},${y})`);
    const steps = 24;
    for (let k = 0; k < steps; k++) g.append('rect').attr('x', (k * LEGEND_W) / steps).attr('y', 14).attr('width', LEGEND_W / steps + 0.5).attr('height', 10).attr('fill', theme.seq((k + 0.5) / steps));
    g.append('rect').attr('y', 14).attr('width', LEGEND_W).attr('height', 10).attr('fill', 'none').attr('stroke', theme.grid);
    g.append('text').attr('class', 'legend-label').attr('y', 8).attr('font-size', 11).attr('fill', theme.muted).text(clip(label, stacked ? width - 16 : Math.max(LEGEND_W, width / 2 - 24), 11));
    g.append('text').attr('class', 'legend-lo').attr('y', 38).attr('font-size', 10).attr('fill', theme.muted).text(lo);
    g.append('text').attr('class', 'legend-hi').attr('x', LEGEND_W).attr('y', 38).attr('font-size', 10).attr('text-anchor', 'end').attr('fill', theme.muted).text(hi);
  };
  const lowEnd = (top_: number) => settings.scale === 'log' ? `≤ ${fmt(top_ * 10 ** -LOG_DECADES, 2)}` : '0';
  /** The keys' scale top at a level: the strongest weight, or the largest block mass seen at it (shades.ts). */
  const keyTopAt = (level: number) => settings.colour === 'max' ? map.max : levelMassTop(store.massSeen, map, level, norms);
  let legendSaid = '';
  const drawLegend = (level: number) => {
    const keyTop = keyTopAt(level);
    if (`${level}:${keyTop}` === legendSaid) return;
    legendSaid = `${level}:${keyTop}`;
    legend.selectAll('*').remove();
    bar(0, 0, keysLabel, lowEnd(keyTop), fmt(keyTop, 3), 'legend-keys');
    if (map.sinks.length) bar(stacked ? 0 : width / 2, stacked ? 48 : 0, sinksLabel, lowEnd(map.sinkMax), fmt(map.sinkMax, 3), 'legend-sinks');
  };

  // Sink keys' labels over their columns, at fixed places; the other keys' labels keep clear of them.
  const sinkAt = map.sinks.map((_, q) => LEFT + q * SINK_W + SINK_W / 2);
  // Each label carries its token's place, so the copies of a repeated word are told apart at every zoom.
  const labelText = (i: number, px: number) => labelled ? `${shown(i)} ${tokenLabel(tokens, i, px - 7 * String(shown(i)).length, 11)}` : tokenLabel(tokens, i, px, 11);
  const drawLabels = (t: Zoom) => {
    const view = inView(n, side, t);
    const stride = labelStride(view.px);
    const size = stride > 1 ? 11 : Math.min(12, Math.max(view.px, 11));
    rowLabels.selectAll('*').remove();
    colLabels.selectAll('*').remove();
    for (const { index, at } of axisLabels(view.i0, view.i1, view.px, t.y, side)) {
      rowLabels.append('text').attr('class', 'row-label').attr('data-i', index).attr('x', LEFT - 4).attr('y', top + at + size / 3)
        .attr('text-anchor', 'end').attr('font-size', size).text(labelText(index, LEFT - 10));
    }
    map.sinks.forEach((k, q) => {
      colLabels.append('text').attr('class', 'col-label sink-label').attr('data-j', k).attr('font-size', 11)
        .attr('transform', `translate(${sinkAt[q] + 11 / 3},${top - 4}) rotate(-90)`).text(tokenLabel(tokens, k, keyLabelPx, 11));
    });
    const taken = sinkAt.map((x) => x - LEFT - sinkArea);
    for (const { index, at } of axisLabels(view.j0, view.j1, view.px, t.x, side, taken)) {
      colLabels.append('text').attr('class', 'col-label').attr('data-j', index).attr('font-size', size)
        .attr('transform', `translate(${LEFT + sinkArea + at + size / 3},${top - 4}) rotate(-90)`).text(labelText(index, keyLabelPx));
    }
    const level = levelFor(n, side, t.k, map.levels);
    const ranges = `${t.k > 1 ? 'shown: ' : ''}queries ${shown(view.i0)}–${shown(view.i1)} × keys ${shown(view.j0)}–${shown(view.j1)}`;
    const said = `${ranges}; ${level === 0 ? 'every cell exact' : `blocks of ${2 ** level} × ${2 ** level}`}${stride > 1 ? `; labels every ${stride}` : ''}`;
    // Under the map from its left edge; in a narrow editor on two lines from the view's (the whole
    // line in its hover if even they cut it).
    const oneLine = textWidth(said, theme.fontSize) <= width - LEFT - 8;
    const x = oneLine ? LEFT : 8;
    const lines = oneLine ? [said] : noteLines(said, width - 16, 2, theme.fontSize);
    range.selectAll('*').remove();
    range.text('');
    lines.forEach((line, k) => range.append('tspan').attr('x', x).attr('dy', k === 0 ? 0 : NOTE_LINE).text(k < lines.length - 1 ? `${line} ` : line));
    if (lines.join(' ') !== said) range.append('title').text(said);
    return said;
  };

  // Tiles: the kept ones at the level in view and coarser, coarsest first, each one PNG per scale.
  let t: Zoom = { k: 1, x: 0, y: 0 };
  const hrefs = new Map<string, string>();
  const drawn = new Map<string, SVGImageElement>();
  const sinkDrawn = new Map<string, SVGImageElement[]>();
  /**
   * A tile's PNG on the scale of the level in view: by max every level's scale is the head's; by mass
   * a coarser stand-in is put on the view level's (its mass over 2^Δ, the level's top), so it is no
   * brighter than the finer tiles that replace it.
   */
  const hrefOf = (tile: HeadTile, level: number) => {
    const at = { level, top: keyTopAt(level) };
    const key = settings.colour === 'max' ? tileKey(tile) : `${tileKey(tile)}@${at.level}:${at.top}`;
    let href = hrefs.get(key);
    if (!href) { href = indicesHref(padded(tileShades(tile, map, settings.colour, settings.scale, norms, at), tile.cols, tile.rows, PAD), tile.cols + PAD, tile.rows + PAD, theme, options.deflate); hrefs.set(key, href); }
    return { key, href };
  };
  const dpr = () => container.ownerDocument.defaultView?.devicePixelRatio || 1;
  /** The drawn tiles and sink columns at the zoom's place on screen, their edges on device pixels. */
  const place = () => {
    const d = dpr();
    for (const [key, el] of drawn) {
      const tile = shownTiles.get(key);
      if (!tile) continue;
      const r = tileRect(tile, cell, t, d, PAD, { x: LEFT + sinkArea, y: top });
      el.setAttribute('x', String(r.x)); el.setAttribute('y', String(r.y));
      el.setAttribute('width', String(r.width)); el.setAttribute('height', String(r.height));
      for (const col of sinkDrawn.get(key) ?? []) {
        // A sink's column on device pixels too: its frame starts at LEFT px, 137.5 device px at 1.25.
        const q = map.sinks.indexOf(Number(col.getAttribute('data-key'))), x0 = snap(LEFT + q * SINK_W, d);
        col.setAttribute('x', String(x0 - LEFT)); col.setAttribute('width', String(snap(LEFT + (q + 1) * SINK_W, d) - x0));
        col.setAttribute('y', String(r.y)); col.setAttribute('height', String(r.height));
      }
    }
  };
  const shownTiles = new Map<string, HeadTile>();
  const paint = () => {
    const level = levelFor(n, side, t.k, map.levels);
    const view = inView(n, side, t);
    const show = store.kept().filter((tile) => tile.level >= level && meets(tile, view)).sort((a, b) => b.level - a.level || a.i0 - b.i0 || a.j0 - b.j0).slice(-DRAWN_MAX);
    const keys = new Set(show.map(tileKey));
    for (const [key, el] of drawn) if (!keys.has(key)) { el.remove(); drawn.delete(key); shownTiles.delete(key); }
    for (const [key, els] of sinkDrawn) if (!keys.has(key)) { els.forEach((el) => el.remove()); sinkDrawn.delete(key); }
    const used = new Set<string>();
    for (const tile of show) {
      const key = tileKey(tile);
      const png = hrefOf(tile, level);
      used.add(png.key);
      let el = drawn.get(key);
      if (!el) {
        // PAD blocks more (its edge repeated) under the neighbours drawn after it: no seam between them.
        el = tilesG.append('image').attr('class', 'tile').attr('data-level', tile.level).attr('data-i0', tile.i0).attr('data-j0', tile.j0)
          .attr('preserveAspectRatio', 'none').attr('image-rendering', 'pixelated').node()!;
        drawn.set(key, el);
        shownTiles.set(key, tile);
      }
      if (el.getAttribute('data-shade') !== png.key) { el.setAttribute('href', png.href); el.setAttribute('data-shade', png.key); }
      tilesG.node()!.append(el); // in order: coarser under finer
      if (tile.sinkColumns?.length && !sinkDrawn.has(key)) {
        sinkDrawn.set(key, tile.sinkColumns.map((col) => {
          const q = map.sinks.indexOf(col.key);
          return sinkG.append('image').attr('class', 'sink-tile').attr('data-key', col.key).attr('data-level', tile.level).attr('data-i0', tile.i0)
            .attr('x', q * SINK_W).attr('width', SINK_W)
            .attr('preserveAspectRatio', 'none').attr('image-rendering', 'pixelated')
            .attr('href', indicesHref(padded(sinkShades(tile, col, map, settings.colour, settings.scale), 1, tile.rows, 0, PAD), 1, tile.rows + PAD, theme, options.deflate)).node()!;
        }));
      }
      for (const el2 of sinkDrawn.get(key) ?? []) sinkG.node()!.append(el2);
    }
    for (const key of hrefs.keys()) if (!used.has(key)) hrefs.delete(key);
    place();
    drawLegend(level);
    drawArcs(level);
    return { level, view };
  };
  /** The view's tiles asked for (those not kept), after a zoom settles. */
  const ask = () => {
    const level = levelFor(n, side, t.k, map.levels);
    store.want(tilesFor(n, level, inView(n, side, t)));
  };
  const setZoom = (z: Zoom) => {
    t = z;
    matrix.attr('transform', `translate(${z.x},${z.y}) scale(${z.k})`);
    overlay.attr('transform', `translate(${z.x},${z.y}) scale(${z.k})`);
    drawLabels(z);
    paint();
    if (focused && reading) light(focused.i, focused.j);
    hover();
  };
  const kept = store.zooms.get(`${layer}:${head}`);
  const start = kept ? zoomOf(n, side, kept, maxK) : { k: 1, x: 0, y: 0 };

  // Hover and the keyboard's place: the cell (level 0) or the block under the pointer, or at the view's centre.
  const describeAt = (i: number, j: number) => describeCell(store.kept(), map, levelFor(n, side, t.k, map.levels), i, j, tokens, norms);
  // The pointer's place in the frame (not in the head: a wheel zoom under a still pointer moves the cell under it).
  let hovered: { fx: number; fy: number; at: { x: number; y: number } } | undefined;
  const hover = () => {
    if (!hovered) { readOut(); return; }
    const px = cell * t.k;
    const i = Math.floor((hovered.fy - t.y) / px), j = Math.floor((hovered.fx - t.x) / px);
    if (i < 0 || j < 0 || i >= n || j >= n) return;
    light(i, j);
    options.tooltip?.show(describeAt(i, j), hovered.at);
  };
  const light = (i: number, j: number) => {
    highlight.selectAll('*').remove();
    const level = levelFor(n, side, t.k, map.levels), b = 2 ** level;
    const bi = Math.floor(i / b) * b, bj = Math.floor(j / b) * b;
    highlight.append('rect').attr('class', 'cursor').attr('x', bj * cell).attr('y', bi * cell).attr('width', b * cell).attr('height', b * cell)
      .attr('fill', 'none').attr('stroke', crosshair(theme)).attr('stroke-width', 2 / t.k);
  };
  const status = select(container).append('div').attr('class', 'map-status').attr('role', 'status').attr('aria-live', 'polite')
    // Hidden from sight through the CSSOM: the webview's CSP refuses a style attribute, which left the
    // text drawn under the map in VS Code.
    .style('position', 'absolute').style('width', '1px').style('height', '1px').style('overflow', 'hidden')
    .style('clip', 'rect(0 0 0 0)').style('white-space', 'nowrap');
  // The keyboard's cell: the arrows move it a block of the level in view (a cell at level 0), the view
  // following; its readout is the hover's, said by the status line and shown beside it.
  let focused: { i: number; j: number } | undefined;
  /** Whether the cell is being read (from an arrow until the map loses the focus): tiles coming update it. */
  let reading = false;
  /** After a zoom or pan key: the range in view, and the keyboard's cell (kept in view) or the centre. */
  const announce = (said: string) => {
    const view = inView(n, side, t);
    const within = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
    if (focused && reading) {
      focused = { i: within(focused.i, view.i0, view.i1), j: within(focused.j, view.j0, view.j1) };
      light(focused.i, focused.j);
    }
    const at = (reading ? focused : undefined) ?? { i: Math.floor((view.i0 + view.i1) / 2), j: Math.floor((view.j0 + view.j1) / 2) };
    status.text(`${said}. At ${focused && reading ? 'the cell' : 'the centre'}: ${describeAt(at.i, at.j).join('; ')}`);
  };
  const readOut = () => {
    if (!focused || !reading) return;
    const lines = describeAt(focused.i, focused.j);
    const said = lines.join('; ');
    if (status.text() !== said) status.text(said);
    const at = highlight.select<SVGRectElement>('rect.cursor').node();
    if (at) options.tooltip?.show(lines, at);
  };

  let unzoom = () => {};
  if (options.interactive) {
    const node = frameNode!;
    const zoomer = zoom<SVGGElement, unknown>().scaleExtent([1, maxK]).translateExtent([[0, 0], [side, side]]).extent([[0, 0], [side, side]])
      .on('zoom', (e: { transform: ZoomTransform }) => setZoom({ k: e.transform.k, x: e.transform.x, y: e.transform.y }))
      .on('end', () => { ask(); store.zooms.set(`${layer}:${head}`, keptZoom(n, side, t)); store.onZoom?.(); });
    const sel = select(node);
    sel.call(zoomer).call(zoomer.transform, zoomIdentity.translate(start.x, start.y).scale(start.k));
    frame.attr('tabindex', 0).attr('role', 'application')
      .attr('aria-label', `${headName(layer, head)}, ${n} by ${n}, a map: the arrows move the cell read out, shift and the arrows pan, plus and minus zoom, 0 or Home shows the whole head; m colours by strongest weight or mass, l switches linear and log`)
      .on('keydown', (e: KeyboardEvent) => {
        if (e.ctrlKey || e.metaKey || e.altKey) return;
        const pan = side / 8 / t.k;
        const step = (di: number, dj: number) => () => {
          const view = inView(n, side, t), b = 2 ** levelFor(n, side, t.k, map.levels);
          // From the cell read before if it is still in view, else from the view's centre.
          const inside = focused && focused.i >= view.i0 && focused.i <= view.i1 && focused.j >= view.j0 && focused.j <= view.j1;
          const from = inside && focused ? focused : { i: Math.floor((view.i0 + view.i1) / 2), j: Math.floor((view.j0 + view.j1) / 2) };
          const i = Math.max(0, Math.min(n - 1, from.i + di * b)), j = Math.max(0, Math.min(n - 1, from.j + dj * b));
          focused = { i, j };
          reading = true;
          // The view follows the cell: panned just enough to hold it.
          const px = cell * t.k, x = t.x + j * px, y = t.y + i * px;
          const dx = x < 0 ? -x : x + px > side ? side - x - px : 0, dy = y < 0 ? -y : y + px > side ? side - y - px : 0;
          if (dx || dy) zoomer.translateBy(sel, dx / t.k, dy / t.k);
          else { light(i, j); readOut(); }
        };
        const keys: Record<string, () => void> = {
          '+': () => zoomer.scaleBy(sel, 2), '=': () => zoomer.scaleBy(sel, 2), '-': () => zoomer.scaleBy(sel, 0.5), '−': () => zoomer.scaleBy(sel, 0.5),
          ArrowLeft: step(0, -1), ArrowRight: step(0, 1), ArrowUp: step(-1, 0), ArrowDown: step(1, 0),
          '0': () => zoomer.transform(sel, zoomIdentity), Home: () => zoomer.transform(sel, zoomIdentity),
          m: () => { settings.colour = settings.colour === 'max' ? 'mass' : 'max'; recolour(); },
          l: () => { settings.scale = settings.scale === 'linear' ? 'log' : 'linear'; recolour(); },
        };
        const panKeys: Record<string, () => void> = {
          ArrowLeft: () => zoomer.translateBy(sel, pan, 0), ArrowRight: () => zoomer.translateBy(sel, -pan, 0),
          ArrowUp: () => zoomer.translateBy(sel, 0, pan), ArrowDown: () => zoomer.translateBy(sel, 0, -pan),
        };
        const act = (e.shiftKey ? panKeys[e.key] : undefined) ?? keys[e.key];
        if (!act) return;
        e.preventDefault();
        e.stopPropagation();
        act();
        const said = drawLabels(t);
        if (focused && e.key.startsWith('Arrow') && !e.shiftKey) readOut();
        else announce(said);
      })
      .on('blur', () => { reading = false; if (!hovered) { highlight.selectAll('*').remove(); options.tooltip?.hide(); } })
      .on('pointermove', (e: PointerEvent) => {
        const [fx, fy] = pointer(e, node);
        hovered = { fx, fy, at: { x: e.clientX, y: e.clientY } };
        hover();
      })
      .on('pointerleave', () => { hovered = undefined; highlight.selectAll('*').remove(); options.tooltip?.hide(); });
    sinkFrame.on('pointermove', (e: PointerEvent) => {
      const [x, y] = pointer(e, sinkG.node()!);
      const q = Math.floor(x / SINK_W), i = Math.floor((y - t.y) / (cell * t.k));
      if (q < 0 || q >= map.sinks.length || i < 0 || i >= n) return;
      options.tooltip?.show(describeSink(store.kept(), map, levelFor(n, side, t.k, map.levels), i, map.sinks[q], tokens, norms), { x: e.clientX, y: e.clientY });
    }).on('pointerleave', () => options.tooltip?.hide());
    unzoom = () => { sel.on('.zoom', null); };
  } else {
    setZoom(start);
    ask();
  }
  store.listener = (tile) => {
    const level = levelFor(n, side, t.k, map.levels);
    // A tile in view, or one that moved the mass scale's top (every tile drawn is shaded anew).
    if ((tile.level >= level && meets(tile, inView(n, side, t))) || !legendSaid.endsWith(`:${keyTopAt(level)}`)) paint();
    hover();
  };
  return {
    svg: svg.node()!, notes,
    refresh: hover,
    destroy: () => { if (hovered) options.tooltip?.hide(); store.listener = undefined; unzoom(); status.remove(); svg.remove(); },
  };
}

/**
 * The host's picture on the tiles' scale: its indices are of the head's strongest weight, a sink's
 * included, while the tiles' linear max scale is of the strongest outside the sinks (often several
 * times smaller), so the first paint brightened when the tiles came. Other scales are left as sent:
 * the tiles cover the picture within a step.
 */
export function onKeysScale(indices: Uint8Array, pictureMax: number | undefined, keysMax: number, settings: { colour: string; scale: string }): Uint8Array {
  const ratio = pictureMax !== undefined && keysMax > 0 ? pictureMax / keysMax : 1;
  if (!(ratio > 1 && Number.isFinite(ratio)) || settings.colour !== 'max' || settings.scale !== 'linear') return indices;
  const out = new Uint8Array(indices.length);
  for (let k = 0; k < indices.length; k++) out[k] = Math.min(255, Math.round(indices[k] * ratio));
  return out;
}
