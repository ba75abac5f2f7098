import { toolSuccess } from '../tool-result';
import type { ToolSpec } from '../tool-spec';

/** A network tool that answers "sunny": a connector's tool, for readiness and policy tests. */
export const fetchWeather: ToolSpec = {
  name: 'fetch_weather',
  kind: 'network',
  title: 'Weather',
  definition: { name: 'fetch_weather', description: 'Weather', parameters: { type: 'object' } },
  run: async () => toolSuccess('sunny'),
};

/** The same tool as an org's tool file (tools/weather.yaml), whose request needs the secret WEATHER_KEY. */
export const WEATHER_TOOL = `name: fetch_weather
description: Today's weather for a city
parameters:
  city: {type: string, required: true}
request:
  method: GET
  url: "https://weather.example/v1/today?city={{params.city}}"
  headers: {x-api-key: "{{env.WEATHER_KEY}}"}
allowed_hosts: ["weather.example"]
`;
