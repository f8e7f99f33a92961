import { Account } from '@/modules/accounts/account.entity';
import { Location } from '@/modules/accounts/location.entity';
import { RecoveryCode } from '@/modules/accounts/recovery-code.entity';
import { UserToken } from '@/modules/accounts/user-token.entity';
import { User } from '@/modules/accounts/user.entity';
import { ApiKey } from '@/modules/auth/api-key.entity';
import { AuditEvent } from '@/modules/audit/audit-event.entity';
import { EligibilityBatch } from '@/modules/eligibility/batch.entity';
import { EligibilityRequest } from '@/modules/eligibility/eligibility-request.entity';
import {
  EligibilityPerson,
  EligibilityResult,
} from '@/modules/eligibility/eligibility-result.entity';
import { ClaimServiceLine } from '@/modules/claims/claim-service-line.entity';
import { Claim } from '@/modules/claims/claim.entity';
import { ClaimReport } from '@/modules/claims/reports/claim-report.entity';
import { Remittance } from '@/modules/claims/reports/remittance.entity';
import { MailMessage } from '@/modules/mail/mail-message.entity';
import { Patient } from '@/modules/patients/patient.entity';
import { VerificationTask } from '@/modules/verification/verification-task.entity';
import { Webhook, WebhookAttempt, WebhookDelivery } from '@/modules/webhooks/webhook.entity';

/** Every entity, listed once for the app and the migration CLI. */
export const entities = [
  Account,
  Location,
  User,
  RecoveryCode,
  UserToken,
  ApiKey,
  AuditEvent,
  EligibilityBatch,
  EligibilityRequest,
  EligibilityResult,
  EligibilityPerson,
  Patient,
  Claim,
  ClaimServiceLine,
  ClaimReport,
  Remittance,
  MailMessage,
  VerificationTask,
  Webhook,
  WebhookDelivery,
  WebhookAttempt,
];
