import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { errorAnswer } from '@/platform/http/http-exception.filter';
import { DomainError } from '@/platform/kernel/errors';
import type { AppRequest } from '@/platform/kernel/request-context';
import { operationOutcome } from '../domain/operation-outcome';
import { FHIR_JSON } from '../domain/fhir.constants';

/**
 * The FHIR door's errors (docs/api.md, FHIR R4): the status the JSON API gives the same error,
 * its words as an OperationOutcome, `application/fhir+json`.
 */
@Catch()
export class OperationOutcomeFilter implements ExceptionFilter {
  private readonly logger = new Logger('FhirError');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<AppRequest>();
    if (res.headersSent) return;
    const [status, body] = errorAnswer(exception, req, this.logger);
    if (exception instanceof DomainError && exception.headers)
      for (const [name, value] of Object.entries(exception.headers)) res.setHeader(name, value);
    res
      .status(status)
      .type(FHIR_JSON)
      .send(JSON.stringify(operationOutcome(status, body)));
  }
}
