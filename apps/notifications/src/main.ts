import 'reflect-metadata';
import { runServiceMain } from '@medfolio/runtime/service-kit';
import { NOTIFICATIONS_SERVICE } from './service';

void runServiceMain(NOTIFICATIONS_SERVICE);
