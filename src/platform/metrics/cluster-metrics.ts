import { AggregatorRegistry } from 'prom-client';
import { listenForScrapes } from './metrics-server';

/**
 * The supervisor's (src/cluster.ts) metrics of all its processes: each scrape asks every process
 * over IPC (prom-client's AggregatorRegistry) and aggregates. Loads only prom-client.
 */
export async function serveClusterMetrics(
  where: { port: number; host: string },
  onError: (e: Error) => void,
): Promise<void> {
  const aggregator = new AggregatorRegistry();
  await listenForScrapes(where, () => aggregator.clusterMetrics(), aggregator.contentType, onError);
}
