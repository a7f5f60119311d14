// What the integration tests and benches see of each open model editor (through the test seam,
// test-api.ts): its state, what its webview last drew, and the timings of its boot, scan and head
// switches. A plain record, so that the editor's pure part fills it and the seam only copies it.

export interface ModelEditorInfo {
  uri: string;
  state: 'loading' | 'ready' | 'error';
  view?: string;
  /** Heads, cells, rows or bars the webview drew in its last paint. */
  items?: number;
  /** The first tokens of the file (or of the spec that references it). */
  tokens?: string[];
  error?: string;
  /** From resolving the editor to the webview's 'ready' (its boot: page, script, first message). */
  readyMs?: number;
  /** From resolving the editor to the webview's first paint. */
  firstPaintMs?: number;
  /** From asking for the file to having read every head (statistics and thumbnails): the scan's, shared by every editor of the file. */
  scanMs?: number;
  /** Heads read so far, of `total`. */
  read?: number;
  total?: number;
  /** Scans the editor's document has begun (one per file and options, however many editors show it). */
  scans?: number;
  /** From resolving the editor to the first paint that shows every head. */
  fullPaintMs?: number;
  /** The webview's own drawing time of its last paint. */
  lastDrawMs?: number;
  /** The last head switch: from the webview asking for the head to its paint, and the worker's read within it. */
  lastHeadMs?: number;
  lastHeadReadMs?: number;
  /** The webview's own drawing time of that head view (the rest is reading and carrying the message). */
  lastHeadDrawMs?: number;
  /** Whether VS Code shows the editor's webview now, and how many messages the host has heard from it (a webview that never says 'ready' shows here). */
  visible?: boolean;
  heard?: number;
  /** A model spec's editor: the runs shown so far, the last run's next tokens, and why the last run failed. */
  runs?: number;
  next?: string[];
  runError?: string;
}
