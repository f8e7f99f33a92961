import { Global, Module } from '@nestjs/common';
import { Database } from './database';

/** `Database` (transactions) for every module; the data source itself stays with repositories. */
@Global()
@Module({ providers: [Database], exports: [Database] })
export class DatabaseModule {}
