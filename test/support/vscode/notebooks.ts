// The `notebooks` namespace of the stand-in: createRendererMessaging, the channel between the host
// and a notebook renderer. The test speaks as the renderer (`send`) and reads what the host posted
// back to it (`posted`), per renderer id; a notebook editor is only a token here (no notebook runs).
import { EventEmitter } from './values.js';

interface Channel {
  received: EventEmitter<{ editor: unknown; message: unknown }>;
  posted: { message: unknown; editor: unknown }[];
}

const channels = new Map<string, Channel>();

function channel(id: string): Channel {
  let c = channels.get(id);
  if (!c) { c = { received: new EventEmitter(), posted: [] }; channels.set(id, c); }
  return c;
}

export const notebooks = {
  createRendererMessaging(rendererId: string) {
    const c = channel(rendererId);
    return {
      onDidReceiveMessage: c.received.event,
      async postMessage(message: unknown, editor?: unknown): Promise<boolean> {
        c.posted.push({ message, editor });
        return true;
      },
    };
  },
};

export const rendererChannels = {
  /** A message from renderer `id`'s output in `editor`, as VS Code delivers it to the host. */
  send(id: string, message: unknown, editor: unknown = { notebook: 'stand-in' }): void {
    channel(id).received.fire({ editor, message });
  },
  /** What the host posted to renderer `id`, oldest first. */
  posted(id: string): unknown[] {
    return channel(id).posted.map((p) => p.message);
  },
  reset(): void {
    channels.clear();
  },
};
