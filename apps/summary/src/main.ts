import 'reflect-metadata';
import { runServiceMain } from '@medfolio/runtime/service-kit';
import { SUMMARY_SERVICE } from './service';

void runServiceMain(SUMMARY_SERVICE);
