import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A person who signs in to the web application; belongs to one account. */
@Entity('users')
export class User {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** Stored lower-cased; unique across the service. */
  @Column({ type: 'varchar', length: 254, unique: true })
  email: string;

  /** scrypt: `scrypt$N$r$p$salt$hash` (base64). */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
