import { useEffect, useState } from 'react';
import { type IdentityProvider, identityProviders } from './signIn.ts';

/** The identity providers the server has configured (Auth.js lists them); null while asking. */
export function useIdentityProviders(): IdentityProvider[] | null {
  const [providers, setProviders] = useState<IdentityProvider[] | null>(null);
  useEffect(() => {
    let active = true;
    identityProviders()
      .then((listed) => active && setProviders(listed))
      .catch(() => active && setProviders([]));
    return () => {
      active = false;
    };
  }, []);
  return providers;
}
