/**
 * What a test needs from an HTTP answer: the status, the headers and the body parsed when JSON.
 * The body is `any` unless a type is given: tests read fields of error and order bodies freely.
 */
export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * One HTTP request with a JSON body (or a raw string body, sent as is, for malformed input), with
 * `token` (when given) as `Authorization: Bearer <token>`. Network errors propagate: a test that
 * kills the server expects exactly that.
 */
export async function requestJson<T = any>(
  method: string,
  url: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; token?: string; timeoutMs?: number } = {},
): Promise<JsonResponse<T>> {
  const hasBody = options.body !== undefined || options.rawBody !== undefined;
  const response = await fetch(url, {
    method,
    headers: {
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, headers: response.headers, body: body as T, text };
}
