import { waitFor } from '@testing-library/react';

/**
 * A stand-in for XMLHttpRequest (the document upload's transport), for component tests: each
 * request is recorded (method, URL, headers, body) and waits for the test to emit upload progress
 * and then answer, fail or see it aborted.
 */
export class FakeXhr {
  static requests: FakeXhr[] = [];

  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = undefined;
  status = 0;
  responseText = '';
  aborted = false;
  readonly upload = new EventTarget();
  private readonly events = new EventTarget();

  constructor() {
    FakeXhr.requests.push(this);
  }

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name.toLowerCase()] = value;
  }

  addEventListener(type: string, listener: EventListener, options?: AddEventListenerOptions): void {
    this.events.addEventListener(type, listener, options);
  }

  send(body?: unknown): void {
    this.body = body;
  }

  abort(): void {
    this.aborted = true;
    this.events.dispatchEvent(new Event('abort'));
  }

  /** The browser reports `loaded` of `total` bytes of the request body sent. */
  progress(loaded: number, total: number): void {
    const event = new Event('progress');
    Object.assign(event, { lengthComputable: true, loaded, total });
    this.upload.dispatchEvent(event);
  }

  /** The server answers (JSON). */
  respond(status: number, body?: unknown): void {
    this.status = status;
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    this.events.dispatchEvent(new Event('load'));
  }

  /** The connection fails. */
  fail(): void {
    this.events.dispatchEvent(new Event('error'));
  }

  /** The multipart body's fields (the request was sent with a FormData). */
  get form(): FormData {
    if (!(this.body instanceof FormData)) throw new Error('The request body is not a FormData.');
    return this.body;
  }
}

/** Puts FakeXhr in place of XMLHttpRequest until the returned function is called. */
export function installFakeXhr(): { requests: FakeXhr[]; restore: () => void } {
  const original = globalThis.XMLHttpRequest;
  FakeXhr.requests = [];
  globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
  return {
    requests: FakeXhr.requests,
    restore: () => {
      globalThis.XMLHttpRequest = original;
    },
  };
}

/** The `index`-th request made (from 0), once it has been made. */
export async function nextRequest(requests: FakeXhr[], index = 0): Promise<FakeXhr> {
  await waitFor(() => {
    if (requests.length <= index) throw new Error(`Waiting for request ${index + 1}; ${requests.length} made so far.`);
  });
  return requests[index] as FakeXhr;
}
