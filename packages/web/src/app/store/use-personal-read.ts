import type { MealsClient } from '@canteen-meals/client';
import { useEffect, useState } from 'preact/hooks';
import { messageOf } from '../../shared/api.js';
import { personalClient } from './clients.js';
import { session } from './state.js';

/**
 * A read of the person's own data for a view: its answer (null until it comes) or why it failed; read again when the
 * session or one of `inputs` changes. Nothing is read signed out.
 */
export function usePersonalRead<T>(
  read: (client: MealsClient) => Promise<T>,
  inputs: readonly unknown[],
): { readonly answer: T | null; readonly problem: string | null } {
  const signedIn = session.value;
  const [answer, setAnswer] = useState<T | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (signedIn === null) return;
    let current = true;
    read(personalClient(() => signedIn.getToken())).then(
      (value) => {
        if (!current) return;
        setAnswer(() => value);
        setProblem(null);
      },
      (error: unknown) => current && setProblem(messageOf(error)),
    );
    return () => {
      current = false;
    };
  }, [signedIn, ...inputs]);
  return { answer, problem };
}
