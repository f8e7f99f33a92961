import type { ClaimStatusLine } from '@/lib/x12/x277.reader';
import { retryDelayMs } from '@/platform/kernel/retry';
import type { ClaimStatus } from '../store/claim.entity';
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

  type Move = [from: ClaimStatus, to: ClaimStatus];
  it.each<{ title: string; allowed: Move[]; refused: Move[] }>([
    {
      title: 'only moves forward along the arrows',
      allowed: [
        ['ready', 'submitted'],
        ['submission_failed', 'submitted'],
        ['submitted', 'paid'],
        ['accepted', 'paid'],
      ],
      refused: [
        ['accepted', 'submitted'],
        ['paid', 'denied'],
        ['rejected', 'accepted'],
      ],
    },
    {
      title:
        'lets a paper claim wait ready_to_mail, and leave it only to submitted (docs/api.md, Errors)',
      allowed: [
        ['ready', 'ready_to_mail'],
        ['ready_to_mail', 'submitted'],
      ],
      refused: [
        ['ready_to_mail', 'ready_to_mail'],
        ['ready_to_mail', 'accepted'],
        ['ready_to_mail', 'submission_failed'],
        ['submitted', 'ready_to_mail'],
      ],
    },
    {
      title:
        'reverses a paid or denied claim and lets a later 835 decide again (docs/api.md, Claim reports and remittances)',
      allowed: [
        ['paid', 'reversed'],
        ['denied', 'reversed'],
        ['reversed', 'paid'],
        ['reversed', 'denied'],
        ['accepted', 'rejected'],
      ],
      refused: [
        ['submitted', 'reversed'],
        ['accepted', 'reversed'],
        ['reversed', 'reversed'],
        ['rejected', 'reversed'],
      ],
    },
  ])('$title', ({ allowed, refused }) => {
    // The moves that answer wrongly, so a failure names them.
    expect(allowed.filter(([from, to]) => !canMove(from, to))).toEqual([]);
    expect(refused.filter(([from, to]) => canMove(from, to))).toEqual([]);
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
