import { Body, Param, Req } from '@nestjs/common';
import { ApiController } from '@/platform/http/api-controller';
import { ApiRead, ApiRoute, ApiWrite } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import { AccountsService } from '../domain/accounts.service';
import {
  CreateLocationDto,
  LocationListResponse,
  LocationResponse,
  UpdateLocationDto,
} from './dto/location.dto';
import { auditContextOf, NotPatientData } from '@/modules/audit';

@ApiController('Locations', 'api/auth/v1/locations')
export class LocationsController {
  constructor(private readonly accounts: AccountsService) {}

  @ApiRead('', {
    scope: 'eligibility:read',
    audit: NotPatientData(),
    summary: "List the account's locations",
    description: 'Their codes are the `location_code` other endpoints take.',
    answer: LocationListResponse,
  })
  async list(@Req() req: AppRequest): Promise<LocationListResponse> {
    const locations = await this.accounts.listLocations(req.auth!.accountId);
    return { result: locations.map(LocationResponse.from) };
  }

  @ApiWrite('', 201, {
    scope: 'eligibility:write',
    audit: NotPatientData(),
    summary: 'Create a location',
    description:
      'With the practice’s provider identity (`npi`, `organization_name`, `tax_id`), required before a real insurer can be asked, and what an electronic claim (837P) needs besides (docs/api.md, Claims): a street `address` with its ZIP+4 (no PO box), `taxonomy_code` (default 152W00000X) and a `rendering_provider` (an individual NPI). Without them claims go on paper, saying what is missing.',
    answer: LocationResponse,
    errors: [
      [
        400,
        {
          errors: {
            npi: { $: ['This NPI has an invalid check digit.'] },
            address: {
              line1: { $: ['The billing address must be a street address, not a PO box.'] },
            },
          },
        },
      ],
    ],
  })
  async create(@Req() req: AppRequest, @Body() body: CreateLocationDto): Promise<LocationResponse> {
    return LocationResponse.from(
      await this.accounts.createLocation(req.auth!.accountId, body, auditContextOf(req)!),
    );
  }

  @ApiRoute('patch', ':code', undefined, {
    scope: 'eligibility:write',
    audit: NotPatientData(),
    summary: 'Change a location',
    description:
      'The fields given change; `null` clears `npi`, `organization_name`, `tax_id`, `address` or `rendering_provider`. A rendering provider with the location’s own (organisation) NPI is a field error.',
    param: { name: 'code', example: 'LOC7K2M9QXA' },
    answer: LocationResponse,
    errors: [
      [400, { errors: { npi: { $: ['This NPI has an invalid check digit.'] } } }],
      [404, { detail: 'Location LOC7K2M9QXA not found.' }],
    ],
  })
  async update(
    @Req() req: AppRequest,
    @Param('code') code: string,
    @Body() body: UpdateLocationDto,
  ): Promise<LocationResponse> {
    return LocationResponse.from(
      await this.accounts.updateLocation(req.auth!.accountId, code, body, auditContextOf(req)!),
    );
  }
}
