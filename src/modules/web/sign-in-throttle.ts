import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { InjectRedis } from '@/modules/redis';

const MAX_FAILURES_PER_SUBJECT = 5;
const MAX_FAILURES_PER_IP = 30;
export const FAILURE_WINDOW_SECONDS = 15 * 60;

/** Progressive delay: attempts beyond these cost time before they are checked. */
const FREE_SUBJECT_ATTEMPTS = 2;
const FREE_IP_ATTEMPTS = 10;
const SUBJECT_DELAY_MS = 250;
const IP_DELAY_MS = 100;
const MAX_DELAY_MS = 3_000;

/** Whose failures are counted: a password's e-mail, or a second-factor code's user. */
export type ThrottleSubject = { email: string } | { userId: string };

/** What the throttle decided for one attempt, before its answer is checked. */
export interface SignInAttempt {
  /** The subject's limit is reached: refuse (429) without checking the answer. */
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
 * Sign-in steps (passwords, two-factor codes) counted in Redis per subject and per client IP over
 * a 15-minute window. Counted before they are checked (SECURITY.md): INCR is atomic, so of 20
 * parallel guesses only the first five are checked at all, the rest are refused unseen. A
 * successful attempt takes itself back off both counts and clears the subject's.
 */
@Injectable()
export class SignInThrottle {
  constructor(@InjectRedis() private readonly redis: Redis) {}

  /** Counts the attempt, waits out its delay, and says whether it may be checked. */
  async begin(subject: ThrottleSubject, ip: string | undefined): Promise<SignInAttempt> {
    const key = subjectKey(subject);
    const byIp = ipKey(ip);
    const replies = await this.redis
      .multi()
      .incr(key)
      .expire(key, FAILURE_WINDOW_SECONDS)
      .incr(byIp)
      .expire(byIp, FAILURE_WINDOW_SECONDS)
      .exec();
    const subjectCount = Number(replies?.[0]?.[1] ?? 0);
    const ipCount = Number(replies?.[2]?.[1] ?? 0);
    const attempt: SignInAttempt = {
      refused: subjectCount > MAX_FAILURES_PER_SUBJECT,
      ipOverLimit: ipCount > MAX_FAILURES_PER_IP,
      delayMs: Math.min(
        MAX_DELAY_MS,
        Math.max(
          subjectCount > FREE_SUBJECT_ATTEMPTS
            ? SUBJECT_DELAY_MS * 2 ** (subjectCount - FREE_SUBJECT_ATTEMPTS - 1)
            : 0,
          ipCount > FREE_IP_ATTEMPTS ? IP_DELAY_MS * (ipCount - FREE_IP_ATTEMPTS) : 0,
        ),
      ),
    };
    if (!attempt.refused && attempt.delayMs > 0) await sleep(attempt.delayMs);
    return attempt;
  }

  /** The attempt was right: it was no failure. */
  async succeeded(subject: ThrottleSubject, ip: string | undefined): Promise<void> {
    const byIp = ipKey(ip);
    const [[, left]] = (await this.redis.multi().decr(byIp).del(subjectKey(subject)).exec()) as [
      [unknown, number],
    ];
    if (left <= 0) await this.redis.del(byIp);
  }

  /**
   * The attempt was never checked (every hashing slot was taken): it counts against nobody, so
   * a busy moment cannot lock a person out.
   */
  async withdraw(subject: ThrottleSubject, ip: string | undefined): Promise<void> {
    const key = subjectKey(subject);
    const byIp = ipKey(ip);
    const replies = await this.redis.multi().decr(key).decr(byIp).exec();
    const [subjectLeft, ipLeft] = [Number(replies?.[0]?.[1]), Number(replies?.[1]?.[1])];
    const drop = [subjectLeft <= 0 ? key : null, ipLeft <= 0 ? byIp : null].filter(
      (k): k is string => k !== null,
    );
    if (drop.length > 0) await this.redis.del(...drop);
  }

  /** Whether the subject's limit is reached now (no attempt counted). */
  async isBlocked(subject: ThrottleSubject): Promise<boolean> {
    return Number(await this.redis.get(subjectKey(subject))) >= MAX_FAILURES_PER_SUBJECT;
  }

  async clear(subject: ThrottleSubject): Promise<void> {
    await this.redis.del(subjectKey(subject));
  }
}

function subjectKey(subject: ThrottleSubject): string {
  return 'email' in subject
    ? `login-fail:email:${subject.email}`
    : `2fa-fail:user:${subject.userId}`;
}

function ipKey(ip: string | undefined): string {
  return `login-fail:ip:${ip ?? 'unknown'}`;
}
