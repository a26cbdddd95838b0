// jsdom plus the Fetch API of Node (fetch, Request, Response, Headers), which jsdom lacks and
// RTK Query's fetchBaseQuery needs. Tests replace globalThis.fetch to answer as the server would.
const { TestEnvironment } = require('jest-environment-jsdom');

class JsdomWithFetch extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    Object.assign(this.global, { fetch, Request, Response, Headers, TextEncoder, TextDecoder, AbortController, AbortSignal, structuredClone });
  }
}

module.exports = JsdomWithFetch;
