/** The topics a webhook subscribes to (docs/api.md, Webhooks); `eligibility` alone by default. */
export const WEBHOOK_TOPICS = [
  'eligibility',
  'claim',
  'batch',
  'remittance',
  'verification',
  'appointment',
] as const;
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];
