import 'reflect-metadata';
import { runServiceMain } from '@medfolio/runtime';
import { NOTIFICATIONS_SERVICE } from './service';

void runServiceMain(NOTIFICATIONS_SERVICE);
