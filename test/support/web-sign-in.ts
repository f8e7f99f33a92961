import { readFile } from 'node:fs/promises';
import type { INestApplication } from '@nestjs/common';
import { simpleParser } from 'mailparser';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { UserRole } from '@/modules/accounts/domain/user-roles';
import { UsersService } from '@/modules/accounts/domain/users.service';

export type Agent = ReturnType<typeof request.agent>;

/** The page's CSRF token (every form carries it). */
export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF token on the page');
  return m[1];
}

/** A browser (cookie jar) signed in with the password; fails unless sign-in succeeds. */
export async function signIn(app: INestApplication, email: string, password: string) {
  const agent = request.agent(app.getHttpServer());
  const page = await agent.get('/app/login').expect(200);
  const res = await agent
    .post('/app/login')
    .type('form')
    .send({ _csrf: csrfOf(page.text), email, password });
  if (res.status !== 302 || res.headers.location === '/app/login')
    throw new Error(`sign-in of ${email} answered ${res.status}`);
  const sid = sessionIdOf(res.headers['set-cookie'] as unknown as string[]);
  return { agent, sid };
}

/** Posts a form from a page the agent opens first (for its CSRF token). */
export async function postForm(
  agent: Agent,
  pageUrl: string,
  action: string,
  fields: Record<string, string>,
) {
  const page = await agent.get(pageUrl);
  return agent
    .post(action)
    .type('form')
    .send({ _csrf: csrfOf(page.text), ...fields });
}

/** The session id in a `vision.sid` cookie (`s:<sid>.<signature>`, URL-encoded). */
export function sessionIdOf(setCookie: string[] | undefined): string {
  const cookie = (setCookie ?? []).find((c) => c.startsWith('vision.sid='));
  if (!cookie) throw new Error('no session cookie');
  const value = decodeURIComponent(cookie.split(';')[0].slice('vision.sid='.length));
  return value.slice(2, value.lastIndexOf('.'));
}

/** Rewrites fields of a stored session (its clocks, say), as time passing would. */
export async function editSession(
  app: INestApplication,
  sid: string,
  change: (data: Record<string, unknown>) => void,
): Promise<void> {
  const db = app.get(DataSource);
  const rows: { sess: Record<string, unknown> }[] = await db.query(
    'SELECT sess FROM web_sessions WHERE sid = $1',
    [sid],
  );
  if (rows.length === 0) throw new Error(`session ${sid} is not stored`);
  const data = rows[0].sess;
  change(data);
  await db.query('UPDATE web_sessions SET sess = $2 WHERE sid = $1', [sid, JSON.stringify(data)]);
}

/** A user of the account who can sign in at once. */
export async function createUser(
  app: INestApplication,
  accountId: string,
  role: UserRole,
  email = `${role}-${Math.random().toString(36).slice(2, 10)}@practice.test`,
  password = `pw-${Math.random().toString(36).slice(2, 10)}-long-enough`,
) {
  await app.get(UsersService).create(accountId, email, role, password);
  return { email, password };
}

/**
 * The newest e-mail queued to `to` of `kind`, as the recipient gets it: the outbox row stores
 * links withheld, so this waits for the send and reads the .eml file written (no SMTP_URL in
 * tests). Null when no such e-mail was queued. `appearWithinMs`: how long to wait for the e-mail
 * to be queued at all ("forgot password" queues it after its answer is sent).
 */
export async function lastMail(
  app: INestApplication,
  to: string,
  kind: string,
  appearWithinMs = 0,
): Promise<{ text: string; html: string } | null> {
  const newest = async () => {
    const rows: { status: string; delivered_to: string | null }[] = await app.get(DataSource).query(
      `SELECT status, delivered_to FROM mail_messages WHERE to_address = $1 AND kind = $2
            ORDER BY created_at DESC LIMIT 1`,
      [to, kind],
    );
    return rows[0] ?? null;
  };
  let row = await newest();
  for (let waited = 0; !row && waited < appearWithinMs; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
    row = await newest();
  }
  if (!row) return null;
  for (let waited = 0; row.status === 'queued' && waited < 15_000; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
    row = (await newest())!;
  }
  if (row.status !== 'sent' || !row.delivered_to)
    throw new Error(`the ${kind} e-mail to ${to} was not sent (${row.status})`);
  const mail = await simpleParser(await readFile(row.delivered_to));
  return { text: mail.text ?? '', html: mail.html || '' };
}

/** The path and query of the first link to the web application in a text. */
export function linkIn(text: string): string {
  const m = /https?:\/\/[^\s/]+(\/app\/[^\s]+)/.exec(text);
  if (!m) throw new Error(`no link in: ${text}`);
  return m[1];
}
