import { Injectable } from '@nestjs/common';
import { escapeHtml } from '@/platform/kernel/html';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import {
  type UserRole,
  UsersService,
  type UserSummary,
  WrongCurrentPassword,
} from '@/modules/accounts';
import {
  type AuditContext,
  AuditService,
  type SecurityAction,
  securityEvent,
} from '@/modules/audit';
import { MAIL_LINK, MailService } from '@/modules/mail';
import { WebSessions } from './web-sessions';

/**
 * What the people pages do (SECURITY.md), each step with its e-mail, its audit event and its
 * effect on sessions: invitations and reset links go out through the mail outbox, any password
 * change and any disabling ends the user's other sessions at once.
 */
@Injectable()
export class UserAccessService {
  constructor(
    private readonly users: UsersService,
    private readonly mail: MailService,
    private readonly audit: AuditService,
    private readonly sessions: WebSessions,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async invite(ctx: AuditContext, email: string, role: UserRole): Promise<UserSummary> {
    const { user, token } = await this.users.invite(ctx.actor.accountId, email, role);
    await this.record(ctx, 'user', 'invite', user);
    await this.sendInvitation(user, token, ctx.actor.name);
    return user;
  }

  async reinvite(ctx: AuditContext, userId: string): Promise<UserSummary> {
    const { user, token } = await this.users.reinvite(ctx.actor.accountId, userId);
    await this.record(ctx, 'user', 'invite', user);
    await this.sendInvitation(user, token, ctx.actor.name);
    return user;
  }

  async changeRole(ctx: AuditContext, userId: string, role: UserRole): Promise<UserSummary> {
    const user = await this.users.changeRole(ctx.actor.accountId, userId, role);
    await this.record(ctx, 'user', 'update', user);
    return user;
  }

  async setDisabled(ctx: AuditContext, userId: string, disabled: boolean): Promise<UserSummary> {
    const user = await this.users.setDisabled(ctx.actor.accountId, userId, disabled);
    if (disabled) await this.sessions.endOthers(user.id, null);
    await this.record(ctx, 'user', disabled ? 'disable' : 'enable', user);
    return user;
  }

  /** The signed-in user's own change; the session `keepSid` stays open, the others end. */
  async changePassword(
    ctx: AuditContext,
    current: string,
    next: string,
    keepSid: string,
  ): Promise<UserSummary> {
    const user = await this.users
      .changePassword(ctx.actor.userId!, current, next)
      .catch(async (e: unknown) => {
        if (e instanceof WrongCurrentPassword)
          await this.audit.record(securityEvent(ctx, 'password', 'change_failed', ctx.actor.name));
        throw e;
      });
    await this.sessions.endOthers(user.id, keepSid);
    await this.record(ctx, 'password', 'change', user);
    return user;
  }

  /** Ends one of the signed-in user's sessions (by its handle); false when it had ended. */
  async endSession(ctx: AuditContext, handle: string): Promise<boolean> {
    const ended = await this.sessions.end(ctx.actor.userId!, handle);
    if (ended) await this.audit.record(securityEvent(ctx, 'session', 'end', handle));
    return ended;
  }

  /**
   * "Sign out everywhere": every session of the user ends, this one included, and so do the
   * user's open reset links.
   */
  async endAllSessions(ctx: AuditContext): Promise<void> {
    const userId = ctx.actor.userId!;
    await this.users.endAllSessions(userId);
    await this.sessions.endOthers(userId, null);
    await this.audit.record(securityEvent(ctx, 'session', 'end_all', null));
  }

  /** Mails a reset link when the e-mail belongs to a user who can sign in; silent otherwise. */
  async forgotPassword(email: string): Promise<void> {
    const found = await this.users.requestPasswordReset(email);
    if (!found) return;
    const { user, token } = found;
    await this.mailLink(user, 'password_reset', `reset?token=${token}`, {
      subject: 'Reset your Vision Eligibility password',
      text: [
        'Someone asked to reset the password of your Vision Eligibility sign-in.',
        `Choose a new password here (the link works once, for one hour): ${MAIL_LINK}`,
        'If it was not you, ignore this e-mail: your password stays as it is.',
      ].join('\n\n'),
      html: [
        '<p>Someone asked to reset the password of your Vision Eligibility sign-in.</p>',
        `<p><a href="${MAIL_LINK}">Choose a new password</a> (the link works once, for one hour).</p>`,
        '<p>If it was not you, ignore this e-mail: your password stays as it is.</p>',
      ].join('\n'),
    });
  }

  /**
   * Sets the password from an invitation or reset link (single use); the user's sessions end.
   * Null when the link is unknown, used or expired. `contextOf` names the user as the actor of
   * the request (the audit module's userContext).
   */
  async redeem(
    purpose: 'invitation' | 'password_reset',
    token: string,
    password: string,
    contextOf: (user: UserSummary) => AuditContext,
  ): Promise<UserSummary | null> {
    const user = await this.users.redeemToken(purpose, token, password);
    if (!user) return null;
    await this.sessions.endOthers(user.id, null);
    await this.record(
      contextOf(user),
      purpose === 'invitation' ? 'user' : 'password',
      purpose === 'invitation' ? 'accept' : 'reset',
      user,
    );
    return user;
  }

  private record(
    ctx: AuditContext,
    type: 'user' | 'password',
    action: SecurityAction,
    user: UserSummary,
  ): Promise<void> {
    return this.audit.record(securityEvent(ctx, type, action, user.email));
  }

  private async sendInvitation(user: UserSummary, token: string, invitedBy: string) {
    await this.mailLink(user, 'user_invitation', `invitation?token=${token}`, {
      subject: 'You are invited to Vision Eligibility',
      text: [
        `${invitedBy} invited you to sign in to Vision Eligibility as ${user.role}.`,
        `Set your password here (the link works once, for 72 hours): ${MAIL_LINK}`,
      ].join('\n\n'),
      html: [
        `<p>${escapeHtml(invitedBy)} invited you to sign in to Vision Eligibility as ${user.role}.</p>`,
        `<p><a href="${MAIL_LINK}">Set your password</a> (the link works once, for 72 hours).</p>`,
      ].join('\n'),
    });
  }

  /**
   * Mails the user a sign-in link (`/app/login/<path>`). The link goes to the recipient only:
   * the stored bodies say MAIL_LINK in its place.
   */
  private mailLink(
    user: UserSummary,
    kind: 'password_reset' | 'user_invitation',
    path: string,
    message: { subject: string; text: string; html: string },
  ): Promise<unknown> {
    return this.mail.enqueue({
      accountId: user.accountId,
      kind,
      ref: null,
      to: user.email,
      ...message,
      link: `${this.config.publicUrl}/app/login/${path}`,
    });
  }
}
