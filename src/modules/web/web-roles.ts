import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import type { Request } from 'express';
import { ForbiddenError } from '@/platform/kernel/errors';

export const ADMIN_ONLY = 'vision:adminOnly';

export const ADMIN_ONLY_MESSAGE = 'Only an admin of the account can open this page.';

/** Refuses a signed-in user who is not an admin of the account (403 page). */
@Injectable()
export class AdminOnlyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    // Signed-out requests never get here (requireSignIn answers them first); without a role,
    // nothing is granted.
    if (req.session?.role !== 'admin') throw new ForbiddenError(ADMIN_ONLY_MESSAGE);
    return true;
  }
}

/**
 * SECURITY.md: the page (a controller, or one route) is for the account's admins; `staff`
 * gets 403. Staff work with patients, checks, claims, estimates and batches; API keys,
 * webhooks, users, settings, locations, insurer settings and passwords, and the audit trail are
 * the admins'. The layout hides those links from staff (`user.role`).
 */
export const AdminOnly = (): ClassDecorator & MethodDecorator =>
  applyDecorators(SetMetadata(ADMIN_ONLY, true), UseGuards(AdminOnlyGuard));
