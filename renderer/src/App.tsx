import { Shell } from './shell/Shell';

export function App() {
  return <Shell />;
}
