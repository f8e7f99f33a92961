import { Injectable } from '@nestjs/common';

/**
 * What retention needs of the module that owns eligibility answers, declared here and bound by
 * it at start-up (the eligibility module), so that audit imports nothing of eligibility: the
 * answer a purged request gives from then on.
 */
export interface PurgedAnswersPort {
  purgedBody(uid: string, status: string, errorCode: string | null): string;
}

/** The port's one binding. */
@Injectable()
export class PurgedAnswers implements PurgedAnswersPort {
  private port: PurgedAnswersPort | null = null;

  bind(port: PurgedAnswersPort): void {
    this.port = port;
  }

  purgedBody(uid: string, status: string, errorCode: string | null): string {
    if (!this.port) throw new Error('No purged answer is bound for retention (EligibilityModule).');
    return this.port.purgedBody(uid, status, errorCode);
  }
}
