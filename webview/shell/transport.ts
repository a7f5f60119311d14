// The message channel between a shell and whoever serves it: the VS Code host (through the object
// acquireVsCodeApi() returns, which the entry point injects: the shell never reaches for it), the
// offline --html page's own answers, or next a notebook renderer's context. A shell posts through
// `post` and hears through `listen`; what it hears is unchecked data until the shell checks it.

/** What a shell talks through. */
export interface Transport<Out> {
  post(message: Out): void;
  /** Calls `receive` with every message that arrives; returns how to stop listening. Absent: the caller hands messages in itself. */
  listen?(receive: (message: unknown) => void): () => void;
}

/** The object acquireVsCodeApi() returns: a channel to the host and a store that survives a reload of the webview. */
export interface VsCodeApi<Out> {
  postMessage(message: Out): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** The host's messages arrive as the window's 'message' events; ours leave through the injected API. */
export function vscodeTransport<Out>(api: Pick<VsCodeApi<Out>, 'postMessage'>, win: Window): Transport<Out> {
  return {
    post: (message) => api.postMessage(message),
    listen(receive) {
      const onMessage = (e: MessageEvent) => receive(e.data);
      win.addEventListener('message', onMessage);
      return () => win.removeEventListener('message', onMessage);
    },
  };
}

/** Outside VS Code (a test page in a frame): messages go to the parent window, the state lives in memory. */
export function framedApi<Out>(win: Window): VsCodeApi<Out> {
  let state: unknown;
  return {
    postMessage: (message) => win.parent?.postMessage(message, '*'),
    getState: () => state,
    setState: (s) => { state = s; },
  };
}
