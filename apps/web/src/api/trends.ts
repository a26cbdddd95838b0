import { api } from './api';
import type {
  LockedSeries,
  TimelineEvent,
  TrendFlag,
  TrendPoint,
  TrendSeries,
  TrendSource,
  TrendsReply,
} from '@medfolio/contracts';

/*
 * Health trends on the generated endpoints (GET /api/trends/, GET /api/trends/export.csv), loaded
 * with the Trends page and the share panel only, never with the landing page. Every read is audited
 * by the server: nothing is kept once the page closes, and the CSV is fetched only when asked for.
 */

export type { LockedSeries, TimelineEvent, TrendFlag, TrendPoint, TrendSeries, TrendSource, TrendsReply };

const trendsApi = api.enhanceEndpoints({ endpoints: { trendsGet: { keepUnusedDataFor: 0 } } }).injectEndpoints({
  endpoints: (build) => ({
    // The generated trendsExport keeps a Blob in the store (not serializable): the CSV is read as
    // text here, with the server's file name, and the page turns it into a file.
    trendsCsv: build.query<{ filename: string; content: string }, void>({
      query: () => ({
        url: '/api/trends/export.csv',
        responseHandler: async (response: Response) => {
          const content = await response.text();
          if (!response.ok) {
            try {
              return JSON.parse(content) as unknown;
            } catch {
              return { message: content };
            }
          }
          return { filename: csvFilename(response.headers.get('content-disposition')), content };
        },
      }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useTrendsGetQuery, useLazyTrendsGetQuery } = trendsApi;
export const trendsCsvEndpoint = trendsApi.endpoints.trendsCsv;

/** The file name a CSV download is saved under: the server's, or a dated default. */
export function csvFilename(disposition: string | null, now: Date = new Date()): string {
  const match = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition) : null;
  const name = match?.[1] ? decodeURIComponent(match[1]).replace(/[\\/]/g, '_') : '';
  return name || `medfolio-trends-${now.toISOString().slice(0, 10)}.csv`;
}
