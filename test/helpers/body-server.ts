import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { closeAtEnd } from './served.ts';

export interface BodyServer {
  /** Ends in /compatible-mode/v1, like the DashScope loopback server. */
  baseURL: string;
  /** How many requests arrived. */
  requests: number;
  close(): Promise<void>;
}

/**
 * A loopback server (127.0.0.1) whose every request gets `answer(response, request)`: for bodies no
 * chat server should send with a 200 (an HTML page, a JSON document, an endless line, a gzip bomb).
 * Closed when the importing test file ends.
 */
export async function startBodyServer(answer: (response: ServerResponse, request: IncomingMessage) => void): Promise<BodyServer> {
  const sockets = new Set<Socket>();
  const state = { requests: 0 };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      state.requests++;
      answer(response, request);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return closeAtEnd({
    baseURL: `http://127.0.0.1:${port}/compatible-mode/v1`,
    get requests() {
      return state.requests;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
      return closing;
    },
  });
}
