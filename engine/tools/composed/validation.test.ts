import { describe, expect, it } from 'vitest';
import { isHttpCall } from './composed-tool';
import { loadComposedTools, type ComposedToolLoad } from './loader';
import { requiredSecrets } from './secrets';
import { tempOrg } from './test-support/composed-world';

/** Loads an org made of these files (paths relative to the org), for the agent `somi`. */
async function load(files: Readonly<Record<string, string>>): Promise<ComposedToolLoad> {
  const org = await tempOrg(files);
  try {
    return await loadComposedTools(org.org, 'somi');
  } finally {
    await org.cleanup();
  }
}

/** Loads one tool file and returns its problems, expecting the tool to be skipped. */
async function problemsOf(text: string, file = 'tools/tool.yaml') {
  const result = await load({ [file]: text });
  expect(result.tools).toEqual([]);
  return result.problems;
}

const openClaw = ({
  parameters = '',
  request,
  extra = '',
}: {
  parameters?: string;
  request: string;
  extra?: string;
}) =>
  [
    'name: get_order',
    'description: Fetch one order',
    'parameters:',
    '  order_id:',
    '    type: string',
    '    required: true',
    parameters,
    'request:',
    request,
    extra.includes('allowed_hosts') ? '' : 'allowed_hosts:\n  - api.shop.test',
    extra,
  ]
    .filter((line) => line !== '')
    .join('\n');

const agentClash = ({
  args,
  parameters,
  primitive = 'http_request',
  name = 'check_inventory',
}: {
  args: string;
  parameters?: string;
  primitive?: string;
  name?: string;
}) =>
  [
    `name: ${name}`,
    'description: Check inventory by SKU',
    parameters ??
      'parameters:\n  type: object\n  properties:\n    sku:\n      type: string\n    host:\n      type: string',
    'implementation:',
    `  primitive: ${primitive}`,
    '  args:',
    args,
  ].join('\n');

describe('composed tools that are valid load', () => {
  it('loads the AgentClash docs example, allowing only its literal host', async () => {
    const result = await load({
      'tools/inventory.yaml': agentClash({
        args: [
          '    method: GET',
          '    url: https://api.example.com/inventory/${sku}',
          '    headers:',
          '      Authorization: Bearer ${secrets.INVENTORY_API_KEY}',
        ].join('\n'),
      }),
    });
    expect(result.problems).toEqual([]);
    const [tool] = result.tools;
    expect(tool?.dialect).toBe('agentclash');
    expect(tool && isHttpCall(tool.implementation) && tool.implementation.allowedHosts).toEqual([
      'api.example.com',
    ]);
    expect(tool && requiredSecrets(tool)).toEqual(['INVENTORY_API_KEY']);
  });

  it('loads an OpenClaw tool whose base URL comes from a setting and which sends a key in a header', async () => {
    const result = await load({
      'agents/somi/api-tools/order.yml': openClaw({
        request: [
          '  method: GET',
          '  url: "{{env.PROJECT}}/orders/{{params.order_id}}?expand=items"',
          '  headers:',
          '    X-Api-Key: "{{env.SHOP_KEY}}"',
        ].join('\n'),
        extra: 'allowed_hosts:\n  - "*.shop.test"',
      }),
    });
    expect(result.problems).toEqual([]);
    expect(result.tools.map((tool) => [tool.name, tool.source.scope, requiredSecrets(tool)])).toEqual([
      ['get_order', 'agent', ['PROJECT', 'SHOP_KEY']],
    ]);
  });

  it('lets a tool without secrets take its host from an argument (allowed_hosts and the network policy still apply)', async () => {
    const result = await load({
      'tools/fetch.yaml': agentClash({ args: '    method: GET\n    url: https://${host}/status' }),
    });
    expect(result.problems).toEqual([]);
    expect(
      result.tools[0] &&
        isHttpCall(result.tools[0].implementation) &&
        result.tools[0].implementation.allowedHosts,
    ).toBe('any');
  });
});

describe('OpenClaw api-tools are checked strictly when they load', () => {
  it('reports an unknown top-level field with a suggestion, the file, the field and the line', async () => {
    const problems = await problemsOf(
      openClaw({
        request: '  method: GET\n  url: https://api.shop.test/orders',
        extra: 'allowed_host:\n  - api.shop.test\nallowed_hosts:\n  - api.shop.test',
      }),
    );
    expect(problems).toEqual([
      {
        file: 'tools/tool.yaml',
        field: 'allowed_host',
        message: 'unknown field "allowed_host"; did you mean allowed_hosts?',
        line: 10,
        column: 1,
      },
    ]);
  });

  it('reports an unknown field inside the request', async () => {
    const problems = await problemsOf(
      openClaw({
        request: '  method: GET\n  url: https://api.shop.test/orders\n  header:\n    Accept: text/plain',
      }),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        field: 'request.header',
        message: 'unknown field "header"; did you mean headers?',
        line: 10,
      }),
    ]);
  });

  it('reports an unknown field inside a parameter', async () => {
    const problems = await problemsOf(
      openClaw({
        parameters: '  note:\n    type: string\n    requried: true',
        request: '  method: GET\n  url: https://api.shop.test/orders',
      }),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        field: 'parameters.note.requried',
        message: 'unknown field "requried"; did you mean required?',
        line: 9,
        column: 5,
      }),
    ]);
  });

  it('reports a placeholder naming a parameter that is not declared', async () => {
    const problems = await problemsOf(
      openClaw({
        request:
          '  method: POST\n  url: https://api.shop.test/orders\n  body:\n    type: json\n    content:\n      note: "{{params.note}}"',
      }),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        field: 'request.body.content.note',
        message:
          "unknown placeholder {{params.note}}: there is no parameter named 'note' (declared: order_id)",
        line: 13,
      }),
    ]);
  });

  it('reports placeholders written with spaces, with secrets., or left unclosed', async () => {
    const problems = await problemsOf(
      openClaw({
        request: [
          '  method: GET',
          '  url: "https://api.shop.test/orders/{{ params.order_id }}"',
          '  headers:',
          '    Authorization: "Bearer {{secrets.SHOP_KEY}}"',
          '    X-Trace: "{{params.order_id"',
        ].join('\n'),
      }),
    );
    expect(problems.map((problem) => [problem.field, problem.message])).toEqual([
      [
        'request.url',
        'unknown placeholder {{ params.order_id }}; write it without spaces: {{params.order_id}}',
      ],
      [
        'request.headers.Authorization',
        'unknown placeholder {{secrets.SHOP_KEY}}; secrets are read with {{env.SHOP_KEY}}',
      ],
      ['request.headers.X-Trace', 'unclosed placeholder starting at "{{params.order_id"; close it with }}'],
    ]);
  });

  it('reports AgentClash placeholders written in an OpenClaw file', async () => {
    const problems = await problemsOf(
      openClaw({ request: '  method: GET\n  url: https://api.shop.test/orders/${order_id}' }),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        field: 'request.url',
        message:
          '${order_id} is AgentClash syntax; in an OpenClaw api-tool write {{params.name}} for an argument or {{env.KEY}} for a setting',
      }),
    ]);
  });

  it('refuses {{response.x}} in the request and {{env.X}} in a response template', async () => {
    const problems = await problemsOf(
      openClaw({
        request: '  method: GET\n  url: "https://api.shop.test/orders/{{response.id}}"',
        extra: 'response:\n  summary: "Order {{response.id}} for {{env.SHOP_KEY}}"',
      }),
    );
    expect(problems.map((problem) => [problem.field, problem.message])).toEqual([
      [
        'request.url',
        '{{response.id}} reads the response, so it can only be used in response.summary and response.error_template',
      ],
      [
        'response.summary',
        '{{env.SHOP_KEY}} cannot be used in a response template: the text goes back to the model, and settings may be secrets',
      ],
    ]);
  });

  it('refuses a setting in the URL query (a key in the URL)', async () => {
    const problems = await problemsOf(
      openClaw({ request: '  method: GET\n  url: "https://api.shop.test/orders?key={{env.SHOP_KEY}}"' }),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        field: 'request.url',
        message: expect.stringMatching(/^\{\{env\.SHOP_KEY\}\} puts a setting in the URL's query/),
      }),
    ]);
  });

  it('refuses a host chosen by an argument when a setting is sent as a credential', async () => {
    const problems = await problemsOf(
      openClaw({
        parameters: '  shop:\n    type: string',
        request:
          '  method: GET\n  url: "https://{{params.shop}}/orders"\n  headers:\n    Authorization: "Bearer {{env.SHOP_KEY}}"',
      }),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        field: 'request.url',
        message: expect.stringMatching(
          /^\{\{params\.shop\}\} lets the caller choose the host, but this tool sends secrets/,
        ),
      }),
    ]);
  });

  it('reports each bad allowed_hosts pattern by its position', async () => {
    const problems = await problemsOf(
      openClaw({
        request: '  method: GET\n  url: "{{env.BASE}}/orders"',
        extra: 'allowed_hosts:\n  - "https://api.shop.test"\n  - "*"\n  - "api.*.test"\n  - "*.test"',
      }),
    );
    expect(problems.map((problem) => problem.field)).toEqual([
      'allowed_hosts[0]',
      'allowed_hosts[1]',
      'allowed_hosts[2]',
      'allowed_hosts[3]',
    ]);
    expect(problems[0]?.message).toBe(
      '"https://api.shop.test": write only the host (such as api.example.com), without a scheme like https://',
    );
    expect(problems[1]?.message).toMatch(/would allow every host/);
    expect(problems[2]?.message).toMatch(/may only be the whole first label/);
    expect(problems[3]?.message).toMatch(/too broad/);
  });

  it('requires allowed_hosts, and a literal host must be in it', async () => {
    const missing = await problemsOf(
      'name: ping\ndescription: Ping\nrequest:\n  method: GET\n  url: https://api.shop.test/ping\n',
    );
    expect(missing).toEqual([
      expect.objectContaining({ field: 'allowed_hosts', message: 'is required: a list of hosts' }),
    ]);
    const outside = await problemsOf(openClaw({ request: '  method: GET\n  url: https://evil.test/orders' }));
    expect(outside).toEqual([
      expect.objectContaining({
        field: 'request.url',
        message:
          'the host evil.test is not in allowed_hosts (api.shop.test); the request would always be refused',
      }),
    ]);
  });

  it('refuses a line break in a literal header value, and headers the connection sets', async () => {
    const problems = await problemsOf(
      openClaw({
        request:
          '  method: GET\n  url: https://api.shop.test/orders\n  headers:\n    Accept: "text/plain\\r\\nX-Injected: 1"\n    Host: api.shop.test',
      }),
    );
    expect(problems.map((problem) => [problem.field, problem.message])).toEqual([
      [
        'request.headers.Accept',
        "header 'Accept' contains a line break or NUL; a header value must be one line",
      ],
      ['request.headers.Host', "header 'Host' is set by the connection itself and may not be given"],
    ]);
  });

  it('checks the method, the name, the timeout and a GET with a body', async () => {
    const badMethod = await problemsOf(
      openClaw({ request: '  method: post\n  url: https://api.shop.test/orders' }),
    );
    expect(badMethod).toEqual([
      expect.objectContaining({
        field: 'request.method',
        message: 'must be GET, POST, PUT, PATCH or DELETE',
      }),
    ]);
    const badName = await problemsOf(
      openClaw({ request: '  method: GET\n  url: https://api.shop.test/x' }).replace('get_order', 'GetOrder'),
    );
    expect(badName).toEqual([
      expect.objectContaining({
        field: 'name',
        message: expect.stringMatching(/^must start with a lowercase letter/),
      }),
    ]);
    const slow = await problemsOf(
      openClaw({ request: '  method: GET\n  url: https://api.shop.test/x\n  timeout_ms: 120000' }),
    );
    expect(slow).toEqual([
      expect.objectContaining({
        field: 'request.timeout_ms',
        message: 'must be at most 60000 ms (one minute)',
      }),
    ]);
    const getWithBody = await problemsOf(
      openClaw({ request: '  method: GET\n  url: https://api.shop.test/x\n  body:\n    content: {a: 1}' }),
    );
    expect(getWithBody).toEqual([
      expect.objectContaining({
        field: 'request.method',
        message: 'a GET request cannot have a body; use POST, PUT or PATCH',
      }),
    ]);
  });

  it('refuses secret and setting names the secret store cannot hold', async () => {
    const problems = await problemsOf(
      openClaw({
        request: '  method: GET\n  url: "{{env.base_url}}/orders"\n  headers:\n    X-Key: "{{env.ShopKey}}"',
        extra: 'requires_env: [base_url]',
      }),
    );
    expect(problems.map((problem) => [problem.field, problem.message])).toEqual([
      [
        'request.url',
        expect.stringMatching(
          /^\{\{env\.base_url\}\}: "base_url" is not a valid secret name: a secret name must start with an upper-case letter/,
        ),
      ],
      [
        'request.headers.X-Key',
        expect.stringMatching(/^\{\{env\.ShopKey\}\}: "ShopKey" is not a valid secret name/),
      ],
      ['requires_env[0]', expect.stringMatching(/^"base_url" is not a valid secret name/)],
    ]);
  });

  it('refuses placeholders in form field names and a URL whose host cannot be read', async () => {
    const problems = await problemsOf(
      openClaw({
        request:
          '  method: POST\n  url: "https://api.shop.test/x"\n  body:\n    type: form\n    content:\n      "{{params.order_id}}": x',
      }),
    );
    expect(problems.map((problem) => [problem.field, problem.message])).toEqual([
      [
        'request.body.content["{{params.order_id}}"]',
        'placeholders are not allowed in field names, only in values',
      ],
    ]);
    const badUrl = await problemsOf(openClaw({ request: '  method: GET\n  url: "https://api shop.test/x"' }));
    expect(badUrl).toEqual([
      expect.objectContaining({
        field: 'request.url',
        message: 'is not a valid URL: its host cannot be read',
      }),
    ]);
  });

  it('checks parameter types and that defaults fit their parameter', async () => {
    const badType = await problemsOf(
      openClaw({
        parameters: '  tags:\n    type: array',
        request: '  method: GET\n  url: https://api.shop.test/x',
      }),
    );
    expect(badType).toEqual([
      expect.objectContaining({
        field: 'parameters.tags.type',
        message: 'must be one of string, number, integer, boolean',
      }),
    ]);
    const badDefault = await problemsOf(
      openClaw({
        parameters: '  status:\n    type: string\n    enum: [draft, scheduled]\n    default: published',
        request: '  method: GET\n  url: https://api.shop.test/x',
      }),
    );
    expect(badDefault).toEqual([
      expect.objectContaining({
        field: 'parameters.status.default',
        message: '"published" does not fit the parameter: must be equal to one of the allowed values',
      }),
    ]);
  });
});

describe('AgentClash composed tools are checked strictly when they load', () => {
  it('requires a primitive', async () => {
    const missing = await problemsOf('name: t\ndescription: d\nimplementation:\n  args:\n    x: 1\n');
    expect(missing).toEqual([
      expect.objectContaining({
        field: 'implementation.primitive',
        message: 'is required: the name of the tool this one calls, such as http_request',
        line: 3,
      }),
    ]);
    const empty = await problemsOf(agentClash({ primitive: '""', args: '    x: 1' }));
    expect(empty).toEqual([
      expect.objectContaining({
        field: 'implementation.primitive',
        message: 'must name the tool this one calls, such as http_request',
      }),
    ]);
  });

  it('requires args, as a mapping', async () => {
    const missing = await problemsOf('name: t\ndescription: d\nimplementation:\n  primitive: http_request\n');
    expect(missing).toEqual([
      expect.objectContaining({
        field: 'implementation.args',
        message: expect.stringMatching(/^is required/),
      }),
    ]);
    const text = await problemsOf(
      'name: t\ndescription: d\nimplementation:\n  primitive: http_request\n  args: GET https://x.test\n',
    );
    expect(text).toEqual([
      expect.objectContaining({
        field: 'implementation.args',
        message: 'must be a mapping of the arguments passed to the primitive (found text)',
      }),
    ]);
  });

  it('refuses a tool that delegates to itself', async () => {
    const problems = await problemsOf(agentClash({ primitive: 'check_inventory', args: '    sku: ${sku}' }));
    expect(problems).toEqual([
      expect.objectContaining({
        field: 'implementation.primitive',
        message:
          'the tool check_inventory calls itself; name a primitive such as http_request or another tool',
      }),
    ]);
  });

  it('refuses a delegation cycle across files, naming the whole cycle', async () => {
    const result = await load({
      'tools/a.yaml': agentClash({ name: 'tool_a', primitive: 'tool_b', args: '    sku: ${sku}' }),
      'tools/b.yaml': agentClash({ name: 'tool_b', primitive: 'tool_c', args: '    sku: ${sku}' }),
      'agents/somi/api-tools/c.yaml': agentClash({
        name: 'tool_c',
        primitive: 'tool_a',
        args: '    sku: ${sku}',
      }),
      'tools/d.yaml': agentClash({ name: 'tool_d', primitive: 'tool_a', args: '    sku: ${sku}' }),
    });
    expect(result.tools).toEqual([]);
    expect(
      result.problems.map((problem) => [problem.file, problem.field, problem.message, problem.line]),
    ).toEqual([
      [
        'tools/a.yaml',
        'implementation.primitive',
        'tool tool_a has a delegation cycle: tool_a → tool_b → tool_c → tool_a',
        11,
      ],
      [
        'tools/b.yaml',
        'implementation.primitive',
        'tool tool_b has a delegation cycle: tool_b → tool_c → tool_a → tool_b',
        11,
      ],
      [
        'tools/d.yaml',
        'implementation.primitive',
        'tool tool_d delegates into a cycle: tool_d → tool_a → tool_b → tool_c → tool_a',
        11,
      ],
      [
        'agents/somi/api-tools/c.yaml',
        'implementation.primitive',
        'tool tool_c has a delegation cycle: tool_c → tool_a → tool_b → tool_c',
        11,
      ],
    ]);
  });

  it('refuses a delegation chain deeper than eight composed tools', async () => {
    const files: Record<string, string> = {};
    for (let index = 1; index <= 9; index += 1)
      files[`tools/step${index}.yaml`] = agentClash({
        name: `step${index}`,
        primitive: index === 9 ? 'http_request' : `step${index + 1}`,
        args: index === 9 ? '    method: GET\n    url: https://api.example.com/x' : '    sku: ${sku}',
      });
    const result = await load(files);
    expect(result.tools.map((tool) => tool.name)).toEqual([
      'step2',
      'step3',
      'step4',
      'step5',
      'step6',
      'step7',
      'step8',
      'step9',
    ]);
    expect(result.problems).toEqual([
      expect.objectContaining({
        file: 'tools/step1.yaml',
        message:
          'tool step1 delegates through 9 composed tools (step1 → step2 → step3 → step4 → step5 → step6 → step7 → step8 → step9); at most 8 are allowed',
      }),
    ]);
  });

  it('refuses an invalid JSON Schema for the parameters', async () => {
    const invalid = await problemsOf(
      agentClash({
        parameters: 'parameters:\n  type: object\n  properties: invalid',
        args: '    method: GET\n    url: https://api.example.com/x',
      }),
    );
    expect(invalid).toEqual([
      expect.objectContaining({
        field: 'parameters',
        message: 'is not a valid JSON Schema: properties must be object',
        line: 3,
      }),
    ]);
    const unknownKeyword = await problemsOf(
      agentClash({
        parameters: 'parameters:\n  type: object\n  requird: [sku]',
        args: '    method: GET\n    url: https://api.example.com/x',
      }),
    );
    expect(unknownKeyword).toEqual([
      expect.objectContaining({
        field: 'parameters',
        message: 'is not a valid JSON Schema: unknown keyword: "requird"',
      }),
    ]);
    const notObject = await problemsOf(
      agentClash({
        parameters: 'parameters:\n  type: string',
        args: '    method: GET\n    url: https://api.example.com/x',
      }),
    );
    expect(notObject).toEqual([
      expect.objectContaining({
        field: 'parameters',
        message: expect.stringMatching(/^must be a JSON Schema with type: object/),
      }),
    ]);
  });

  it('reports unknown, empty and unclosed placeholders', async () => {
    const problems = await problemsOf(
      agentClash({
        args: [
          '    method: GET',
          '    url: https://api.example.com/${missing}',
          '    headers:',
          '      X-Empty: ${}',
          '      X-Open: ${sku',
        ].join('\n'),
      }),
    );
    expect(problems.map((problem) => [problem.field, problem.message])).toEqual([
      ['implementation.args.headers.X-Empty', 'empty placeholder ${}; name an argument, as in ${sku}'],
      ['implementation.args.headers.X-Open', 'unclosed placeholder starting at "${sku"; close it with }'],
    ]);
    const unknown = await problemsOf(
      agentClash({ args: '    method: GET\n    url: https://api.example.com/${missing}' }),
    );
    expect(unknown).toEqual([
      expect.objectContaining({
        field: 'implementation.args.url',
        message:
          "unknown placeholder ${missing}: there is no parameter named 'missing' (declared: sku, host)",
      }),
    ]);
  });

  it('reports OpenClaw placeholders written in an AgentClash file', async () => {
    const problems = await problemsOf(
      agentClash({ args: '    method: GET\n    url: https://api.example.com/{{params.sku}}' }),
    );
    expect(problems).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^\{\{params\.sku\}\} is OpenClaw syntax/) }),
    ]);
  });

  it('refuses a secret anywhere in the URL', async () => {
    for (const url of [
      'https://api.example.com/${secrets.KEY}/items',
      'https://api.example.com/items?key=${secrets.KEY}',
      'https://${secrets.KEY}@api.example.com/',
    ])
      expect(await problemsOf(agentClash({ args: `    method: GET\n    url: ${url}` })), url).toEqual([
        expect.objectContaining({
          field: 'implementation.args.url',
          message:
            '${secrets.KEY} puts a secret in the URL, where servers log it and responses echo it; send it in a header instead',
        }),
      ]);
  });

  it('refuses a secret when the host is not written literally', async () => {
    for (const url of ['https://${host}/v1/items', 'https://api.${host}/v1', '${host}'])
      expect(
        await problemsOf(
          agentClash({
            args: `    method: GET\n    url: "${url}"\n    headers:\n      Authorization: Bearer \${secrets.KEY}`,
          }),
        ),
        url,
      ).toEqual([
        expect.objectContaining({
          field: 'implementation.args.url',
          message: expect.stringMatching(
            /^\$\{host\} lets the caller choose the host, but this tool sends secrets/,
          ),
        }),
      ]);
  });

  it('refuses a secret name the secret store cannot hold', async () => {
    const problems = await problemsOf(
      agentClash({
        args: '    method: GET\n    url: https://api.example.com/\n    headers:\n      X-Key: ${secrets.api_key}',
      }),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        field: 'implementation.args.headers.X-Key',
        message: expect.stringMatching(/^\$\{secrets\.api_key\}: "api_key" is not a valid secret name/),
      }),
    ]);
  });

  it('refuses secrets passed to anything but http_request', async () => {
    const result = await load({
      'tools/inventory.yaml': agentClash({
        args: '    method: GET\n    url: https://api.example.com/${sku}',
      }),
      'tools/wrapper.yaml': agentClash({
        name: 'wrapper',
        primitive: 'check_inventory',
        args: '    sku: ${secrets.KEY}',
      }),
    });
    expect(result.tools.map((tool) => tool.name)).toEqual(['check_inventory']);
    expect(result.problems).toEqual([
      expect.objectContaining({
        file: 'tools/wrapper.yaml',
        field: 'implementation.args.sku',
        message:
          '${secrets.KEY}: secrets can only be sent through http_request headers or body, not passed to check_inventory',
      }),
    ]);
  });

  it('reports unknown fields in the implementation and in http_request’s args', async () => {
    const problems = await problemsOf(
      'name: t\ndescription: d\nimplementation:\n  type: mock\n  primitive: http_request\n  args:\n    method: GET\n    url: https://api.example.com/\n    output_path: /tmp/x\n',
    );
    expect(problems.map((problem) => [problem.field, problem.line])).toEqual([['implementation.type', 4]]);
    const args = await problemsOf(
      agentClash({ args: '    method: GET\n    url: https://api.example.com/\n    output_path: /tmp/x' }),
    );
    expect(args).toEqual([
      expect.objectContaining({
        field: 'implementation.args.output_path',
        message: expect.stringMatching(/^unknown field "output_path"/),
      }),
    ]);
  });

  it('checks the method, the scheme, credentials in the URL and allowed_hosts', async () => {
    expect(
      await problemsOf(agentClash({ args: '    method: FETCH\n    url: https://api.example.com/' })),
    ).toEqual([
      expect.objectContaining({
        field: 'implementation.args.method',
        message: expect.stringMatching(/^method "FETCH" is not allowed/),
      }),
    ]);
    expect(
      await problemsOf(agentClash({ args: '    method: GET\n    url: ftp://api.example.com/${sku}' })),
    ).toEqual([
      expect.objectContaining({
        field: 'implementation.args.url',
        message: 'the scheme ftp: is not allowed; use http:// or https://',
      }),
    ]);
    expect(
      await problemsOf(
        agentClash({ args: '    method: GET\n    url: https://bob:hunter2@api.example.com/' }),
      ),
    ).toEqual([
      expect.objectContaining({
        field: 'implementation.args.url',
        message: 'must not hold a user name or password; send credentials in a header',
      }),
    ]);
    expect(
      await problemsOf(
        agentClash({ args: '    method: GET\n    url: https://${host}/' }) + '\nallowed_hosts:\n  - "*.com"',
      ),
    ).toEqual([
      expect.objectContaining({ field: 'allowed_hosts[0]', message: expect.stringMatching(/too broad/) }),
    ]);
  });
});

describe('tool files', () => {
  it('report YAML errors with their line and column, and skip only that file', async () => {
    const result = await load({
      'tools/broken.yaml': 'name: broken\ndescription: "unterminated\n',
      'tools/dupe-keys.yml': 'name: a\nname: b\n',
      'tools/good.yaml': agentClash({ args: '    method: GET\n    url: https://api.example.com/${sku}' }),
      'tools/notes.txt': 'not a tool',
    });
    expect(result.tools.map((tool) => tool.name)).toEqual(['check_inventory']);
    expect(result.problems).toEqual([
      expect.objectContaining({
        file: 'tools/broken.yaml',
        field: '',
        message: expect.stringMatching(/^YAML: Missing closing "quote/),
        line: 3,
      }),
      expect.objectContaining({
        file: 'tools/dupe-keys.yml',
        field: '',
        message: 'YAML: Map keys must be unique',
        line: 2,
        column: 1,
      }),
    ]);
  });

  it('say when a file is neither dialect, both, or not a mapping', async () => {
    const result = await load({
      'tools/a.yaml': 'name: a\ndescription: d\n',
      'tools/b.yaml': 'name: b\nrequest: {}\nimplementation: {}\n',
      'tools/c.yaml': '- name: c\n',
    });
    expect(result.problems.map((problem) => [problem.file, problem.message])).toEqual([
      [
        'tools/a.yaml',
        'is neither dialect: an OpenClaw api-tool has a request section, an AgentClash tool an implementation section',
      ],
      [
        'tools/b.yaml',
        'has both request (OpenClaw api-tool) and implementation (AgentClash tool); a tool uses one of them',
      ],
      [
        'tools/c.yaml',
        'a tool file must be a mapping (name: …, description: …), not a list or a single value',
      ],
    ]);
  });

  it('keep the first tool of a name (org before agent) and report the others; http_request is reserved', async () => {
    const tool = (name: string) =>
      agentClash({ name, args: '    method: GET\n    url: https://api.example.com/${sku}' });
    const result = await load({
      'tools/one.yaml': tool('lookup'),
      'agents/somi/api-tools/two.yaml': tool('lookup'),
      'tools/three.yaml': tool('http_request'),
    });
    expect(result.tools.map((loaded) => loaded.source.file)).toEqual(['tools/one.yaml']);
    expect(result.problems).toEqual([
      expect.objectContaining({
        file: 'tools/three.yaml',
        field: 'name',
        message: 'http_request is the built-in primitive; give the tool another name',
        line: 1,
      }),
      expect.objectContaining({
        file: 'agents/somi/api-tools/two.yaml',
        field: 'name',
        message: 'another tool named lookup is defined in tools/one.yaml; this one is skipped',
      }),
    ]);
  });

  it('accept an AgentClash pack block, reporting problems by list position', async () => {
    const result = await load({
      'tools/pack.yaml': [
        'tools:',
        '  custom:',
        '    - name: ping',
        '      description: Ping the API',
        '      implementation:',
        '        primitive: http_request',
        '        args: {method: GET, url: "https://api.example.com/ping"}',
        '    - name: 9lives',
        '      description: Bad name',
        '      implementation: {primitive: http_request, args: {method: GET, url: "https://api.example.com/"}}',
      ].join('\n'),
    });
    expect(result.tools.map((tool) => [tool.name, tool.source.path])).toEqual([
      ['ping', ['tools', 'custom', 0]],
    ]);
    expect(result.problems).toEqual([
      expect.objectContaining({
        field: 'tools.custom[1].name',
        message: expect.stringMatching(/^must start with a letter/),
        line: 8,
        column: 7,
      }),
    ]);
  });

  it('load nothing, without complaint, when the folders do not exist; refuse a bad agent folder name', async () => {
    expect(await load({})).toEqual({ tools: [], problems: [] });
    const org = await tempOrg();
    try {
      expect((await loadComposedTools(org.org, '..')).problems).toEqual([
        { file: 'agents', field: '', message: '".." is not an agent folder name' },
      ]);
    } finally {
      await org.cleanup();
    }
  });
});
