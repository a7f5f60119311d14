// The tile contract between the head view and the host: the host's types (core/model-attention/
// tiles.ts, the protocol's 'tile' messages) as the map uses them, and the check a tile passes before
// it is drawn: the protocol's (shape, sizes, inside the head) and that its sink columns are the map's.
import { headTileProblem, MAX_TILE_CELLS, type HeadMap, type HeadTile } from '../../../../src/core/model-attention/tiles.js';
import { levelSide } from '../../../../src/core/tensors/map/pyramid.js';
import type { ModelHostMessage, ModelWebviewMessage } from '../../../../src/protocol/model-editor.js';

export { MAX_TILE_CELLS, type HeadMap, type HeadTile };

/** What colours a block: its strongest weight (a needle stays visible) or its mass (the weights' sum). */
export type MapColour = 'max' | 'mass';
export type MapScale = 'linear' | 'log';

/** The webview's ask for a tile. */
export type TileAsk = Extract<ModelWebviewMessage, { type: 'tile' }>;

/** The host's answer. */
export type TileAnswer = Extract<ModelHostMessage, { type: 'tile' }>;

/** Blocks a side at level L of an n-token head. */
export function blocksAt(n: number, level: number): number {
  return levelSide(n, level);
}

/** Why `m` is not a tile of this head's map (undefined when it is one): the protocol's check, and the map's own sink keys. */
export function tileProblem(m: Record<string, unknown>, map: HeadMap): string | undefined {
  const problem = headTileProblem(m, map.n, map.sinks.length);
  if (problem) return problem;
  if (!((m.level as number) < map.levels)) return 'a tile of a level the head has not';
  const columns = (m.sinkColumns ?? []) as { key: number }[];
  return columns.every((c) => map.sinks.includes(c.key)) ? undefined : 'a tile whose sink columns are not the head\'s sinks';
}
