import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface PageServer {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** Every request: its path and headers. */
  requests: Array<{ path: string; headers: IncomingMessage['headers'] }>;
  /** Bytes the /huge route managed to write before the client hung up. */
  hugeBytesWritten(): number;
  close(): Promise<void>;
}

export const ARTICLE_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>Sylvan test article</title>
<style>.secret-style { color: red }</style><script>var trackingMarker = "script-marker-9f2";</script></head>
<body><nav><a href="/">Home</a> <a href="/about">nav-marker-about</a></nav>
<header><p>header-marker banner</p></header>
<main><article><h1>Readable heading</h1>
<p>The first paragraph of the article carries the marker readable-marker-71c and enough words for the reader view to
recognise it as the main content of this page, which takes a few hundred characters of ordinary prose.</p>
<p>A second paragraph links to <a href="/other">another page</a> and keeps going with more ordinary text, so that the
article is clearly longer than the navigation and the footer around it.</p></article></main>
<footer>footer-marker copyright</footer><script>document.write("script-marker-2")</script></body></html>`;

const HUGE_BYTES = 50 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

/** A loopback web server with the pages the web_fetch tests need. */
export async function startPageServer(): Promise<PageServer> {
  const requests: PageServer['requests'] = [];
  const sockets = new Set<Socket>();
  let hugeWritten = 0;
  let port = 0;
  const routes: Record<string, (response: ServerResponse) => void> = {
    '/article': (response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'session=abc; Path=/' }).end(ARTICLE_HTML),
    '/gzip': (response) => response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(ARTICLE_HTML)),
    '/json': (response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"marker":"json-marker-33"}'),
    '/pdf': (response) => response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4\n%binary\n'),
    '/png': (response) => response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])),
    '/missing': (response) => response.writeHead(404, { 'content-type': 'text/plain' }).end('not here'),
    '/same-host': (response) => response.writeHead(302, { location: '/article' }).end(),
    '/to-metadata': (response) => response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    '/to-private': (response) => response.writeHead(301, { location: 'http://10.0.0.1/admin' }).end(),
    '/to-mapped': (response) => response.writeHead(307, { location: 'http://[::ffff:169.254.169.254]/' }).end(),
    '/to-localhost': (response) => response.writeHead(302, { location: `http://localhost:${port}/article` }).end(),
    '/to-file': (response) => response.writeHead(302, { location: 'file:///etc/passwd' }).end(),
    '/huge': (response) => {
      // 50 MB, written as fast as the client reads, stopped when it hangs up.
      response.writeHead(200, { 'content-type': 'text/plain' });
      const write = () => {
        while (hugeWritten < HUGE_BYTES && !response.destroyed) {
          hugeWritten += CHUNK.length;
          if (!response.write(CHUNK)) return void response.once('drain', write);
        }
        if (!response.destroyed) response.end();
      };
      write();
    },
  };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    requests.push({ path, headers: request.headers });
    const loop = /^\/loop\/(\d+)$/.exec(path);
    if (loop) return void response.writeHead(302, { location: `/loop/${Number(loop[1]) + 1}` }).end();
    const route = routes[path];
    if (route) return route(response);
    response.writeHead(404).end();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    hugeBytesWritten: () => hugeWritten,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}
