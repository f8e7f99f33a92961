import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { ApiStandardErrors } from '@/common/api-docs';
import type { AppRequest } from '@/common/request-context';
import { AccountsService } from './accounts.service';
import { CreateLocationDto, LocationListResponse, LocationResponse } from './dto/location.dto';

@ApiTags('Locations')
@ApiSecurity('Api')
@Controller('api/auth/v1/locations')
export class LocationsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get()
  @ApiOperation({
    summary: "List the account's locations",
    description: 'Their codes are the `location_code` other endpoints take.',
  })
  @ApiOkResponse({ type: LocationListResponse })
  @ApiStandardErrors()
  async list(@Req() req: AppRequest): Promise<LocationListResponse> {
    const locations = await this.accounts.listLocations(req.auth!.accountId);
    return { result: locations.map(LocationResponse.from) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a location' })
  @ApiCreatedResponse({ type: LocationResponse })
  @ApiStandardErrors(400)
  async create(@Req() req: AppRequest, @Body() body: CreateLocationDto): Promise<LocationResponse> {
    return LocationResponse.from(
      await this.accounts.createLocation(req.auth!.accountId, body.title),
    );
  }
}
