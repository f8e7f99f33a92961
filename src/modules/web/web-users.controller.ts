import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { ErrorTree } from '@/common/errors';
import { type UserRole, UsersService } from '@/modules/accounts';
import { type AuditContext, auditContextOf } from '@/modules/audit';
import { ChangeRoleDto, InviteUserDto } from './dto/users.dto';
import { bindForm, formFields, submitForm } from './forms';
import { UserAccessService } from './user-access.service';
import { accountOf, redirectAfter, redirectWith, renderPage, webUser } from './web-context';
import { AdminOnly } from './web-roles';

/** The signed-in admin as the audit trail names them. */
function actor(req: Request): AuditContext {
  const ctx = auditContextOf(req);
  if (!ctx) throw new Error('A signed-in page was served without an actor.');
  return ctx;
}

/**
 * The account's people (SECURITY.md): invite by e-mail with a role, change roles, disable and
 * enable, send an invitation again. Admins only.
 */
@ApiExcludeController()
@AdminOnly()
@Controller('app/users')
export class WebUsersController {
  constructor(
    private readonly users: UsersService,
    private readonly access: UserAccessService,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.render(req, res, null, { email: '', role: 'staff' });
  }

  @Post()
  async invite(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    await submitForm(
      res,
      async () => {
        const body = await bindForm(InviteUserDto, { email: form.email, role: form.role });
        const user = await this.access.invite(actor(req), body.email, body.role as UserRole);
        redirectWith(req, res, '/app/users/', `Invitation sent to ${user.email}.`);
      },
      (errors) => this.render(req, res, errors, { email: form.email ?? '', role: form.role }),
    );
  }

  @Post(':id/role')
  async role(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.change(req, res, async () => {
      const body = await bindForm(ChangeRoleDto, { role: formFields(req.body).role });
      const user = await this.access.changeRole(actor(req), id, body.role as UserRole);
      return `${user.email} is now ${user.role}.`;
    });
  }

  @Post(':id/disable')
  async disable(@Req() req: Request, @Res() res: Response, @Param('id') id: string) {
    await this.change(req, res, async () => {
      const user = await this.access.setDisabled(actor(req), id, true);
      return `${user.email} is disabled; their sessions have ended.`;
    });
  }

  @Post(':id/enable')
  async enable(@Req() req: Request, @Res() res: Response, @Param('id') id: string) {
    await this.change(req, res, async () => {
      const user = await this.access.setDisabled(actor(req), id, false);
      return `${user.email} can sign in again.`;
    });
  }

  @Post(':id/invite')
  async reinvite(@Req() req: Request, @Res() res: Response, @Param('id') id: string) {
    await this.change(req, res, async () => {
      const user = await this.access.reinvite(actor(req), id);
      return `Invitation sent to ${user.email} again.`;
    });
  }

  /** A change from a row of the list: its outcome (or why it was refused) shown above it. */
  private async change(req: Request, res: Response, apply: () => Promise<string>) {
    await submitForm(
      res,
      () => redirectAfter(req, res, apply, '/app/users/'),
      (errors) => this.render(req, res, errors, { email: '', role: 'staff' }),
    );
  }

  private async render(
    req: Request,
    res: Response,
    errors: ErrorTree | null,
    typed: { email: string; role?: string },
  ): Promise<void> {
    const users = await this.users.list(accountOf(req));
    renderPage(req, res, 'users.njk', {
      title: 'Users',
      section: 'users',
      users,
      me: webUser(req)?.userId,
      errors,
      typed,
    });
  }
}
