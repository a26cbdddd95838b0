// jsdom plus the Fetch API of Node (fetch, Request, Response, Headers), which jsdom lacks and
// RTK Query's fetchBaseQuery needs. Tests replace globalThis.fetch to answer as the server would.
// FormData, Blob and File are Node's too, so that a multipart body (a picture upload) goes through
// Node's Request intact, as it would in a browser (jsdom's FormData is unknown to Node's fetch).
const { TestEnvironment } = require('jest-environment-jsdom');

class JsdomWithFetch extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    Object.assign(this.global, { fetch, Request, Response, Headers, TextEncoder, TextDecoder, AbortController, AbortSignal, structuredClone, FormData, Blob, File });
  }
}

module.exports = JsdomWithFetch;
