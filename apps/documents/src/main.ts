import 'reflect-metadata';
import { runServiceMain } from '@medfolio/runtime/service-kit';
import { DOCUMENTS_SERVICE } from './service';

void runServiceMain(DOCUMENTS_SERVICE);
