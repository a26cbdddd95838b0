import 'reflect-metadata';
import { runServiceMain } from '@medfolio/runtime';
import { DOCUMENTS_SERVICE } from './service';

void runServiceMain(DOCUMENTS_SERVICE);
