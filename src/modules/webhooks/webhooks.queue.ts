export const DELIVERY_QUEUE = 'webhook-delivery';
export const DELIVERY_JOB = 'deliver';

/** Jobs carry the delivery id only; the row holds the body, the count and the schedule. */
export interface DeliveryJobData {
  deliveryId: string;
}
