import type { Queryable } from '@/database/pg-pool';
import type { SendResult } from './webhook-sender';
import type { DeliveryStatus } from './webhook.entity';

/**
 * Records one automatic attempt in one statement: the attempt row, and the delivery's next state
 * (succeeded; failed when `final` or its webhook was deactivated meanwhile; else pending again,
 * due in `delayMs`). A delivery that is no longer pending (a manual redelivery succeeded
 * meanwhile) keeps its state; its attempt is still recorded. Answers the delivery's state after
 * the attempt, or null when it was deleted (with its webhook) while the attempt was in flight.
 */
export async function recordAttempt(
  db: Queryable,
  deliveryId: string,
  result: SendResult,
  final: boolean,
  delayMs: number,
): Promise<DeliveryStatus | null> {
  const rows = await db.query<{ status: DeliveryStatus }[]>(
    `WITH d AS (
       SELECT d.id, d.status, w.is_active FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.id = $1 FOR UPDATE OF d),
     attempt AS (
       INSERT INTO webhook_attempts (delivery_id, started_at, status_code, duration_ms, error, response_body, manual)
       SELECT d.id, $2, $3, $4, $5, $6, false FROM d),
     next AS (
       SELECT d.id, CASE WHEN d.status <> 'pending' THEN d.status
                         WHEN $7::boolean THEN 'succeeded'
                         WHEN $8::boolean OR NOT d.is_active THEN 'failed'
                         ELSE 'pending' END AS status
       FROM d),
     updated AS (
       UPDATE webhook_deliveries t
       SET status = next.status, lease_job = NULL,
           next_attempt_at = CASE WHEN next.status = 'pending' THEN now() + ($9 || ' milliseconds')::interval END,
           completed_at = CASE WHEN next.status = 'pending' THEN NULL ELSE now() END
       FROM next, d WHERE t.id = next.id AND d.status = 'pending')
     SELECT status FROM next`,
    [
      deliveryId,
      result.startedAt,
      result.statusCode,
      result.durationMs,
      result.error ? result.error.slice(0, 1000) : null,
      result.responseBody,
      result.ok,
      final,
      String(Math.round(delayMs)),
    ],
  );
  return rows[0]?.status ?? null;
}
