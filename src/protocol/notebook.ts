// The notebook renderer's messages to the extension host and back (VS Code's renderer messaging),
// with their checks (a message is untrusted until checked, on both sides). The renderer asks the
// host to open the cell's attention in the model editor ("Open in Attention Lens": a request with an
// id, answered once, see requests.ts), and reports what it drew (for tests and timings).
import { isObject } from '../core/json/object.js';
import type { AttentionPayload } from '../core/model-attention/payload.js';
import { payloadProblem } from './attention-payload.js';
import { checkOf, type ByType } from './by-type.js';

/** The renderer's id in package.json's contributes.notebookRenderer (the host's messaging names it). */
export const NOTEBOOK_RENDERER_ID = 'attentionLens.notebook';

export type RendererMessage =
  /** Open this payload (the cell's, as the renderer received it) in the model editor. */
  | { type: 'open'; id: number; payload: AttentionPayload }
  /** The renderer drew a view (or its error line): which, and how many heads or cells it shows. */
  | { type: 'painted'; view: string; items: number; drawMs: number };

export type RendererReply =
  | { type: 'opened'; id: number; file: string }
  | { type: 'refused'; id: number; message: string };

const isId = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 1;

/** Why a message of its type (already matched) is malformed, or undefined. */
type Check = (m: Record<string, unknown>) => string | undefined;

/** The check of every message the renderer sends (RendererMessage), by its type. */
const RENDERER_CHECKS = {
  open: (m) => {
    if (!isId(m.id)) return 'an open request without a whole-number id';
    const bad = payloadProblem(m.payload);
    return bad ? `an open request whose payload is refused: ${bad}` : undefined;
  },
  painted: (m) => (typeof m.view === 'string' && m.view.length < 40 && Number.isFinite(m.items) && Number.isFinite(m.drawMs) ? undefined : 'a malformed painted report'),
} satisfies ByType<RendererMessage, Check>;

/** The check of every reply the host sends (RendererReply), by its type; the id is checked before. */
const REPLY_CHECKS = {
  opened: (m) => (typeof m.file === 'string' ? undefined : 'an opened reply without its file'),
  refused: (m) => (typeof m.message === 'string' ? undefined : 'a refusal without its reason'),
} satisfies ByType<RendererReply, Check>;

/** What is wrong with a message from the renderer; undefined when nothing. */
export function rendererMessageProblem(m: unknown): string | undefined {
  if (!isObject(m) || typeof m.type !== 'string') return 'not a message';
  const check = checkOf<Check>(RENDERER_CHECKS, m.type);
  return check ? check(m) : `unknown message type ${JSON.stringify(m.type).slice(0, 40)}`;
}

/** What is wrong with a reply from the host; undefined when nothing. */
export function rendererReplyProblem(m: unknown): string | undefined {
  if (!isObject(m) || !isId(m.id)) return 'not a reply';
  const check = checkOf<Check>(REPLY_CHECKS, m.type);
  return check ? check(m) : 'not a reply';
}
