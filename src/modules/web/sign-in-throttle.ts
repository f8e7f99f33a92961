import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { WindowCounts } from '@/platform/db/window-counts.repository';

const MAX_FAILURES_PER_SUBJECT = 5;
/** Failures one address may make against one subject before it is refused unchecked. */
const MAX_FAILURES_PER_ADDRESS_AND_SUBJECT = 5;
/** The same, while the account is past its own limit (guessed at from many addresses). */
const MAX_FAILURES_PER_ADDRESS_UNDER_ATTACK = 2;
const MAX_FAILURES_PER_IP = 30;
/** "Forgot password" requests one address may make in the window (an office shares one). */
const MAX_RESET_REQUESTS_PER_IP = 10;
export const FAILURE_WINDOW_SECONDS = 15 * 60;

/** Progressive delay: attempts beyond these cost time before they are checked. */
const FREE_SUBJECT_ATTEMPTS = 2;
const FREE_IP_ATTEMPTS = 10;
const SUBJECT_DELAY_MS = 250;
const IP_DELAY_MS = 100;
const MAX_DELAY_MS = 3_000;

/**
 * Whose failures are counted: a password's e-mail (sign-in), a second-factor code's user, or
 * the current password of a signed-in user's change-password form.
 */
export type ThrottleSubject = { email: string } | { userId: string } | { passwordOf: string };

/** What the throttle decided for one attempt, before its answer is checked. */
export interface SignInAttempt {
  /** Refuse (429) without checking the answer. */
  refused: boolean;
  /**
   * The client IP is past its limit: a wrong answer is refused as throttled (429), but a right
   * one still passes. Many people share an IP (an office, a proxy); an attacker's count must not
   * lock them all out (SECURITY.md).
   */
  ipOverLimit: boolean;
  /** How long the attempt waits before it is checked (progressive delay). */
  delayMs: number;
}

/**
 * Attempts (passwords, two-factor codes, current passwords) counted in PostgreSQL (docs/configuration.md, Database and Redis)
 * per subject, per client IP and per subject and IP together over a 15-minute window that each
 * attempt starts again. Counted before they are checked (SECURITY.md): one atomic upsert per
 * attempt, so of 20 parallel guesses from one address only the first five are checked at all,
 * the rest are refused unseen.
 *
 * A sign-in e-mail is never locked on its own count: anyone can send its guesses, and a hard
 * lock would let a stranger lock the owner out. Its count slows every attempt (progressive
 * delay) and, past its limit, leaves each address two tries instead of five; the right password
 * from an address that has not been guessing still signs in. A second factor or a current
 * password is only ever tried by someone past the password, so those subjects are refused past
 * their own limit. A successful attempt takes its address's failures back off the subject.
 */
@Injectable()
export class SignInThrottle {
  constructor(private readonly counts: WindowCounts) {}

  /** Counts the attempt, waits out its delay, and says whether it may be checked. */
  async begin(subject: ThrottleSubject, ip: string | undefined): Promise<SignInAttempt> {
    const [subjectCount, ipCount, pairCount] = (
      await this.counts.raise(
        [subjectKey(subject), ipKey(ip), pairKey(subject, ip)],
        FAILURE_WINDOW_SECONDS,
        true,
      )
    ).map((c) => c.count);
    const subjectOverLimit = subjectCount > MAX_FAILURES_PER_SUBJECT;
    const refused =
      'email' in subject
        ? pairCount >
          (subjectOverLimit
            ? MAX_FAILURES_PER_ADDRESS_UNDER_ATTACK
            : MAX_FAILURES_PER_ADDRESS_AND_SUBJECT)
        : subjectOverLimit || pairCount > MAX_FAILURES_PER_ADDRESS_AND_SUBJECT;
    const attempt: SignInAttempt = {
      refused,
      ipOverLimit: ipCount > MAX_FAILURES_PER_IP,
      delayMs: Math.min(
        MAX_DELAY_MS,
        Math.max(
          subjectCount > FREE_SUBJECT_ATTEMPTS
            ? SUBJECT_DELAY_MS * 2 ** Math.min(16, subjectCount - FREE_SUBJECT_ATTEMPTS - 1)
            : 0,
          ipCount > FREE_IP_ATTEMPTS ? IP_DELAY_MS * (ipCount - FREE_IP_ATTEMPTS) : 0,
        ),
      ),
    };
    if (!attempt.refused && attempt.delayMs > 0) await sleep(attempt.delayMs);
    return attempt;
  }

  /**
   * The attempt was right: it was no failure, and neither were this address's earlier tries at
   * the subject (the owner's own typing). Other addresses' failures stay counted.
   */
  async succeeded(subject: ThrottleSubject, ip: string | undefined): Promise<void> {
    const own = await this.counts.take(pairKey(subject, ip));
    await this.counts.lower(
      new Map([
        [subjectKey(subject), Math.max(1, own)],
        [ipKey(ip), 1],
      ]),
    );
  }

  /**
   * The attempt was never checked (every hashing slot was taken): it counts against nobody, so
   * a busy moment cannot lock a person out.
   */
  async withdraw(subject: ThrottleSubject, ip: string | undefined): Promise<void> {
    const keys = [subjectKey(subject), ipKey(ip), pairKey(subject, ip)];
    await this.counts.lower(new Map(keys.map((k) => [k, 1])));
  }

  /**
   * Counts one "forgot password" request from the address: past MAX_RESET_REQUESTS_PER_IP in
   * the window it is refused, with the seconds until the window ends. Counted per address
   * whatever the e-mail, known or not, so the answer says nothing about it.
   */
  async resetRequest(
    ip: string | undefined,
  ): Promise<{ refused: boolean; retryAfterSeconds: number }> {
    const [{ count, secondsLeft }] = await this.counts.raise(
      [`reset-request:ip:${ip ?? 'unknown'}`],
      FAILURE_WINDOW_SECONDS,
      false,
    );
    return {
      refused: count > MAX_RESET_REQUESTS_PER_IP,
      retryAfterSeconds: Math.max(1, secondsLeft),
    };
  }

  /** Whether the subject's limit is reached now (no attempt counted). */
  async isBlocked(subject: ThrottleSubject): Promise<boolean> {
    return (await this.counts.count(subjectKey(subject))) >= MAX_FAILURES_PER_SUBJECT;
  }

  async clear(subject: ThrottleSubject): Promise<void> {
    await this.counts.delete(subjectKey(subject));
  }
}

function subjectKey(subject: ThrottleSubject): string {
  if ('email' in subject) return `login-fail:email:${subject.email}`;
  if ('userId' in subject) return `2fa-fail:user:${subject.userId}`;
  return `pw-change-fail:user:${subject.passwordOf}`;
}

function ipKey(ip: string | undefined): string {
  return `login-fail:ip:${ip ?? 'unknown'}`;
}

function pairKey(subject: ThrottleSubject, ip: string | undefined): string {
  return `${subjectKey(subject)}:ip:${ip ?? 'unknown'}`;
}
