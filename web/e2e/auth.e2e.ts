import { describe, expect, it } from 'vitest';
import { signInAfterSignUp, submitSignIn } from './accounts.ts';
import { MOBILE, newUser, screenshot, sharedBrowser, signedInPage, submitSignUp, visitorPage } from './support.ts';

const browser = sharedBrowser();

describe('signing up and in', () => {
  it('shows the landing page to signed-out visitors, on any path', async () => {
    const { context, page } = await visitorPage(browser());
    await page.goto('/tasks');
    await page.getByText('Authorized Access Only').waitFor();
    expect(await page.getByText('LAST UPDATE: 9.3.2025').isVisible()).toBe(true);
    await screenshot(page, 'landing-desktop');
    await page.setViewportSize(MOBILE);
    await screenshot(page, 'landing-mobile');
    await context.close();
  });

  it('signs up from the landing page and lands on the dashboard', async () => {
    const { context, page } = await visitorPage(browser());
    const user = newUser('Marta Ruiz');
    await page.goto('/');
    await page.getByRole('button', { name: 'Get Started' }).click();
    await submitSignUp(page, user);
    await signInAfterSignUp(page, user);
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByRole('banner').getByText('Marta Ruiz').isVisible()).toBe(true);
    await context.close();
  });

  it('answers a taken e-mail as any other: check your e-mail', async () => {
    const { context, user } = await signedInPage(browser());
    const { context: fresh, page } = await visitorPage(browser());
    await page.goto('/');
    await page.getByRole('button', { name: 'Get Started' }).click();
    await submitSignUp(page, { name: 'Someone Else', email: user.email, password: 'another long password' });
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await fresh.close();
    await context.close();
  });

  it('signs in through /api/login with e-mail and password', async () => {
    const { context, user } = await signedInPage(browser());
    await context.clearCookies();
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign In', exact: true }).first().click();
    await page.waitForURL(/\/signin/);
    await submitSignIn(page, user);
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
    await context.close();
  });

  it('signs out back to the landing page', async () => {
    const { context, page } = await signedInPage(browser());
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByText('You have been successfully logged out').waitFor();
    await page.getByText('Authorized Access Only').waitFor();
    const me = await context.request.get('/api/auth/user');
    expect(me.status()).toBe(401);
    // The tab's live socket outlives the sign-out for a moment; the server closing it for the ended
    // session must not read as "your session expired" (a toast and a trip to the sign-in page).
    await page.waitForTimeout(4_500);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByText('Logging in again').count()).toBe(0);
    await context.close();
  });

  it('says so and goes to sign-in when a kept cookie’s session has ended (the app starts on the cookie, before the check)', async () => {
    const { context, page } = await signedInPage(browser());
    const kept = await context.cookies();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByText('Authorized Access Only').waitFor();
    // A device that kept the cookie of a session that has since ended (signed out elsewhere).
    await context.addCookies(kept);
    await page.goto('/tasks');
    await page.getByText('You are logged out. Logging in again...').waitFor();
    await page.waitForURL(/\/signin\?/);
    expect(decodeURIComponent(page.url())).toContain('callbackUrl=/tasks');
    await context.close();
  });

  it('header search goes to the file manager, never with an empty query', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/tasks' });
    const search = page.getByPlaceholder('Search files, tags, or galleries...');
    await search.fill('   ');
    await search.press('Enter');
    expect(new URL(page.url()).pathname).toBe('/tasks');
    await search.fill('rooftop');
    await search.press('Enter');
    await page.waitForURL(/\/files\?search=rooftop$/);
    await page.getByRole('heading', { name: 'File Manager' }).waitFor();
    await context.close();
  });

  it('shows the 404 page inside the shell for unknown paths', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/no/such/page' });
    await page.getByText('404 Page Not Found').waitFor();
    await screenshot(page, 'not-found-desktop');
    await context.close();
  });

  it('shows legal pages to everyone', async () => {
    const { context, page } = await visitorPage(browser());
    await page.goto('/privacy');
    await page.getByRole('heading', { name: 'Privacy Policy' }).waitFor();
    await page.goto('/terms');
    await page.getByRole('heading', { name: 'Terms of Service' }).waitFor();
    await context.close();
  });
});
