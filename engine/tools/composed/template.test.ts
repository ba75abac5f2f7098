import { describe, expect, it } from 'vitest';
import { isHttpCall, type ComposedTool, type HttpCall } from './composed-tool';
import { normalizeAgentClash, normalizeOpenClaw } from './normalize';
import { renderHttpRequest, type Rendered, type RenderedRequest } from './template';
import { parseYamlSource } from './yaml-source';
import { sendsSecrets, validateComposedTool } from './validate';

const SECRETS: Record<string, string> = {
  SHOP_KEY: 'shop-secret-991',
  BASE: 'https://api.shop.test',
  TENANT: 't-1',
};

/** A tool from YAML text through the loader's own steps (parse, normalise, validate). */
function toolFrom(text: string): ComposedTool {
  const parsed = parseYamlSource(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  const document = parsed.value.value as Record<string, unknown>;
  const source = { file: 'tools/t.yaml', scope: 'org' as const, path: [] };
  const normalized =
    'request' in document ? normalizeOpenClaw(document, source) : normalizeAgentClash(document, source);
  expect(normalized.problems).toEqual([]);
  const tool = normalized.tool as ComposedTool;
  expect(validateComposedTool(tool)).toEqual([]);
  return tool;
}

function callOf(tool: ComposedTool): HttpCall {
  if (!isHttpCall(tool.implementation)) throw new Error('not an http tool');
  return tool.implementation;
}

function render(
  tool: ComposedTool,
  args: Record<string, unknown>,
  secrets = SECRETS,
): Rendered<RenderedRequest> & { sensitive: string[] } {
  const sensitive = new Set<string>();
  const rendered = renderHttpRequest(
    callOf(tool),
    { args, lookup: (name) => secrets[name], sensitive },
    { hostFixed: sendsSecrets(tool) },
  );
  return { ...rendered, sensitive: [...sensitive] };
}

function rendered(tool: ComposedTool, args: Record<string, unknown>): RenderedRequest {
  const result = render(tool, args);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

const openClawOrder = toolFrom(`
name: update_order
description: Update an order
parameters:
  order_id: {type: string, required: true}
  note: {type: string}
  search: {type: string}
  quantity: {type: integer}
  gift: {type: boolean}
request:
  method: POST
  url: "{{env.BASE}}/orders/{{params.order_id}}/notes?q={{params.search}}&tenant=t"
  headers:
    Authorization: "Bearer {{env.SHOP_KEY}}"
    X-Note: "note: {{params.note}}"
    X-Search: "{{params.search}}"
  body:
    type: json
    content:
      tenant: "{{env.TENANT}}"
      note: "{{params.note}}"
      quoted: "said {{params.note}}"
      quantity: "{{params.quantity}}"
      quantity_text: "{{params.quantity}} items"
      gift: "{{params.gift}}"
      list: ["{{params.search}}", 3, null]
allowed_hosts: [api.shop.test]
`);

const agentClashOrder = toolFrom(`
name: update_order
description: Update an order
parameters:
  type: object
  properties:
    order_id: {type: string}
    note: {type: string}
    filters: {type: object}
  required: [order_id]
implementation:
  primitive: http_request
  args:
    method: POST
    url: https://api.shop.test/orders/\${order_id}?note=\${query:note}
    headers:
      Authorization: Bearer \${secrets.SHOP_KEY}
      X-Note: \${note}
    body:
      note: \${note}
      filters_json: \${json:filters}
      everything: \${parameters}
`);

describe('a value is substituted once and never expanded again', () => {
  const attempts = ['{{env.SHOP_KEY}}', '${secrets.SHOP_KEY}', '{{params.order_id}}', '${order_id}'];

  it.each(attempts)(
    'sends the OpenClaw argument %s as literal text in the URL, a header and the body',
    (attempt) => {
      const request = rendered(openClawOrder, { order_id: attempt, note: attempt, search: attempt });
      expect(request.url).toBe(
        `https://api.shop.test/orders/${encodeURIComponent(attempt).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}/notes?q=${encodeURIComponent(attempt)}&tenant=t`,
      );
      expect(request.headers['X-Note']).toBe(`note: ${attempt}`);
      expect(JSON.parse(request.body ?? '')).toMatchObject({ note: attempt, quoted: `said ${attempt}` });
      expect(`${request.url} ${request.headers['X-Note']} ${request.body}`).not.toContain(SECRETS.SHOP_KEY);
    },
  );

  it.each(attempts)(
    'sends the AgentClash argument %s as literal text in the URL, a header and the body',
    (attempt) => {
      const request = rendered(agentClashOrder, { order_id: 'o-1', note: attempt });
      expect(request.headers['X-Note']).toBe(attempt);
      expect(new URL(request.url).searchParams.get('note')).toBe(attempt);
      expect(JSON.parse(request.body ?? '')).toMatchObject({ note: attempt });
      expect(request.headers.Authorization).toBe(`Bearer ${SECRETS.SHOP_KEY}`);
      expect(`${request.url} ${request.headers['X-Note']} ${request.body}`).not.toContain(SECRETS.SHOP_KEY);
    },
  );

  it('does not expand placeholders inside a setting’s value either', () => {
    const request = rendered(openClawOrder, { order_id: 'o-1' });
    const sneaky = render(
      openClawOrder,
      { order_id: 'o-1' },
      { ...SECRETS, TENANT: '{{params.order_id}} {{env.SHOP_KEY}}' },
    );
    expect(sneaky.ok && JSON.parse(sneaky.value.body ?? '').tenant).toBe(
      '{{params.order_id}} {{env.SHOP_KEY}}',
    );
    expect(JSON.parse(request.body ?? '').tenant).toBe('t-1');
  });

  it('reports every secret and setting it placed in the request, the base URL included, for redaction', () => {
    expect(render(openClawOrder, { order_id: 'o-1' }).sensitive.sort()).toEqual([
      'https://api.shop.test',
      'shop-secret-991',
      't-1',
    ]);
  });
});

describe('header values cannot be split into new headers', () => {
  const injections = ['x\r\nX-Injected: 1', 'x\nX-Injected: 1', 'x\rX-Injected: 1', 'x\u0000y', 'x\u000bz'];

  it.each(injections)('refuses an OpenClaw argument bound to a header that holds %j', (value) => {
    const result = render(openClawOrder, { order_id: 'o-1', note: value });
    expect(result).toMatchObject({
      ok: false,
      error:
        "request.headers.X-Note: the argument 'note' contains a line break or control character, which a header value cannot hold; nothing was sent",
    });
  });

  it.each(injections)('refuses an AgentClash argument bound to a header that holds %j', (value) => {
    const result = render(agentClashOrder, { order_id: 'o-1', note: value });
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringContaining("the argument 'note' contains a line break"),
    });
  });

  it('refuses a secret with a line break without quoting it', () => {
    const result = render(agentClashOrder, { order_id: 'o-1' }, { SHOP_KEY: 'abc\r\nX-Evil: 1' });
    expect(result).toEqual({
      ok: false,
      error:
        'implementation.args.headers.Authorization: the secret SHOP_KEY contains a line break or control character, which a header value cannot hold; nothing was sent',
      sensitive: ['abc\r\nX-Evil: 1'],
    });
  });

  it('keeps tabs and percent signs, which are ordinary header text', () => {
    expect(rendered(openClawOrder, { order_id: 'o-1', note: 'a\tb %0d%0a' }).headers['X-Note']).toBe(
      'note: a\tb %0d%0a',
    );
  });

  it('leaves out a header that is exactly an argument the caller did not give', () => {
    const request = rendered(openClawOrder, { order_id: 'o-1' });
    expect(Object.keys(request.headers)).toEqual(['Authorization', 'X-Note', 'Content-Type']);
    expect(request.headers['X-Note']).toBe('note: ');
  });
});

describe('URL arguments stay inside their path segment or query value', () => {
  it('encodes / in a path argument, so ../ cannot climb', () => {
    expect(rendered(openClawOrder, { order_id: '../../admin' }).url).toBe(
      'https://api.shop.test/orders/..%2F..%2Fadmin/notes?q=&tenant=t',
    );
    expect(rendered(openClawOrder, { order_id: '..\\..\\admin' }).url).toContain(
      '/orders/..%5C..%5Cadmin/notes',
    );
  });

  it.each(['..', '.', '%2e%2e'])('refuses a path argument %j that would be a dot segment', (value) => {
    const result = render(openClawOrder, { order_id: value });
    if (value === '%2e%2e') {
      expect(result.ok && result.value.url).toBe('https://api.shop.test/orders/%252e%252e/notes?q=&tenant=t');
      return;
    }
    expect(result).toMatchObject({
      ok: false,
      error: `request.url: the argument 'order_id' would make the URL path segment '${value}', which climbs out of the path; nothing was sent`,
    });
  });

  it('encodes &, =, # and ? in a query argument, so it cannot add parameters', () => {
    const url = rendered(openClawOrder, { order_id: 'o-1', search: 'shoes&tenant=other#x?y=1' }).url;
    expect(url).toBe('https://api.shop.test/orders/o-1/notes?q=shoes%26tenant%3Dother%23x%3Fy%3D1&tenant=t');
    expect(new URL(url).searchParams.getAll('tenant')).toEqual(['t']);
    expect(new URL(url).searchParams.get('q')).toBe('shoes&tenant=other#x?y=1');
  });

  it('refuses at run time an argument deciding the host of a request that carries secrets', () => {
    const tool = toolFrom(`
name: fetch
description: Fetch
parameters: {type: object, properties: {host: {type: string}}}
implementation:
  primitive: http_request
  args: {method: GET, url: "https://\${host}/x"}
`);
    const sensitive = new Set<string>();
    const result = renderHttpRequest(
      callOf(tool),
      { args: { host: 'evil.test' }, lookup: () => undefined, sensitive },
      { hostFixed: true },
    );
    expect(result).toEqual({
      ok: false,
      error: 'implementation.args.url: ${host} would decide the host of a request that carries secrets',
    });
    expect(render(tool, { host: 'api.shop.test' })).toMatchObject({
      ok: true,
      value: { url: 'https://api.shop.test/x' },
    });
    expect(render(tool, { host: 'a b.test' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('contains spaces or control characters'),
    });
  });
});

describe('JSON bodies', () => {
  it('escape quotes and backslashes, so an argument cannot add fields', () => {
    const note = 'hi", "admin": true, "x": "\\';
    const body = JSON.parse(rendered(openClawOrder, { order_id: 'o-1', note }).body ?? '');
    expect(body.note).toBe(note);
    expect(body.quoted).toBe(`said ${note}`);
    expect(body).not.toHaveProperty('admin');
  });

  it('keep numbers and booleans typed when a value is exactly one placeholder, and leave out missing ones', () => {
    const body = JSON.parse(
      rendered(openClawOrder, { order_id: 'o-1', quantity: 3, gift: false, search: 's' }).body ?? '',
    );
    expect(body).toEqual({
      tenant: 't-1',
      quoted: 'said ',
      quantity: 3,
      quantity_text: '3 items',
      gift: false,
      list: ['s', 3, null],
    });
    const sparse = JSON.parse(rendered(openClawOrder, { order_id: 'o-1' }).body ?? '');
    expect(sparse).toEqual({
      tenant: 't-1',
      quoted: 'said ',
      quantity_text: ' items',
      list: [null, 3, null],
    });
  });

  it('insert JSON text for ${json:x} and the whole argument object for ${parameters}', () => {
    const body = JSON.parse(
      rendered(agentClashOrder, { order_id: 'o-1', note: 'n', filters: { size: [1, 2] } }).body ?? '',
    );
    expect(body).toEqual({
      note: 'n',
      filters_json: '{"size":[1,2]}',
      everything: { order_id: 'o-1', note: 'n', filters: { size: [1, 2] } },
    });
  });
});

describe('form and text bodies', () => {
  const formTool = toolFrom(`
name: send_sms
description: Send a text message
parameters:
  to: {type: string, required: true}
  text: {type: string, required: true}
  media: {type: string}
request:
  method: POST
  url: https://api.sms.test/messages
  headers: {Authorization: "Basic {{env.SHOP_KEY}}"}
  body:
    type: form
    content: {To: "{{params.to}}", Body: "{{params.text}}", MediaUrl: "{{params.media}}", Retries: 2}
allowed_hosts: [api.sms.test]
`);

  it('form-encode values, so & and = stay inside one field', () => {
    const request = rendered(formTool, { to: '+1 555', text: 'a&To=evil=1' });
    expect(request.body).toBe('To=%2B1+555&Body=a%26To%3Devil%3D1&Retries=2');
    expect(request.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
  });

  it('send text bodies as written, with the given content type left alone', () => {
    const tool = toolFrom(`
name: note
description: Post a note
parameters: {text: {type: string, required: true}}
request:
  method: POST
  url: https://api.notes.test/notes
  headers: {content-type: text/markdown}
  body: {type: text, content: "# Note\\n{{params.text}}"}
allowed_hosts: [api.notes.test]
`);
    expect(rendered(tool, { text: '"quoted" & {{env.SHOP_KEY}}' })).toEqual({
      url: 'https://api.notes.test/notes',
      headers: { 'content-type': 'text/markdown' },
      body: '# Note\n"quoted" & {{env.SHOP_KEY}}',
    });
  });
});
