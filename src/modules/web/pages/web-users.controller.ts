import { Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { type UserRole, UsersService } from '@/modules/accounts';
import { type AuditContext, auditContextOf } from '@/modules/audit';
import { ChangeRoleDto, InviteUserDto } from './dto/users.dto';
import { FormPage } from '../form-page';
import { bindForm, formFields } from '../forms';
import { UserAccessService } from '../user-access.service';
import { accountOf, redirectAfter, redirectWith, webUser } from '../web-context';
import { AdminOnly } from '../web-roles';

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
@PageController('app/users', AdminOnly())
export class WebUsersController {
  constructor(
    private readonly users: UsersService,
    private readonly access: UserAccessService,
  ) {}

  /** The people; the invitation form is blank, or as typed when it was refused (`invite`). */
  private readonly page = new FormPage<{ invite?: true }>(
    { view: 'users.njk', title: 'Users', section: 'users' },
    async (req, { invite, form, errors }) => ({
      users: await this.users.list(accountOf(req)),
      me: webUser(req)?.userId,
      errors,
      typed: invite ? { email: form.email ?? '', role: form.role } : { email: '', role: 'staff' },
    }),
  );

  @PageRead()
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.page.show(req, res, {});
  }

  @PageWrite()
  async invite(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.page.post(req, res, { invite: true }, async (form) => {
      const body = await bindForm(InviteUserDto, { email: form.email, role: form.role });
      const user = await this.access.invite(actor(req), body.email, body.role as UserRole);
      redirectWith(req, res, '/app/users/', `Invitation sent to ${user.email}.`);
    });
  }

  @PageWrite(':id/role')
  async role(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.change(req, res, async () => {
      const body = await bindForm(ChangeRoleDto, { role: formFields(req.body).role });
      const user = await this.access.changeRole(actor(req), id, body.role as UserRole);
      return `${user.email} is now ${user.role}.`;
    });
  }

  @PageWrite(':id/disable')
  async disable(@Req() req: Request, @Res() res: Response, @Param('id') id: string) {
    await this.change(req, res, async () => {
      const user = await this.access.setDisabled(actor(req), id, true);
      return `${user.email} is disabled; their sessions have ended.`;
    });
  }

  @PageWrite(':id/enable')
  async enable(@Req() req: Request, @Res() res: Response, @Param('id') id: string) {
    await this.change(req, res, async () => {
      const user = await this.access.setDisabled(actor(req), id, false);
      return `${user.email} can sign in again.`;
    });
  }

  @PageWrite(':id/invite')
  async reinvite(@Req() req: Request, @Res() res: Response, @Param('id') id: string) {
    await this.change(req, res, async () => {
      const user = await this.access.reinvite(actor(req), id);
      return `Invitation sent to ${user.email} again.`;
    });
  }

  /** A change from a row of the list: its outcome (or why it was refused) shown above it. */
  private async change(req: Request, res: Response, apply: () => Promise<string>) {
    await this.page.post(req, res, {}, () => redirectAfter(req, res, apply, '/app/users/'));
  }
}
