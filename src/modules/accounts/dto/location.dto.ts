import { ApiProperty } from '@nestjs/swagger';
import { StringField } from '@/common/validation/fields';
import { isoWithOffset } from '@/common/dates';
import type { Location } from '../location.entity';

export class CreateLocationDto {
  @StringField({ required: true, maxLength: 200, example: 'Downtown Eye Care' })
  title: string;
}

export class LocationResponse {
  @ApiProperty({ example: 'LOC7K2M9QXA' })
  code: string;

  @ApiProperty({ example: 'Downtown Eye Care' })
  title: string;

  @ApiProperty({ example: 'enabled', enum: ['enabled', 'disabled'] })
  status: string;

  @ApiProperty({ example: true, description: 'The location used when a request names none.' })
  is_default: boolean;

  @ApiProperty({ example: '2026-11-21T13:51:16.926+00:00' })
  created_at: string;

  static from(l: Location): LocationResponse {
    return {
      code: l.code,
      title: l.title,
      status: l.status,
      is_default: l.isDefault,
      created_at: isoWithOffset(l.createdAt),
    };
  }
}

/** The short location object embedded in patients and claims. */
export class LocationRef {
  @ApiProperty({ example: 'enabled' })
  status: string;

  @ApiProperty({ example: 'Downtown Eye Care' })
  title: string;

  @ApiProperty({ example: 'LOC7K2M9QXA' })
  code: string;

  static from(l: Pick<Location, 'status' | 'title' | 'code'>): LocationRef {
    return { status: l.status, title: l.title, code: l.code };
  }
}

export class LocationListResponse {
  @ApiProperty({ type: [LocationResponse] })
  result: LocationResponse[];
}
