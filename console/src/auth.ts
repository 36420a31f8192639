// Passkeys in the browser (@simplewebauthn/browser): enrol with a one-time code, sign in, step up.
// The server holds every challenge; the page only relays the ceremony.
import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { call, setCsrfToken } from './api';

export interface Me {
  identity: { id: string; name: string; role: string; realm: 'admin' | 'console'; broker_id: string | null };
  session_id: string;
  stepped_up: boolean;
  csrf_token: string;
  grants: Array<{ grant: string; scopes: string[] }>;
}

export async function whoAmI(): Promise<Me> {
  const me = await call<Me>('GET', '/console/api/me');
  setCsrfToken(me.csrf_token);
  return me;
}

export async function enrol(code: string): Promise<void> {
  const { options } = await call<{ options: Parameters<typeof startRegistration>[0]['optionsJSON'] }>(
    'POST',
    '/console/api/enroll/options',
    { code },
  );
  const response = await startRegistration({ optionsJSON: options });
  await call('POST', '/console/api/enroll/verify', { code, response });
}

export async function signIn(): Promise<Me> {
  const { options } = await call<{ options: Parameters<typeof startAuthentication>[0]['optionsJSON'] }>(
    'POST',
    '/console/api/login/options',
  );
  const response = await startAuthentication({ optionsJSON: options });
  await call('POST', '/console/api/login/verify', { response });
  return whoAmI();
}

export async function stepUp(): Promise<void> {
  const { options } = await call<{ options: Parameters<typeof startAuthentication>[0]['optionsJSON'] }>(
    'POST',
    '/console/api/step-up/options',
  );
  const response = await startAuthentication({ optionsJSON: options });
  await call('POST', '/console/api/step-up/verify', { response });
}

export async function signOut(): Promise<void> {
  await call('POST', '/console/api/logout');
}
