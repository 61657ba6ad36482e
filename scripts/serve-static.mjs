#!/usr/bin/env node
// A tiny static file server (`npm run web`, the end-to-end tests, the benchmark): serves one directory on 127.0.0.1, with
// the MIME types the web build needs, and nothing outside that directory.
//
//   node scripts/serve-static.mjs <directory> <port>

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const [directoryArgument = 'out/web', portArgument = '4317'] = process.argv.slice(2);
const root = resolve(directoryArgument);
const port = Number(portArgument);

const mimeTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.pickle': 'application/octet-stream',
};

try {
  await stat(join(root, 'index.html'));
} catch {
  console.error(
    `serve-static: ${join(root, 'index.html')} not found; run \`npm run build:web\` first.`,
  );
  process.exit(1);
}

/** Maps a URL path to a file under root, or null when it would leave root. */
function resolveUnderRoot(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const path = resolve(root, '.' + (decoded.endsWith('/') ? decoded + 'index.html' : decoded));
  return path === root || path.startsWith(root + sep) ? path : null;
}

const server = createServer(async (request, response) => {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const { pathname } = new URL(request.url ?? '/', 'http://localhost');
  const path = resolveUnderRoot(pathname);
  if (path === null) {
    response.writeHead(403).end('Forbidden');
    return;
  }
  let stats;
  try {
    stats = await stat(path);
  } catch {
    stats = null;
  }
  if (!stats?.isFile()) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
    return;
  }
  response.writeHead(200, {
    'Content-Type': mimeTypes[extname(path).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': stats.size,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  if (request.method === 'HEAD') response.end();
  else createReadStream(path).pipe(response);
});

server.listen(port, '127.0.0.1', () => {
  console.log(`serve-static: http://127.0.0.1:${port}/ → ${root}`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
