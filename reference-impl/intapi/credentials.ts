/** The Integration API credentials the server accepts (public-facts#authentication-integration-api). */
export interface Credentials {
  readonly apiKey: string;
  readonly username: string;
  readonly password: string;
  readonly privateKey: string;
}

/**
 * The documented sandbox credentials of `lp-conformance serve` (env overrides LPC_API_KEY,
 * LPC_USERNAME, LPC_PASSWORD, LPC_PRIVATE_KEY). They authenticate as the seeded admin user.
 */
export const SANDBOX_CREDENTIALS: Credentials = Object.freeze({
  apiKey: 'lpc-sandbox-key',
  username: 'lpc.admin',
  password: 'lpc-sandbox-password',
  privateKey: 'lpc-sandbox-private-key',
});
