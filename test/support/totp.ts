import { Secret, TOTP } from 'otpauth';

const PERIOD_MS = 30_000;

function currentStep(): number {
  return Math.floor(Date.now() / PERIOD_MS);
}

/**
 * An authenticator app for tests, computing codes from the secret the enrolment page shows with
 * the same library as the service. The service accepts each time step once (no replay) and one
 * step either side of its clock, so each code is for a step not used yet: the current one, else
 * the next; only a third code within one 30-second step waits for the step to turn.
 */
export class TestAuthenticator {
  private lastStep = -1;

  constructor(readonly secret: string) {}

  async code(): Promise<string> {
    let step = Math.max(currentStep(), this.lastStep + 1);
    while (step > currentStep() + 1) {
      await new Promise((r) => setTimeout(r, (currentStep() + 1) * PERIOD_MS - Date.now() + 50));
      step = Math.max(currentStep(), this.lastStep + 1);
    }
    this.lastStep = step;
    return this.codeAt(step);
  }

  /** Six digits that match none of the steps the service could accept now. */
  wrongCode(): string {
    const near = new Set([-2, -1, 0, 1, 2].map((d) => this.codeAt(currentStep() + d)));
    for (let n = 0; ; n++) {
      const candidate = String((123456 + n * 7919) % 1_000_000).padStart(6, '0');
      if (!near.has(candidate)) return candidate;
    }
  }

  private codeAt(step: number): string {
    return TOTP.generate({
      secret: Secret.fromBase32(this.secret),
      timestamp: step * PERIOD_MS,
    });
  }
}
