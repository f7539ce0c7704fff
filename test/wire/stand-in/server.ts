/**
 * The provider stand-in: a `node:http` server on 127.0.0.1 that answers the Anthropic Messages
 * API and OpenAI's Chat Completions and Responses APIs with scripted replies, and records every
 * request it gets, body bytes and headers. The real provider packages point at it with
 * `baseURL`, so tests and benchmarks see exactly what they would send a provider.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicError, anthropicJson, anthropicSse } from './anthropic.js';
import { chatJson, chatSse, openaiError } from './openai-chat.js';
import { responsesJson, responsesSse } from './openai-responses.js';
import { jsonResponse, type EncodedResponse } from './reply-parts.js';
import type { RecordedRequest, WireApi, WireReply, WireResponder } from './types.js';

/** Options of {@link startStandIn}. */
export interface StandInOptions {
  /** Chooses each reply (default: the text `ok`). Replace it later with `respondWith`. */
  readonly respond?: WireResponder;
  /** Characters per streamed delta (default 8), so a streamed reply arrives in several pieces. */
  readonly deltaSize?: number;
}

/** A running stand-in. */
export interface StandIn {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /**
   * `<url>/v1`: the `baseURL` for `createAnthropic`, `createOpenAI` and OpenAI-compatible
   * clients (they append `/messages`, `/chat/completions` or `/responses`).
   */
  readonly baseURL: string;
  /** Every request received so far, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** The requests sent to one API, in arrival order. */
  requestsTo(api: WireApi): RecordedRequest[];
  /** Replaces the responder for the requests still to come. */
  respondWith(responder: WireResponder): void;
  /** Forgets the recorded requests. */
  clear(): void;
  /** Stops the server and ends open connections. */
  close(): Promise<void>;
}

const API_BY_PATH: readonly (readonly [string, WireApi])[] = [
  ['/messages', 'anthropic-messages'],
  ['/chat/completions', 'openai-chat'],
  ['/responses', 'openai-responses'],
];

function apiOf(path: string): WireApi | undefined {
  return API_BY_PATH.find(([suffix]) => path.endsWith(suffix))?.[1];
}

function encode(request: RecordedRequest, reply: WireReply, deltaSize: number): EncodedResponse {
  if (reply.error !== undefined) return request.api === 'anthropic-messages' ? anthropicError(reply.error) : openaiError(reply.error);
  switch (request.api) {
    case 'anthropic-messages':
      return request.stream ? anthropicSse(request, reply, deltaSize) : anthropicJson(request, reply);
    case 'openai-chat':
      return request.stream ? chatSse(request, reply, deltaSize) : chatJson(request, reply);
    case 'openai-responses':
      return request.stream ? responsesSse(request, reply, deltaSize) : responsesJson(request, reply);
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function write(response: ServerResponse, encoded: EncodedResponse): void {
  response.writeHead(encoded.status, encoded.headers);
  response.end(encoded.body);
}

/**
 * Starts a stand-in on 127.0.0.1 at a free port.
 *
 * @example
 * ```ts
 * const standIn = await startStandIn({ respond: () => ({ text: 'Hello.' }) });
 * const anthropic = createAnthropic({ baseURL: standIn.baseURL, apiKey: 'test' });
 * await generateText({ model: anthropic('claude-sonnet-4-5'), prompt: 'Hi' });
 * console.log(standIn.requestsTo('anthropic-messages')[0]?.body);
 * await standIn.close();
 * ```
 */
export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const recorded: RecordedRequest[] = [];
  let respond: WireResponder = options.respond ?? (() => ({ text: 'ok' }));
  const deltaSize = options.deltaSize ?? 8;
  if (!Number.isInteger(deltaSize) || deltaSize < 1) throw new TypeError(`startStandIn: deltaSize must be a positive integer, got ${String(deltaSize)}`);

  const server = createServer((incoming, response) => {
    void (async () => {
      const path = new URL(incoming.url ?? '/', 'http://stand-in').pathname;
      const rawBody = await readBody(incoming);
      const api = apiOf(path);
      if (incoming.method !== 'POST' || api === undefined) {
        write(response, jsonResponse({ error: { message: `stand-in: no API at ${incoming.method ?? '?'} ${path}` } }, 404));
        return;
      }
      let body: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse(rawBody);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new TypeError('not a JSON object');
        body = parsed as Record<string, unknown>;
      } catch (error) {
        write(response, jsonResponse({ error: { message: `stand-in: the body is not a JSON object (${(error as Error).message})` } }, 400));
        return;
      }
      const request: RecordedRequest = Object.freeze({
        index: recorded.length,
        api,
        method: incoming.method,
        path,
        headers: Object.freeze(headersOf(incoming)),
        rawBody,
        body,
        stream: body['stream'] === true,
      });
      recorded.push(request);
      let reply: WireReply;
      try {
        reply = await respond(request);
      } catch (error) {
        reply = { error: { status: 500, message: `stand-in responder threw: ${error instanceof Error ? error.message : String(error)}` } };
      }
      write(response, encode(request, reply, deltaSize));
    })().catch((error: unknown) => {
      // Only a broken connection gets here; the client sees it as a network error.
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    get requests() {
      return recorded;
    },
    requestsTo: (api) => recorded.filter((request) => request.api === api),
    respondWith(responder) {
      respond = responder;
    },
    clear() {
      recorded.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
