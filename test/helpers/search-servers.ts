import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type SearchService = 'tavily' | 'brave' | 'searxng';

/** How the server answers: the service's recorded success, an HTTP error, a body that is not JSON, or nothing. */
export type SearchBehaviour = 'ok' | 401 | 429 | 'malformed' | 'hang';

export interface SeenRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface SearchServer {
  /** http://127.0.0.1:PORT — the base URL the backend appends its documented path to. */
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/web/${name}`, import.meta.url), 'utf8');
export const FIXTURES: Record<SearchService, string> = {
  tavily: fixture('tavily-search.json'),
  brave: fixture('brave-web-search.json'),
  searxng: fixture('searxng-search.json'),
};

/** The documented route of each service; anything else is a 404 naming it. */
const ROUTES: Record<SearchService, { method: string; path: string }> = {
  tavily: { method: 'POST', path: '/search' },
  brave: { method: 'GET', path: '/res/v1/web/search' },
  searxng: { method: 'GET', path: '/search' },
};

/** Which key each service checks, and where. */
function authorised(service: SearchService, request: IncomingMessage, key: string | undefined): boolean {
  if (service === 'tavily') return request.headers.authorization === `Bearer ${key}`;
  if (service === 'brave') return request.headers['x-subscription-token'] === key;
  return true;
}

/**
 * A loopback server shaped like one search service's API (route, key header, answer from
 * test/fixtures/web), answering as `behaviour` says. Records every request.
 */
export async function startSearchServer(service: SearchService, options: { key?: string; behaviour?: SearchBehaviour } = {}): Promise<SearchServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const behaviour = options.behaviour ?? 'ok';
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      requests.push({ method: request.method ?? '', path: url.pathname, query: url.searchParams, headers: request.headers, body: Buffer.concat(parts).toString('utf8') });
      const route = ROUTES[service];
      if (request.method !== route.method || url.pathname !== route.path) {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: `no route ${request.method} ${url.pathname}` }));
        return;
      }
      if (service === 'searxng' && url.searchParams.get('format') !== 'json') {
        response.writeHead(403, { 'content-type': 'text/html' }).end('<html>403 Forbidden</html>');
        return;
      }
      if (behaviour === 'hang') return;
      if (behaviour === 401 || !authorised(service, request, options.key)) {
        response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: { error: 'Unauthorized: missing or invalid API key.' } }));
        return;
      }
      if (behaviour === 429) {
        response.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: { error: 'Rate limit exceeded' } }));
        return;
      }
      if (behaviour === 'malformed') {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"results": [ {"title": "cut off');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(FIXTURES[service]);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}
