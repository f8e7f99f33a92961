import type { ClaimStatusLine } from '@/modules/x12/x277.reader';
import { retryDelayMs } from '@/common/retry';
import { canMove, describe277, statusFrom277, submitRetries } from './claim-lifecycle';

const stc = (category: string, paymentAmount: string | null = null): ClaimStatusLine => ({
  category,
  code: '20',
  entity: 'PR',
  date: null,
  totalCharge: null,
  paymentAmount,
  message: '',
});

describe('claim lifecycle (docs/api.md, Claim lifecycle)', () => {
  it.each([
    ['A1', null],
    ['A4', null],
    ['E0', null],
    ['A2', 'accepted'],
    ['P1', 'accepted'],
    ['R4', 'accepted'],
    ['A3', 'rejected'],
    ['A7', 'rejected'],
    ['F1', 'paid'],
    ['F2', 'denied'],
    ['F4', 'denied'],
  ])('reads 277 category %s as %s', (category, status) => {
    expect(statusFrom277(stc(category))).toBe(status);
  });

  it('reads a finalized claim as paid only when an amount was paid', () => {
    expect(statusFrom277(stc('F0', '120.5'))).toBe('paid');
    expect(statusFrom277(stc('F0', '0'))).toBe('denied');
    expect(statusFrom277(stc('F3'))).toBe('denied');
  });

  it('only moves forward along the arrows', () => {
    expect(canMove('ready', 'submitted')).toBe(true);
    expect(canMove('submission_failed', 'submitted')).toBe(true);
    expect(canMove('submitted', 'paid')).toBe(true);
    expect(canMove('accepted', 'paid')).toBe(true);
    expect(canMove('accepted', 'submitted')).toBe(false);
    expect(canMove('paid', 'denied')).toBe(false);
    expect(canMove('rejected', 'accepted')).toBe(false);
  });

  it('lets a paper claim wait ready_to_mail, and leave it only to submitted (docs/api.md, Errors)', () => {
    expect(canMove('ready', 'ready_to_mail')).toBe(true);
    expect(canMove('ready_to_mail', 'submitted')).toBe(true);
    expect(canMove('ready_to_mail', 'ready_to_mail')).toBe(false);
    expect(canMove('ready_to_mail', 'accepted')).toBe(false);
    expect(canMove('ready_to_mail', 'submission_failed')).toBe(false);
    expect(canMove('submitted', 'ready_to_mail')).toBe(false);
  });

  it('reverses a paid or denied claim and lets a later 835 decide again (docs/api.md, Claim reports and remittances)', () => {
    expect(canMove('paid', 'reversed')).toBe(true);
    expect(canMove('denied', 'reversed')).toBe(true);
    expect(canMove('reversed', 'paid')).toBe(true);
    expect(canMove('reversed', 'denied')).toBe(true);
    expect(canMove('submitted', 'reversed')).toBe(false);
    expect(canMove('accepted', 'reversed')).toBe(false);
    expect(canMove('reversed', 'reversed')).toBe(false);
    expect(canMove('accepted', 'rejected')).toBe(true);
    expect(canMove('rejected', 'reversed')).toBe(false);
  });

  it('doubles the retry delay each attempt', () => {
    const policy = submitRetries({ submitRetryBaseMs: 100, submitMaxAttempts: 4 });
    expect([1, 2, 3, 4].map((a) => retryDelayMs(policy, a))).toEqual([100, 200, 400, null]);
  });

  it('describes a status with its codes in words, payment and message', () => {
    expect(describe277({ ...stc('F1', '250'), code: '65', message: 'Paid in full' })).toBe(
      '277 F1:65 (Finalized/Payment-The claim/line has been paid.; Claim/line has been paid.), paid 250: Paid in full',
    );
    expect(describe277({ ...stc('A2'), code: '9999' })).toBe(
      '277 A2:9999 (Acknowledgement/Acceptance into adjudication system-The claim/encounter has been accepted into the adjudication system.; Unknown code 9999)',
    );
  });
});
