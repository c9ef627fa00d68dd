import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP relay in front of a loopback server, noting when bytes pass each way. */
export interface Relay {
  port: number;
  /** When each chunk from the client arrived: the first after Enter is the request's first byte, whatever the HTTP client buffers. */
  arrivals: number[];
  /** When the server's last chunk was passed on to the client (the last byte of an answer), if any. */
  lastReply(): number | undefined;
  close(): Promise<void>;
}

export async function startRelay(target: URL): Promise<Relay> {
  const arrivals: number[] = [];
  let lastReply: number | undefined;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => {
      arrivals.push(performance.now());
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      client.write(chunk);
      lastReply = performance.now();
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the relay has no port');
  return {
    port: address.port,
    arrivals,
    lastReply: () => lastReply,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
