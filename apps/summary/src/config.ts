import { CommonConfig, Env, WholeNumber } from '@medfolio/config';

/** The summary service's settings: the common ones (database, NATS, logs) and its own, one variable each. */
export class SummaryConfig extends CommonConfig {
  /** Most items one list call answers. */
  @Env('SUMMARY_LIST_LIMIT')
  @WholeNumber(1, 1000)
  listLimit = 100;
}
