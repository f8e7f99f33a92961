import { Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { InjectRedis } from '@/modules/redis/redis.module';

const MAX_FAILURES_PER_SUBJECT = 5;
const MAX_FAILURES_PER_IP = 30;
export const FAILURE_WINDOW_SECONDS = 15 * 60;

/** Whose failures are counted: a password's e-mail, or a second-factor code's user. */
export type ThrottleSubject = { email: string } | { userId: string };

/**
 * Failed sign-in steps (wrong passwords, wrong two-factor codes) counted in Redis per subject and
 * per client IP, over a 15-minute window. Wrong codes and wrong passwords share the IP count.
 */
@Injectable()
export class SignInThrottle {
  constructor(@InjectRedis() private readonly redis: Redis) {}

  async isBlocked(subject: ThrottleSubject, ip: string | undefined): Promise<boolean> {
    const [subjectFailures, ipFailures] = await Promise.all([
      this.redis.get(subjectKey(subject)),
      this.redis.get(ipKey(ip)),
    ]);
    return (
      Number(subjectFailures) >= MAX_FAILURES_PER_SUBJECT ||
      Number(ipFailures) >= MAX_FAILURES_PER_IP
    );
  }

  async recordFailure(subject: ThrottleSubject, ip: string | undefined): Promise<void> {
    const key = subjectKey(subject);
    const byIp = ipKey(ip);
    await this.redis
      .multi()
      .incr(key)
      .expire(key, FAILURE_WINDOW_SECONDS)
      .incr(byIp)
      .expire(byIp, FAILURE_WINDOW_SECONDS)
      .exec();
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
