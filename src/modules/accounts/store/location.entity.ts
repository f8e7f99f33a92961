import { Column, Entity, Index } from 'typeorm';
import { AccountRecord, CreatedAtColumn } from '@/platform/db/columns';

export type LocationStatus = 'enabled' | 'disabled';

/** Optometrist (NUCC provider taxonomy): the 837P's PRV when a location names no other. */
export const DEFAULT_TAXONOMY_CODE = '152W00000X';

@Entity('locations')
@Index('locations_account_created_idx', ['accountId', 'createdAt'])
export class Location extends AccountRecord {
  /** Public code, `LOC` + 8 Crockford base32 characters. */
  @Column({ type: 'varchar', length: 16, unique: true })
  code: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'varchar', length: 16, default: 'enabled' })
  status: LocationStatus;

  /** Exactly one default per account (partial unique index in the migration). */
  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault: boolean;

  /** The practice's provider identity, required before a real insurer is asked (docs/api.md, Real insurers). */
  @Column({ type: 'varchar', length: 10, nullable: true })
  npi: string | null;

  @Column({ name: 'organization_name', type: 'varchar', length: 60, nullable: true })
  organizationName: string | null;

  @Column({ name: 'tax_id', type: 'varchar', length: 9, nullable: true })
  taxId: string | null;

  /** The street address (CMS-1500 boxes 32 and 33); all four set, or none. */
  @Column({ name: 'address_line1', type: 'varchar', length: 55, nullable: true })
  addressLine1: string | null;

  @Column({ name: 'address_line2', type: 'varchar', length: 55, nullable: true })
  addressLine2: string | null;

  @Column({ type: 'varchar', length: 30, nullable: true })
  city: string | null;

  @Column({ type: 'char', length: 2, nullable: true })
  state: string | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  zipcode: string | null;

  /** The billing provider's taxonomy (2000A PRV*BI, docs/api.md, Claims): optometrist by default. */
  @Column({ name: 'taxonomy_code', type: 'char', length: 10, default: DEFAULT_TAXONOMY_CODE })
  taxonomyCode: string;

  /** The individual who renders care at the location (2310B); all three set, or none. */
  @Column({ name: 'rendering_npi', type: 'varchar', length: 10, nullable: true })
  renderingNpi: string | null;

  @Column({ name: 'rendering_first_name', type: 'varchar', length: 35, nullable: true })
  renderingFirstName: string | null;

  @Column({ name: 'rendering_last_name', type: 'varchar', length: 60, nullable: true })
  renderingLastName: string | null;

  /** Null: the location's `taxonomy_code`. */
  @Column({ name: 'rendering_taxonomy_code', type: 'char', length: 10, nullable: true })
  renderingTaxonomyCode: string | null;

  /** The IANA time zone the web pages show the location's visits in (docs/api.md, Locations). */
  @Column({ name: 'time_zone', type: 'varchar', length: 64, nullable: true })
  timeZone: string | null;

  @CreatedAtColumn()
  createdAt: Date;
}
