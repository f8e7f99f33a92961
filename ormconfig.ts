import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/env';
import { buildDataSourceOptions } from './src/database/data-source';

// Used by the TypeORM CLI (npm run migration:*): the same options the application builds.
export default new DataSource(buildDataSourceOptions(loadConfig()));
