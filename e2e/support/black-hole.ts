/**
 * A host that takes the request and never answers: what a CDN looks like behind a proxy that
 * holds connections, or on a network that went away mid-request. It completes TLS (a self-signed
 * certificate, e2e/support/tls, made for these tests only), reads the request and says nothing,
 * so the browser's request waits with no handshake timeout to end it. Chromium is pointed at it
 * with --host-resolver-rules and told to accept the certificate.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { createServer } from 'node:tls';

export interface BlackHole {
  port: number;
  /** How many requests' connections reached it (TLS done). */
  connections: () => number;
  /** Chromium flags that send these hosts here. */
  browserArgs: (hosts: readonly string[]) => string[];
  close: () => Promise<void>;
}

const tls = (name: string) => readFileSync(new URL(`./tls/${name}`, import.meta.url));

export async function startBlackHole(): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createServer({ key: tls('black-hole.key'), cert: tls('black-hole.crt') }, (socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    // Read and drop the request; answer nothing.
    socket.resume();
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    connections: () => count,
    browserArgs: (hosts) => [`--host-resolver-rules=${hosts.map((h) => `MAP ${h} 127.0.0.1:${port}`).join(', ')}`, '--ignore-certificate-errors'],
    close: () =>
      new Promise<void>((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}
