import { ref } from './api-docs';

/** The webhook events' documentation (each one callback of `POST /api/auth/v1/webhooks/`). */

type Schema = Record<string, unknown>;

/**
 * The events a webhook receives (every `EVENT_*` constant of src/modules; a test holds the two
 * lists together). Each is one callback of `POST /api/auth/v1/webhooks/`.
 */
export const WEBHOOK_EVENTS: {
  type: string;
  summary: string;
  description: string;
  payload: Schema;
}[] = [
  {
    type: 'eligibility.finished',
    summary: 'An eligibility request (search or details) ended `complete` or `error`',
    description:
      'The body is exactly the bytes of `GET /api/auth/v{1,2}/eligibility/{request_uid}/` for the ' +
      "webhook's `version` at the moment the request finished: `EligibilityResultV2` for `v2` " +
      'webhooks (the default), `EligibilityResultV1` for `v1`. As in those answers, `plan_token` and ' +
      '`plan_token_expired_at` appear only on persons whose plan is in-network only.',
    payload: {
      anyOf: [ref('EligibilityResultV2'), ref('EligibilityResultV1')],
      description: '`EligibilityResultV2` for `v2` webhooks, `EligibilityResultV1` for `v1`.',
    },
  },
  {
    type: 'eligibility.updated',
    summary: 'A complete eligibility answer grew: a person answered after it completed',
    description:
      'Sent to webhooks whose `events` hold `eligibility`, once per verification task answered ' +
      'after its request completed (a Universal Search with `wait_for: "electronic"`; docs/api.md, ' +
      'Universal Search insurer by insurer): the plans found join the same `results` (the status ' +
      "stays `complete`) and the insurer's entry in `insurers` says what the person found. The " +
      'body is exactly the bytes of `GET /api/auth/v{1,2}/eligibility/{request_uid}/` for the ' +
      "webhook's `version` at that moment: the whole new answer, not a difference.",
    payload: {
      anyOf: [ref('EligibilityResultV2'), ref('EligibilityResultV1')],
      description: '`EligibilityResultV2` for `v2` webhooks, `EligibilityResultV1` for `v1`.',
    },
  },
  {
    type: 'claim.status_changed',
    summary: 'A claim moved to another status',
    description:
      'Sent to webhooks whose `events` hold `claim`, once per status change (submitted, ' +
      'accepted, rejected, paid, denied, ...). The body is exactly the bytes of ' +
      '`GET /api/auth/v1/claims/{code}/` at the moment of the change, for every webhook `version`.',
    payload: ref('ClaimResponse'),
  },
  {
    type: 'eligibility.batch_finished',
    summary: 'Every item of an eligibility batch finished',
    description:
      'Sent to webhooks whose `events` hold `batch`, once per batch. The body is exactly the ' +
      'bytes of `GET /api/auth/v1/eligibility/batches/{batch_uid}/` when the last item finished ' +
      '(the items themselves reach `eligibility` webhooks one by one), for every webhook `version`.',
    payload: ref('BatchResponse'),
  },
  {
    type: 'remittance.received',
    summary: 'An 835 remittance was received',
    description:
      'Sent to webhooks whose `events` hold `remittance`, once per remittance (an 835 payment, ' +
      'stored once per payer and trace number; docs/api.md, Claim reports and remittances). The body is exactly the bytes of ' +
      '`GET /api/auth/v1/remittances/{id}/` when it was received, for every webhook `version`. ' +
      'The claims it pays, denies or reverses also reach `claim` webhooks as status changes.',
    payload: ref('RemittanceResponse'),
  },
  {
    type: 'verification_task.created',
    summary: 'An assisted search became a verification task',
    description:
      'Sent to webhooks whose `events` hold `verification`, once per task, when a search of an ' +
      'insurer verified by people opens it (docs/api.md, Verification tasks). The body is exactly ' +
      'the bytes of `GET /api/auth/v1/verification-tasks/{id}/` at that moment (state `queued`), ' +
      'for every webhook `version`.',
    payload: ref('VerificationTaskResponse'),
  },
  {
    type: 'verification_task.overdue',
    summary: 'A verification task passed its `due_by`',
    description:
      'Sent to webhooks whose `events` hold `verification`, once per task, when it is still open ' +
      "after its `due_by`. The body is exactly the bytes of the task's GET " +
      '(`GET /api/auth/v1/verification-tasks/{id}/`) at that moment, for every webhook `version`.',
    payload: ref('VerificationTaskResponse'),
  },
  {
    type: 'appointment.checked',
    summary: "An appointment's coverage check answered",
    description:
      'Sent to webhooks whose `events` hold `appointment`, once per answer of a check the ' +
      'service ran (or a fresh answer it reused) for an appointment (docs/api.md, Appointments). ' +
      'The body is exactly the bytes of `GET /api/auth/v1/appointments/{external_id}/` at that ' +
      'moment, for every webhook `version`.',
    payload: ref('AppointmentResponse'),
  },
  {
    type: 'appointment.coverage_changed',
    summary: "An appointment's coverage differs from its previous check",
    description:
      'Sent with `appointment.checked` when the answer differs from the previous one: the ' +
      "state, or a benefit's availability, copay or allowance; `coverage.changes` lists each " +
      "field with `before` and `after`. The body is exactly the bytes of the appointment's GET " +
      'at that moment, for every webhook `version`.',
    payload: ref('AppointmentResponse'),
  },
];

/** Every `X-Event-Type` the service sends (the `event` of a delivery in the log). */
export const WEBHOOK_EVENT_TYPES: readonly string[] = WEBHOOK_EVENTS.map((e) => e.type);
