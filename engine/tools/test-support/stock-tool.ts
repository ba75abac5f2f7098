/**
 * An OpenClaw api-tool file (tools/stock.yaml) whose service address is a setting (STOCK_URL) and whose
 * key is a secret (STOCK_KEY): a composed tool with settings of its own.
 */
export function stockToolFile(allowedHost: string): string {
  return `name: stock_level
description: How many of a part are in stock
parameters:
  sku: {type: string, required: true}
request:
  method: GET
  url: "{{env.STOCK_URL}}/v1/items/{{params.sku}}"
  headers: {x-api-key: "{{env.STOCK_KEY}}"}
allowed_hosts: ["${allowedHost}"]
`;
}
