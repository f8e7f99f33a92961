import { AggregatorRegistry } from 'prom-client';
import { listenForScrapes } from './metrics-server';

/**
 * The cluster's supervisor (src/cluster.ts) serves the metrics of all its processes: each scrape
 * asks every process for its own (prom-client's AggregatorRegistry, over the cluster's IPC
 * channel), sums the counters and histograms, and takes the largest value of the database's
 * gauges (`max`, docs/architecture.md, What operators see). Loads only prom-client, never the
 * application.
 */
export async function serveClusterMetrics(
  where: { port: number; host: string },
  onError: (e: Error) => void,
): Promise<void> {
  const aggregator = new AggregatorRegistry();
  await listenForScrapes(where, () => aggregator.clusterMetrics(), aggregator.contentType, onError);
}
