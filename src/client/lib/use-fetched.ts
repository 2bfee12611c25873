import { useCallback, useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import { errorMessage } from '../../shared/error-message';

type Answer<T> = { key: string; data?: T; error?: string };

/**
 * What `load` answers for `key` (the query it fetches, as a string), fetched again when the
 * key changes or on `reload`. While a fetch runs the last answer stays available as `data`,
 * with `loading` set; `update` changes the shown data in place (an action's answer). `load`
 * may ask `isCurrent()` before acting on its answer (a later key has not replaced it).
 */
export function useFetched<T>(key: string, load: (isCurrent: () => boolean) => Promise<T>) {
  const [version, setVersion] = useState(0);
  const [answer, setAnswer] = useState<Answer<T>>({ key: '' });
  const fetchKey = `${key}:${version}`;

  useEffect(() => {
    let current = true;
    load(() => current).then(
      (data) => current && setAnswer({ key: fetchKey, data }),
      (failure: unknown) =>
        current &&
        setAnswer((last) => ({
          key: fetchKey,
          data: last.data,
          error: errorMessage(failure),
        })),
    );
    return () => {
      current = false;
    };
    // `load` is rebuilt on every render; the key says when it asks for something else.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetchKey]);

  const reload = useCallback(() => setVersion((value) => value + 1), []);
  const update: Dispatch<SetStateAction<T | undefined>> = useCallback(
    (change) =>
      setAnswer((last) => ({
        ...last,
        data:
          typeof change === 'function'
            ? (change as (data?: T) => T | undefined)(last.data)
            : change,
      })),
    [],
  );
  return {
    data: answer.data,
    loading: answer.key !== fetchKey,
    error: answer.error ?? '',
    reload,
    update,
  };
}
