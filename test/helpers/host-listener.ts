import { createServer, type Server } from 'node:net';

/**
 * A TCP server on the host's loopback that greets and hangs up: a sandboxed command that can reach
 * it has the network. Started before the tests of the calling suite, closed after them.
 */
export function hostListener(hooks: { before: (run: () => Promise<void>) => void; after: (run: () => void) => void }): { readonly port: number } {
  let server: Server | undefined;
  const listening = { port: 0 };
  hooks.before(async () => {
    server = createServer((socket) => socket.end('hello from the host\n'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    listening.port = (server.address() as { port: number }).port;
  });
  hooks.after(() => server?.close());
  return listening;
}
