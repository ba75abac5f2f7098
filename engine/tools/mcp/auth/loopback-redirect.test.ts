import { afterEach, describe, expect, it } from 'vitest';
import { listenForRedirect, type LoopbackRedirect } from './loopback-redirect';

const open: LoopbackRedirect[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((redirect) => redirect.close()));
});

async function listening(timeoutMs = 30_000) {
  const redirect = await listenForRedirect(timeoutMs);
  open.push(redirect);
  return redirect;
}

describe('the loopback redirect a sign-in answers to', () => {
  it('listens on 127.0.0.1 only and takes the one answer that carries its state', async () => {
    const redirect = await listening();
    expect(redirect.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const forged = await fetch(`${redirect.url}?code=stolen&state=guessed`);
    expect(forged.status).toBe(404);
    const answered = await fetch(`${redirect.url}?code=the-code&state=${redirect.state}`);
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('You can close this window');
    await expect(redirect.code).resolves.toBe('the-code');
    // One-shot: it no longer listens.
    await expect(fetch(`${redirect.url}?code=again&state=${redirect.state}`)).rejects.toThrow();
  });

  it('an answer that says the person did not sign in ends the sign-in with the reason', async () => {
    const redirect = await listening();
    await fetch(`${redirect.url}?error=access_denied&error_description=No%20thanks&state=${redirect.state}`);
    await expect(redirect.code).rejects.toThrow('the sign-in was not completed (access_denied: No thanks)');
  });

  it('gives up when no answer comes in time', async () => {
    const redirect = await listening(1_000);
    await expect(redirect.code).rejects.toThrow('the sign-in was not completed within 1 s');
  });
});
