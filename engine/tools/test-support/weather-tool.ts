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
