import { Column, Entity } from 'typeorm';
import { UuidIdColumn, CreatedAtColumn } from '@/platform/db/columns';

@Entity('accounts')
export class Account {
  @UuidIdColumn()
  id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** Embedded sessions (docs/api.md, Embedded sessions) are enabled per account by support. */
  @Column({ name: 'iframe_enabled', type: 'boolean', default: false })
  iframeEnabled: boolean;

  /** Origins allowed to frame the web application (CSP frame-ancestors). */
  @Column({ name: 'frame_ancestors', type: 'text', array: true, default: () => "'{}'" })
  frameAncestors: string[];

  /** Every user must sign in with two-factor (TOTP); users without it are sent to enrolment. */
  @Column({ name: 'require_two_factor', type: 'boolean', default: false })
  requireTwoFactor: boolean;

  @CreatedAtColumn()
  createdAt: Date;
}
