// This folder served over HTTP, as VS Code for the Web loads a web extension from a URL (the
// Marketplace's CDN, or `npx serve --cors` for "Install Extension from Location"): a workbench that
// gets the extension under development at an http: URL counts it as installed in the browser, so it
// runs in the web worker extension host (at a vscode-remote: URI it would run in the server's Node
// host). Read-only, this folder only, with CORS, as the web worker fetches the code it runs.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript', '.json': 'application/json', '.md': 'text/markdown', '.css': 'text/css',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.map': 'application/json',
};

export interface ExtensionServer { url: string; requests: string[]; close(): Promise<void> }

export async function serveFolder(root: string): Promise<ExtensionServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(url.pathname);
    const file = path.join(root, path.normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, ''));
    const rel = path.relative(root, file);
    if (rel.startsWith('..') || path.isAbsolute(rel) || req.method !== 'GET' || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream');
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
