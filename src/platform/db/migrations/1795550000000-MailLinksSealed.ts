import { migration } from './migration';

/**
 * Invitation and password-reset e-mails were stored with their link (a usable token)
 * in the body. The body now holds a marker instead, and the link waits for the send sealed
 * (AES-256-GCM under APP_ENCRYPTION_KEY) in `link_sealed`, emptied once the e-mail is sent or
 * has failed for good. Bodies stored before held working links until used or expired (an hour,
 * 72 hours), and their tokens are cut out of them here (an e-mail still queued then goes out
 * without a working link: the admin invites again, the user asks for a new reset link).
 */
export const MailLinksSealed1795550000000 = migration('MailLinksSealed1795550000000', {
  async up(q) {
    await q.query(`ALTER TABLE mail_messages ADD COLUMN link_sealed text`);
    await q.query(
      `UPDATE mail_messages
          SET text_body = regexp_replace(text_body, 'token=[0-9a-f]{64}', 'token=[withheld]', 'g'),
              html_body = regexp_replace(html_body, 'token=[0-9a-f]{64}', 'token=[withheld]', 'g')
        WHERE kind IN ('user_invitation', 'password_reset')`,
    );
  },

  async down(q) {
    await q.query(`ALTER TABLE mail_messages DROP COLUMN link_sealed`);
  },
});
