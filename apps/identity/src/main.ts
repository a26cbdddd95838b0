import 'reflect-metadata';
import { runServiceMain } from '@medfolio/runtime/service-kit';
import { IDENTITY_SERVICE } from './service';

void runServiceMain(IDENTITY_SERVICE);
