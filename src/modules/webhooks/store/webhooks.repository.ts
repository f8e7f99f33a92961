import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { managerOf, type Tx } from '@/platform/db/database';
import { Webhook } from './webhook.entity';

/** What a new webhook is stored with; its id is chosen first, as its sealed secret is bound to it. */
type NewWebhook = Pick<
  Webhook,
  | 'id'
  | 'accountId'
  | 'url'
  | 'isActive'
  | 'description'
  | 'version'
  | 'events'
  | 'secretSealed'
  | 'allowNonstandardPort'
>;

/** The `webhooks` table: an account's endpoints. */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores a new webhook; answers it as stored (with its timestamps). */
  create(fields: NewWebhook): Promise<Webhook> {
    return this.db.manager.save(this.db.manager.create(Webhook, fields));
  }

  /** The account's webhooks, oldest first. */
  listOfAccount(accountId: string): Promise<Webhook[]> {
    return this.db.manager.find(Webhook, {
      where: { accountId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** Webhook `id` of the account (the caller checked that `id` is a uuid), or null. */
  findOfAccount(accountId: string, id: string): Promise<Webhook | null> {
    return this.db.manager.findOne(Webhook, { where: { id, accountId } });
  }

  /** Webhook `id`, whatever its account (a delivery's own), or null. */
  findById(id: string): Promise<Webhook | null> {
    return this.db.manager.findOne(Webhook, { where: { id } });
  }

  /** Stores the changes made to `webhook` (read by this repository); answers it as stored. */
  save(webhook: Webhook, tx?: Tx): Promise<Webhook> {
    return managerOf(this.db, tx).save(webhook);
  }

  /** Deletes webhook `id` of the account, and (by cascade) its deliveries and their attempts. */
  async delete(accountId: string, id: string): Promise<void> {
    await this.db.manager.delete(Webhook, { id, accountId });
  }
}
