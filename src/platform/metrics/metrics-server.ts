import { createServer, type Server } from 'node:http';

/**
 * The metrics port (docs/architecture.md, What operators see): `GET /metrics` answers `read()`
 * in the Prometheus text format; anything else 404. Apart from the API's port, so the API's
 * pipeline (keys, rate limits, audit) never sees a scrape, and the address can stay on loopback
 * or inside the pod network (METRICS_HOST).
 */
export async function listenForScrapes(
  where: { port: number; host: string },
  read: () => Promise<string>,
  contentType: string,
  onError: (e: Error) => void,
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    read().then(
      (text) => {
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (e: unknown) => {
        onError(e instanceof Error ? e : new Error(String(e)));
        res.writeHead(503, { 'content-type': 'text/plain' }).end('Metrics unavailable\n');
      },
    );
  });
  // Scrapes are short requests; a slow client must not hold a socket.
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
