import 'reflect-metadata';
import { runServiceMain } from '@medfolio/runtime/service-kit';
import { WALLET_SERVICE } from './service';

void runServiceMain(WALLET_SERVICE);
