import 'reflect-metadata';
import { runServiceMain } from '@medfolio/runtime';
import { DocumentsAppModule, documentsDbOptions } from './app.module';
import { DocumentsConfig } from './config';

void runServiceMain({
  name: 'documents',
  config: DocumentsConfig,
  module: (options) => DocumentsAppModule.register(options),
  database: documentsDbOptions,
});
