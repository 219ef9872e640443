import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { seriousViolations } from './axe.ts';
import type { TestUser } from './support.ts';

// What several browser tests of accounts do the same way (issue 52): two-factor set up on the
// Security screen, the sign-in that asks for its code, and an administrator made and at work.

/** The app's TOTP for the key shown on the Security screen. */
export function authenticator(key: string) {
  return new TOTP({ secret: Secret.fromBase32(key.replace(/\s/g, '')), digits: 6, period: 30 });
}

/** A code from a later 30-second step: the one that turned two-factor on is used up. */
export function nextCode(totp: TOTP, steps = 1) {
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** Turns two-factor on from the Security screen (a wrong code first); the key and the recovery codes. */
export async function turnOnTwoFactor(page: Page) {
  await page.getByRole('heading', { name: /Two-factor sign-in/ }).waitFor();
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
  const key = (await page.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/).textContent()) ?? '';
  const totp = authenticator(key);
  const codeField = page.getByLabel('Code from your app');
  await codeField.fill('000000');
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByText('That code is not right', { exact: false }).waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await codeField.fill(totp.generate());
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByText('Save your recovery codes now').waitFor();
  const recoveryCodes = await page
    .getByRole('list', { name: 'Recovery codes' })
    .getByRole('listitem')
    .allTextContents();
  expect(await seriousViolations(page)).toEqual([]);
  return { totp, recoveryCodes };
}

/** The sign-in page up to its second step, which asks for the code. */
export async function signInUntilCode(page: Page, user: Pick<TestUser, 'email' | 'password'>) {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
}

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../api');

/** Makes someone an administrator of the shared server with `pnpm user:admin`, through its admin socket. */
export async function makeAdmin(email: string) {
  // The server's IMPORT_DIR is DATA_DIR/import (server.ts).
  const dataDir = path.dirname(inject('importDir'));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--experimental-wasm-modules',
      '--no-warnings=ExperimentalWarning',
      '--import',
      'tsx',
      'scripts/user-admin.ts',
      '--email',
      email,
    ],
    { cwd: apiDir, env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' } },
  );
  expect(stdout.trim()).toMatch(/is (now|already) an administrator\.$/);
}

/** An action from a person's menu in the admin console, confirmed in its dialog. */
export async function confirmAdminAction(page: Page, person: string, action: string, confirm: string) {
  await page.getByRole('button', { name: `Actions for ${person}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
  await page.getByRole('dialog').getByRole('button', { name: confirm, exact: true }).click();
}

/** The owner's project with the crew member in it: invited by e-mail, accepted by the crew member. */
export async function joinProject(owner: BrowserContext, crew: BrowserContext, crewEmail: string) {
  const project = await owner.request.post('/api/projects', { data: { name: 'Harbour Night Shoot' } });
  expect(project.status()).toBe(201);
  const { id } = (await project.json()) as { id: string };
  const invited = await owner.request.post(`/api/projects/${id}/invitations`, {
    data: { email: crewEmail, role: 'member' },
  });
  expect(invited.status()).toBe(201);
  const mine = (await (await crew.request.get('/api/invitations')).json()) as { id: string }[];
  expect(mine).toHaveLength(1);
  const accepted = await crew.request.post(`/api/invitations/${mine[0]?.id}/accept`);
  expect(accepted.ok()).toBe(true);
}
