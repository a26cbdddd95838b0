import 'reflect-metadata';
import { runServiceMain } from '@medfolio/runtime/service-kit';
import { CONNECTIONS_SERVICE } from './service';

void runServiceMain(CONNECTIONS_SERVICE);
