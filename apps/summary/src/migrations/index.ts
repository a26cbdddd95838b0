import { CreateSummary1795483932595 } from './1795483932595-create-summary';

export const SUMMARY_MIGRATIONS = [CreateSummary1795483932595];
