import { describe, expect, it } from 'vitest';
import { launchRequestOf } from './launch-arguments';

const app = '/opt/LeMMing Desktop/lemming-desktop';

describe('what a launch asks the app to open', () => {
  it('opens an org folder given as an argument, relative to where the launch started', () => {
    expect(launchRequestOf([app, '/home/ann/orgs/acme'], '/home/ann')).toEqual({
      kind: 'open_org',
      path: '/home/ann/orgs/acme',
    });
    expect(launchRequestOf([app, '--no-sandbox', 'orgs/acme'], '/home/ann')).toEqual({
      kind: 'open_org',
      path: '/home/ann/orgs/acme',
    });
  });

  it('opens the org a lemming:// link names', () => {
    expect(launchRequestOf([app, 'lemming://open?path=%2Fhome%2Fann%2Forgs%2Fa%20b'], '/')).toEqual({
      kind: 'open_org',
      path: '/home/ann/orgs/a b',
    });
  });

  it('opens nothing for a link it does not know or one without an absolute path', () => {
    expect(launchRequestOf([app, 'lemming://run?path=%2Fx'], '/')).toEqual({ kind: 'none' });
    expect(launchRequestOf([app, 'lemming://open?path=relative'], '/')).toEqual({ kind: 'none' });
    expect(launchRequestOf([app, 'lemming://open'], '/')).toEqual({ kind: 'none' });
  });

  it('asks nothing of a plain launch, or of a developer checkout started with `electron .`', () => {
    expect(launchRequestOf([app], '/')).toEqual({ kind: 'none' });
    expect(launchRequestOf(['/usr/bin/electron', '.', '--inspect'], '/work')).toEqual({ kind: 'none' });
    expect(launchRequestOf(['/usr/bin/electron', 'out/main/index.cjs'], '/work')).toEqual({ kind: 'none' });
  });
});
