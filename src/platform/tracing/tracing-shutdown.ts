import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { shutdownTracing } from './tracing';

/**
 * Sends the spans still held when the application closes (the last of its shutdown hooks, after
 * the queues and pools: their spans are in), then stops the exporter. Nothing without tracing.
 */
@Injectable()
export class TracingShutdown implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await shutdownTracing();
  }
}
