import { Foundation1763750000000 } from './1763750000000-Foundation';
import { Eligibility1763755000000 } from './1763755000000-Eligibility';
import { PatientsClaims1763760000000 } from './1763760000000-PatientsClaims';
import { Webhooks1763770000000 } from './1763770000000-Webhooks';
import { PatientLinks1763780000000 } from './1763780000000-PatientLinks';
import { WebApp1763800000000 } from './1763800000000-WebApp';
import { EligibilityOutcomes1795321568826 } from './1795321568826-EligibilityOutcomes';
import { QueueLeases1795322089173 } from './1795322089173-QueueLeases';
import { DeliveriesMillisecond1795322478917 } from './1795322478917-DeliveriesMillisecond';
import { TwoFactor1795322326222 } from './1795322326222-TwoFactor';
import { WebhookEvents1795325039455 } from './1795325039455-WebhookEvents';
import { ProviderIdentityExchanges1795325134996 } from './1795325134996-ProviderIdentityExchanges';
import { PatientDataProtection1795325219572 } from './1795325219572-PatientDataProtection';
import { ClaimLifecycle1795325576421 } from './1795325576421-ClaimLifecycle';
import { EligibilityBatches1795325462788 } from './1795325462788-EligibilityBatches';
import { Lz4Bodies1795341000000 } from './1795341000000-Lz4Bodies';
import { PaperClaimRoute1795484198607 } from './1795484198607-PaperClaimRoute';
import { ErrorDetailInStoredBodies1795490000000 } from './1795490000000-ErrorDetailInStoredBodies';
import { ClearinghouseReadyClaims1795490200000 } from './1795490200000-ClearinghouseReadyClaims';
import { EmbeddedSessionsBound1795492727000 } from './1795492727000-EmbeddedSessionsBound';
import { WebUsers1795495000000 } from './1795495000000-WebUsers';
import { ClaimResponses1795500290000 } from './1795500290000-ClaimResponses';
import { AssistedVerification1795510000000 } from './1795510000000-AssistedVerification';
import { ServiceProcesses1795520000000 } from './1795520000000-ServiceProcesses';
import { SearchRowsWithoutAccountLocks1795530000000 } from './1795530000000-SearchRowsWithoutAccountLocks';
import { PlansStoredOnce1795540000000 } from './1795540000000-PlansStoredOnce';
import { ClaimReportUploadsIndex1795545000000 } from './1795545000000-ClaimReportUploadsIndex';
import { MailLinksSealed1795550000000 } from './1795550000000-MailLinksSealed';
import { X12ControlNumbers1795551000000 } from './1795551000000-X12ControlNumbers';
import { OperatorAuditActor1795551234000 } from './1795551234000-OperatorAuditActor';
import { PolledReportsPerAccount1795552000000 } from './1795552000000-PolledReportsPerAccount';
import { VerifiedPersonsPartial1795556000000 } from './1795556000000-VerifiedPersonsPartial';
import { InsurerByInsurer1795560000000 } from './1795560000000-InsurerByInsurer';
import { PlanDesigns1795561000000 } from './1795561000000-PlanDesigns';
import { SandboxRepeats1795561500000 } from './1795561500000-SandboxRepeats';
import { Appointments1795562000000 } from './1795562000000-Appointments';
import { AppointmentChecks1795563000000 } from './1795563000000-AppointmentChecks';
import { ScheduleEntryPoint1795564000000 } from './1795564000000-ScheduleEntryPoint';
import { PatientBenefitHistory1795565000000 } from './1795565000000-PatientBenefitHistory';
import { InsurerExchangesByAccountTime1795566000000 } from './1795566000000-InsurerExchangesByAccountTime';
import { AppointmentsStoredBy1795567300000 } from './1795567300000-AppointmentsStoredBy';
import { InvitationsAcrossAccounts1795567400000 } from './1795567400000-InvitationsAcrossAccounts';
import { WebhookNonstandardPort1795567500000 } from './1795567500000-WebhookNonstandardPort';
import { WebSessionsInPostgres1795568000000 } from './1795568000000-WebSessionsInPostgres';
import { AppointmentCoverageOutcome1795569100000 } from './1795569100000-AppointmentCoverageOutcome';
import { LocationTimeZone1795569200000 } from './1795569200000-LocationTimeZone';
import { Quotes1795569700000 } from './1795569700000-Quotes';
import { PlanDesignMaterials1795569900000 } from './1795569900000-PlanDesignMaterials';
import { QuoteEntryPoint1795570100000 } from './1795570100000-QuoteEntryPoint';

/** Every migration, in order. Listed explicitly so ts (tests, CLI) and js (dist) load the same set. */
export const migrations = [
  Foundation1763750000000,
  Eligibility1763755000000,
  PatientsClaims1763760000000,
  Webhooks1763770000000,
  PatientLinks1763780000000,
  WebApp1763800000000,
  EligibilityOutcomes1795321568826,
  QueueLeases1795322089173,
  DeliveriesMillisecond1795322478917,
  TwoFactor1795322326222,
  WebhookEvents1795325039455,
  ProviderIdentityExchanges1795325134996,
  PatientDataProtection1795325219572,
  ClaimLifecycle1795325576421,
  EligibilityBatches1795325462788,
  Lz4Bodies1795341000000,
  PaperClaimRoute1795484198607,
  ErrorDetailInStoredBodies1795490000000,
  ClearinghouseReadyClaims1795490200000,
  EmbeddedSessionsBound1795492727000,
  WebUsers1795495000000,
  ClaimResponses1795500290000,
  AssistedVerification1795510000000,
  ServiceProcesses1795520000000,
  SearchRowsWithoutAccountLocks1795530000000,
  PlansStoredOnce1795540000000,
  ClaimReportUploadsIndex1795545000000,
  MailLinksSealed1795550000000,
  X12ControlNumbers1795551000000,
  OperatorAuditActor1795551234000,
  PolledReportsPerAccount1795552000000,
  VerifiedPersonsPartial1795556000000,
  InsurerByInsurer1795560000000,
  PlanDesigns1795561000000,
  SandboxRepeats1795561500000,
  Appointments1795562000000,
  AppointmentChecks1795563000000,
  ScheduleEntryPoint1795564000000,
  PatientBenefitHistory1795565000000,
  InsurerExchangesByAccountTime1795566000000,
  AppointmentsStoredBy1795567300000,
  InvitationsAcrossAccounts1795567400000,
  WebhookNonstandardPort1795567500000,
  WebSessionsInPostgres1795568000000,
  AppointmentCoverageOutcome1795569100000,
  LocationTimeZone1795569200000,
  Quotes1795569700000,
  PlanDesignMaterials1795569900000,
  QuoteEntryPoint1795570100000,
];
