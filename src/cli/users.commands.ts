import { Command, CommandRunner } from 'nest-commander';
import { CliOptions } from './options';
import { USER_ROLES, type UserRole } from '@/modules/accounts/domain/user-roles';
import { UsersService } from '@/modules/accounts/domain/users.service';
import { describeError, fail, print } from './output';

/**
 * The password, read from standard input (its first line) and never from the command line,
 * where other users of the machine could read it in the process list and the shell history.
 */
export async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password (then Enter, Ctrl-D): ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const password = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0];
  if (!password) fail('Give the password on standard input');
  return password;
}

@Command({
  name: 'users:create',
  description: 'Create a web user of an account (SECURITY.md); the password is read from stdin',
})
@CliOptions(
  { flags: '--account <id>', description: 'The account id', required: true },
  { flags: '--email <email>', description: 'E-mail the user signs in with', required: true },
  { flags: '--role <role>', description: 'admin or staff', required: true },
)
export class CreateUserCommand extends CommandRunner {
  constructor(private readonly users: UsersService) {
    super();
  }

  async run(
    _params: string[],
    options: { account: string; email: string; role: UserRole },
  ): Promise<void> {
    if (!/^[0-9a-f-]{36}$/i.test(options.account ?? '')) fail('--account must be an account id');
    if (!options.email?.includes('@')) fail('--email must be an e-mail address');
    if (!USER_ROLES.includes(options.role)) fail(`--role must be one of ${USER_ROLES.join(', ')}`);
    const password = await passwordFromStdin();
    try {
      const user = await this.users.create(options.account, options.email, options.role, password);
      print({
        user: { id: user.id, account_id: user.accountId, email: user.email, role: user.role },
      });
    } catch (e) {
      fail(describeError(e));
    }
  }
}

@Command({
  name: 'users:reset-password',
  description: "Set a user's password, read from stdin; the user's sessions end",
})
@CliOptions({ flags: '--email <email>', description: 'E-mail of the user', required: true })
export class ResetPasswordCommand extends CommandRunner {
  constructor(private readonly users: UsersService) {
    super();
  }

  async run(_params: string[], options: { email: string }): Promise<void> {
    const password = await passwordFromStdin();
    try {
      const user = await this.users.setPassword(options.email ?? '', password);
      print({ user: { id: user.id, email: user.email }, sessions_ended: true });
    } catch (e) {
      fail(describeError(e));
    }
  }
}
